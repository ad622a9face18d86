#!/usr/bin/env bash
# Self-test of the runtime corpus: builds every test with a plain clang and
# -DENZYME_RT_SELFTEST, links Inputs/selftest-stubs.c instead of running the
# AD engine, and runs it, so each test checks its own analytic derivatives
# against central finite differences (see check.h). Prints one line per test
# and exits non-zero if any expectation disagrees with finite differences.
#   test-suite/runtime/Inputs/selftest.sh [TEST...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
runtime=$(dirname "$here")
include=$(cd "$runtime/../../enzyme/include" && pwd) || exit 1
cc=${CC:-clang-19}
cxx=${CXX:-clang++-19}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cc" -O1 -c "$here/selftest-stubs.c" -o "$tmp/stubs.o" || exit 1

tests=("$@")
[[ ${#tests[@]} -eq 0 ]] && tests=("$runtime"/*.c "$runtime"/*.cpp "$here"/cross-tu-main.c \
                                   "$here"/cxx-api-cross-tu-main.cpp)
failed=0
for t in "${tests[@]}"; do
  name=$(basename "$t")
  case "$t" in
    *.cpp) compiler=$cxx ;;
    *) compiler=$cc ;;
  esac
  extra=()
  [[ $name == cross-tu-main.c ]] && extra=("$here/cross-tu-energy.c")
  [[ $name == custom-gradient-request-at-link.c ]] && extra=("$here/deferred-registration-helper.c")
  [[ $name == indirect-forward-library-target.c ]] && extra=("$here/library-cube.c")
  [[ $name == link-request-sees-compile-time-body.c ]] && extra=("$here/link-body-helper.c")
  [[ $name == cxx-api-cross-tu-main.cpp ]] && extra=(-x c "$here/cross-tu-energy.c" -x none)
  [[ $name == indirect-call-inactive-declaration.c ]] && extra=("$here/jitter.c")
  # Kokkos programs compare the engine's gradients with finite differences
  # and forward mode themselves (C++ requests, which the stubs cannot be).
  if [[ $name == kokkos-* ]]; then
    echo "skip $name (checks the engine's results itself)"
    continue
  fi
  # MPI programs run as one process (singleton MPI_Init).
  if [[ $name == mpi-* ]]; then
    command -v mpicc >/dev/null || { echo "skip $name (no mpicc)"; continue; }
    extra=($(mpicc --showme:compile) $(mpicc --showme:link))
  fi
  if ! "$compiler" -DENZYME_RT_SELFTEST -I"$include" -I"$here" -I/usr/include/eigen3 -O1 -w "$t" "${extra[@]}" \
        "$tmp/stubs.o" -o "$tmp/prog" -lm 2>"$tmp/err"; then
    echo "BUILD-FAIL $name"; cat "$tmp/err"; failed=1; continue
  fi
  if timeout 20 "$tmp/prog" </dev/null >/dev/null 2>"$tmp/err"; then
    echo "ok   $name"
  else
    echo "FAIL $name"; cat "$tmp/err"; failed=1
  fi
done
exit $failed
