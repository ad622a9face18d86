"""The C++ program fuzzer (kind cpp): generate (cpp_program), build with
enzyme-clang++ -std=c++17, judge with the C fuzzer's oracle (c_oracle) and
classify as the C fuzzer does (c_fuzz).

The generated function keeps the C fuzzer's interface (double scalars,
enzyme_out or enzyme_const; double arrays, enzyme_dup, enzyme_dupnoneed or
enzyme_const; double or void result), so c_oracle.harness writes its oracle
unchanged: the same three checks (gradient and tangents along a random
direction against finite differences, and the dot-product test between the
modes), compiled as C++ in the same translation unit. Only the body is C++
(see cpp_program).

  run_case(seed, opt, workdir, tools) -> Result    one program, one file pair
  run_batch(seeds, opt, workdir, tools) -> [Result] several programs in one
                                                   translation unit
  minimise(result, tools) -> None                  not automated yet (cvise
                                                   by hand; c_reduce is for C)

A case lives in its own folder: fz<S>.cpp (the generated program),
fz<S>_main.cpp (the oracle, which #includes it) and the binary.
"""

import c_fuzz
import c_oracle
import cpp_program
import oracle_kinds

KIND = "cpp"
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 10


def build_command(tools, opt, source, exe, flags=()):
    """The command that builds an oracle program (C++17) at -`opt`, linked
    with the libm probe. The oracle's prelude is C that is also C++; its
    `#define _GNU_SOURCE` repeats what clang++ predefines."""
    return [str(tools.clangxx), "-fenzyme", "-" + opt, "-std=c++17", "-Wno-macro-redefined",
            *(["-isystem", cpp_program.EIGEN_INCLUDE] if cpp_program.EIGEN else []),
            *flags, str(source), str(c_oracle.libm_probe(tools)), "-o", str(exe), "-lm"]


# Cases, batches and reruns as the cuda kind's (oracle_kinds).
ORACLE = oracle_kinds.OracleKind(KIND, cpp_program.generate, ".cpp", build_command,
                                 COMPILE_TIMEOUT, RUN_TIMEOUT)
run_case, run_batch, rerun_command = ORACLE.run_case, ORACLE.run_batch, ORACLE.rerun_command


def failure_signature(result):
    return c_fuzz.failure_signature(result)


def minimise(result, tools):
    """Not automated for C++ yet: the kept folder has fz<S>.cpp and
    fz<S>_main.cpp; reduce fz<S>.cpp by hand or with cvise."""
    return None

