#!/usr/bin/env bash
# Robustness sweep for the request parser and the reverse-mode engine.
#
#   malformed-requests.sh CLANG WORKDIR [COUNT] [SEED] [MODE]
#
# Generates COUNT (default 100) small C programs from a fixed SEED (default
# 20240519), each with one `__enzyme_autodiff` call that is usually wrong:
# random activity markers (also unsupported and unknown ones), missing or
# extra values and shadows, values of the wrong type, a function argument
# that is not a compile-time constant, random return types for
# `__enzyme_autodiff`, and random signatures for the differentiated function
# (double, float, long double, int, long, pointers, small and large structs by
# value). MODE says where the function to differentiate comes from: "direct"
# (default: written in the call, as a constant or as a run-time value),
# "helper" (always a parameter of a helper function holding the request,
# which -O0 has to specialise: called with known or run-time functions, once
# or twice, with two requests, through an unprototyped declaration with too
# few arguments, through a cast) or "mixed" (a quarter through a helper).
# Each is compiled with `-fenzyme -c` at -O0 and at -O2, and the ones
# that compile are also linked with -fenzyme (requests with callees in other
# files are finished at link time).
#
# A clean error or success are both fine. The sweep fails when a compile or
# link crashes: exit status other than 0 and 1, or a stack dump, an assertion,
# "PLEASE submit", "LLVM ERROR" or "UNREACHABLE" in the output (a crashing
# cc1 can leave the driver's exit status at 1, so the status alone is not
# enough; -fno-crash-diagnostics keeps crashes from writing reproducers to
# /tmp). It also fails
# when clang's front end rejects a program (a bug in this generator, which
# would make the sweep test nothing).
#
# JOBS (default 2) compiles run at a time. On failure each offending program
# is printed with the command and its output.
set -u
USAGE="usage: malformed-requests.sh CLANG WORKDIR [COUNT] [SEED] [direct|helper|mixed]"
CLANG=${1:?$USAGE}
WORK=${2:?$USAGE}
COUNT=${3:-100}
SEED=${4:-20240519}
MODE=${5:-direct}
case $MODE in direct|helper|mixed) ;; *) echo "$USAGE"; exit 2 ;; esac
JOBS=${JOBS:-2}

rm -rf "$WORK" && mkdir -p "$WORK" || exit 2

python3 - "$WORK" "$COUNT" "$SEED" "$MODE" <<'PY' || { echo "generator failed"; exit 2; }
import random, sys, os

work, count, seed, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
HELPER_P = {"direct": 0.0, "helper": 1.0, "mixed": 0.25}[mode]
rng = random.Random(seed)

# (C type, kind) for the differentiated function's parameters.
PARAM_TYPES = [
    ("double", "fp"), ("double", "fp"), ("float", "fp"), ("long double", "fp"),
    ("int", "int"), ("long", "int"),
    ("double *", "ptr"), ("double *", "ptr"), ("float *", "ptr"),
    ("int *", "iptr"),
    ("struct S2", "s2"), ("struct S5", "s5"), ("struct SM", "sm"),
]
RETURN_TYPES = ["double", "double", "float", "long double", "void", "int",
                "double *", "struct S2"]
REQUEST_RETURNS = ["double", "double", "float", "void", "void", "int", "long double",
                   "struct G1", "struct G2", "struct G2", "struct G3", "struct GI",
                   "double *"]
MARKERS = ["enzyme_dup", "enzyme_dupnoneed", "enzyme_const", "enzyme_out",
           "enzyme_width", "enzyme_allocated", "enzyme_tape",
           "enzyme_primal_return", "enzyme_bogus"]

# Values available in the calling function, by kind: (expression, kind).
POOL = {
    "fp": ["d0", "d1", "(double)f0", "ld0"],
    "float": ["f0"],
    "int": ["i0", "l0", "n"],
    "ptr": ["a0", "a1", "b0", "fa0", "fb0"],
    "iptr": ["ia0", "ib0"],
    "s2": ["s2", "s2b"],
    "s5": ["s5", "s5b"],
    "sm": ["sm", "smb"],
}
ALL_VALUES = [v for vs in POOL.values() for v in vs] + ["0", "(void *)0", "&d0"]

PRELUDE = r"""#include <math.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern int enzyme_width, enzyme_allocated, enzyme_tape, enzyme_primal_return;
extern int enzyme_bogus;
struct S2 { double a, b; };
struct S5 { double a, b, c, d, e; };
struct SM { double a; int n; };
struct G1 { double a; };
struct G2 { double a, b; };
struct G3 { double a, b, c; };
struct GI { int a; double b; };
double ext_h(double);  /* defined in another file, compiled with -fenzyme */
double gmut;           /* a mutable global */
void use(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }
static double helper(double x, int k) { double y = x; for (int j = 0; j < k; ++j) y = y * x + 1.0; return y; }
"""

def param_use(name, kind, ctype):
    if kind == "fp":
        return rng.choice([f"{name} * {name}", f"sin({name})", f"({name} + 1.5)",
                           f"exp({name}) * 0.5", f"{name} / 3.0"])
    if kind == "int":
        return f"(double){name} * 0.25"
    if kind == "ptr":
        return rng.choice([f"{name}[0] * {name}[1]", f"{name}[0]", f"sqrt({name}[1] * {name}[1] + 1.0)"])
    if kind == "iptr":
        return f"(double){name}[0]"
    if kind == "s2":
        return f"{name}.a * {name}.b"
    if kind == "s5":
        return f"{name}.a * {name}.e + {name}.c"
    if kind == "sm":
        return f"{name}.a * {name}.n"
    raise ValueError(kind)

def make_function(i):
    nparams = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    params = [rng.choice(PARAM_TYPES) for _ in range(nparams)]
    ret = rng.choice(RETURN_TYPES)
    names = [f"p{k}" for k in range(nparams)]
    sig = ", ".join(f"{t} {n}" for (t, _), n in zip(params, names)) or "void"
    body = ["  double r = 0.5;"]
    for (t, kind), n in zip(params, names):
        body.append(f"  r += {param_use(n, kind, t)};")
    extra = rng.random()
    if extra < 0.10:
        body.append("  r = ext_h(r);")
    elif extra < 0.18:
        body.append("  gmut = r;")
    elif extra < 0.26:
        body.append("  for (int k = 0; k < 3; ++k) r = r * r * 0.5 + 0.1;")
    elif extra < 0.32:
        body.append("  if (r > 1.0) r = log(r); else r = r * r;")
    elif extra < 0.38:
        body.append("  r = helper(r, 2);")
    ptrs = [n for (t, kind), n in zip(params, names) if kind == "ptr"]
    if ptrs and rng.random() < 0.4:
        body.append(f"  {ptrs[0]}[1] = r * {ptrs[0]}[0];")
    if ret == "void":
        body.append(f"  {ptrs[-1]}[0] = r;" if ptrs else "  (void)r;")
    elif ret == "double *":
        body.append(f"  return {ptrs[0]};" if ptrs else "  static double cell; cell = r; return &cell;")
    elif ret == "struct S2":
        body.append("  struct S2 s = {r, r * 2.0}; return s;")
    else:
        body.append(f"  return ({ret})r;")
    decl = f"{ret} fn{i}({sig})"
    return params, ret, decl + " {\n" + "\n".join(body) + "\n}\n"

def correct_args(kind):
    """A well-formed marker/value/shadow sequence for a parameter of kind."""
    v = rng.choice(POOL[kind])
    if kind == "fp":
        return rng.choice([[v], ["enzyme_out", v], ["enzyme_const", v]])
    if kind == "ptr":
        shadow = rng.choice(["da0", "da1", "db0"]) if v in ("a0", "a1", "b0") else "dfa0"
        return rng.choice([[v, shadow], ["enzyme_dup", v, shadow],
                           ["enzyme_dupnoneed", v, shadow], ["enzyme_const", v]])
    if kind == "iptr":
        return rng.choice([["enzyme_const", v], [v, "ib0"]])
    if kind == "int":
        return rng.choice([[v], ["enzyme_const", v]])
    return rng.choice([[v], ["enzyme_const", v]])

def param_args(kind):
    r = rng.random()
    if r < 0.60:
        return correct_args(kind), "ok"
    good = correct_args(kind)
    value = good[-1] if good[0] not in MARKERS else good[1]
    mutation = rng.choice(["wrong-marker", "marker-only", "no-shadow", "extra-shadow",
                           "wrong-type", "double-marker", "drop", "marker-address",
                           "wrong-type-marked"])
    if mutation == "wrong-marker":
        m = rng.choice(MARKERS)
        tail = [value] + ([rng.choice(ALL_VALUES)] if rng.random() < 0.5 else [])
        if m == "enzyme_width" or m == "enzyme_allocated":
            tail = [str(rng.choice([1, 2, 8]))] + tail
        return [m] + tail, mutation
    if mutation == "marker-only":
        return [rng.choice(MARKERS)], mutation
    if mutation == "no-shadow":
        return [rng.choice(["enzyme_dup", "enzyme_dupnoneed"]), value], mutation
    if mutation == "extra-shadow":
        return good + [rng.choice(ALL_VALUES)], mutation
    if mutation == "wrong-type":
        return [rng.choice(ALL_VALUES)], mutation
    if mutation == "wrong-type-marked":
        return [rng.choice(MARKERS[:4]), rng.choice(ALL_VALUES)], mutation
    if mutation == "double-marker":
        return [rng.choice(MARKERS), rng.choice(MARKERS)] + good, mutation
    if mutation == "marker-address":
        return ["&" + rng.choice(MARKERS[:4])] + [value], mutation
    return [], mutation  # drop

def fn_arg(i):
    r = rng.random()
    if r < 0.82:
        return rng.choice([f"(void *)fn{i}", f"(void *)&fn{i}", f"fn{i}"])
    return rng.choice([
        "(void *)0", "(void *)&gmut", f"n ? (void *)fn{i} : (void *)other",
        "table[n & 1]", "(void *)fptr", "(void *)(long)n", "(void *)&enzyme_dup",
        "(void *)ext_h", "(void *)use", "(void *)t_caller",
    ])

LOCALS = r"""  double d0 = 1.25, d1 = -0.5; float f0 = 2.5f; long double ld0 = 0.75L;
  int i0 = 3; long l0 = 4;
  double a0[4] = {1, 2, 3, 4}, a1[4] = {0.5, 1, 1.5, 2}, b0[4] = {2, 2, 2, 2};
  double da0[4] = {0}, da1[4] = {0}, db0[4] = {0};
  float fa0[4] = {1, 2, 3, 4}, fb0[4] = {1, 1, 1, 1}, dfa0[4] = {0};
  int ia0[4] = {1, 2, 3, 4}, ib0[4] = {0};
  struct S2 s2 = {1.5, 2.5}, s2b = {0, 0};
  struct S5 s5 = {1, 2, 3, 4, 5}, s5b = {0};
  struct SM sm = {1.5, 2}, smb = {0, 0};
"""

def helper_call_sites(i, two, kr):
    """Calls of the helper that holds the request: the function to
    differentiate reaches the request through the helper's parameter. With
    an unprototyped declaration (kr) a call may pass too few arguments."""
    sites = []
    for _ in range(rng.choice([1, 1, 2])):
        f = fn_arg(i) if rng.random() < 0.7 else f"(void *)fn{i}"
        g = ", (void *)other" if two else ""
        form = rng.random()
        if kr and form < 0.5:
            sites.append(rng.choice(["  req();", "  req(n);", f"  req({f});"]))
        elif form < 0.9:
            sites.append(f"  req({f}{g}, n);")
        else:
            sites.append("  ((void (*)(int))req)(n);")  # through a cast
    return sites

manifest = []
for i in range(count):
    params, ret, fn = make_function(i)
    has_fn = rng.random() > 0.03
    # Where the function to differentiate comes from: written in the call
    # (most variants), or a parameter of a helper that holds the request.
    helper = rng.random() < HELPER_P and has_fn
    two = helper and rng.random() < 0.3
    kr = helper and rng.random() < 0.3
    args = [("fparam" if helper else fn_arg(i))] if has_fn else []
    muts = []
    for (t, kind) in params:
        a, m = param_args(kind)
        args += a
        muts.append(m)
    g = rng.random()
    if g < 0.08:
        args += [rng.choice(ALL_VALUES + MARKERS) for _ in range(rng.randint(1, 3))]
        muts.append("extra-args")
    elif g < 0.14 and len(args) > 1:
        args = args[: rng.randint(1, len(args) - 1)]
        muts.append("truncated")
    req_ret = rng.choice(REQUEST_RETURNS)
    # Without a function argument the first argument may be anything: only
    # an unprototyped declaration lets such a call through the front end.
    proto = "void *, ..." if has_fn and rng.random() < 0.85 else ""
    lines = [PRELUDE, fn,
             "double other(double x) { return x; }",
             f"void *table[2] = {{(void *)fn{i}, (void *)other}};",
             f"void *fptr = (void *)fn{i};",
             f"{req_ret} __enzyme_autodiff({proto});"]
    if helper:
        linkage = rng.choice(["static ", ""])
        gparam = ", void *gparam" if two else ""
        lines.append(f"{linkage}void req({'' if kr else 'void *fparam' + gparam + ', int n'});")
        lines.append("void t_caller(int n) {")
        lines += helper_call_sites(i, two, kr)
        lines.append("}")
        lines.append(f"{linkage}void req(void *fparam{gparam}, int n) {{")
        muts.append(f"helper({linkage.strip() or 'extern'}"
                    f"{', two requests' if two else ''}{', unprototyped' if kr else ''})")
    else:
        lines.append("void t_caller(int n) {")
    lines += [LOCALS,
              "  (void)d0; (void)d1; (void)f0; (void)ld0; (void)i0; (void)l0; (void)n;"]
    call = "__enzyme_autodiff(" + ", ".join(args) + ")"
    if req_ret == "void":
        lines.append(f"  {call};")
    else:
        lines.append(f"  {req_ret} res = {call};\n  use(&res);")
    if two:
        lines.append("  double dg = ((double (*)(void *, ...))__enzyme_autodiff)(gparam, d0);"
                     " use(&dg);")
    lines += ["  use(da0); use(da1); use(db0); use(dfa0); use(ib0);",
              "  use(&s2b); use(&s5b); use(&smb);",
              "}",
              "int main(int argc, char **argv) { (void)argv; t_caller(argc); return 0; }",
              ""]
    path = os.path.join(work, f"v{i:03d}.c")
    with open(path, "w") as out:
        out.write(f"/* variant {i}: fn{i} {ret} <- {[t for t, _ in params]};"
                  f" request returns {req_ret}; mutations {muts} */\n")
        out.write("\n".join(lines))
    manifest.append(path)

with open(os.path.join(work, "ext.c"), "w") as out:
    out.write("double ext_h(double x) { return x * x + 1.0; }\n")
with open(os.path.join(work, "list"), "w") as out:
    out.write("\n".join(manifest) + "\n")
PY

# One compile (and, when it succeeds, one link) of one variant at one level.
# Prints one status line: "OK", "ERROR", "FRONTEND", "CRASH" or "CRASH-LINK",
# then the level and the file.
check_one() {
  local src=$1 opt=$2 clang=$3 work=$4
  local base=${src%.c}${opt}
  local log=$base.log status
  "$clang" -fenzyme "$opt" -fno-crash-diagnostics -c "$src" -o "$base.o" >"$log" 2>&1
  status=$?
  classify() {
    local rc=$1 out=$2
    if [ "$rc" -gt 1 ] || grep -qE 'Stack dump|PLEASE submit|Assertion|LLVM ERROR|UNREACHABLE|frontend command failed|unable to execute command|Segmentation fault|Aborted' "$out"; then
      echo CRASH; return
    fi
    if [ "$rc" -eq 0 ]; then echo OK; return; fi
    # Every error must come from the engine, not from the front end.
    if grep -E 'error:' "$out" | grep -vqE '__enzyme_|cannot differentiate|enzyme_|linker command failed'; then
      echo FRONTEND; return
    fi
    echo ERROR
  }
  local c
  c=$(classify "$status" "$log")
  if [ "$c" = OK ]; then
    "$clang" -fenzyme "$opt" "$base.o" "$work/ext$opt.o" -o "$base.exe" -lm >"$base.link.log" 2>&1
    local lc
    lc=$(classify $? "$base.link.log")
    [ "$lc" = CRASH ] && c="CRASH-LINK"
    rm -f "$base.exe"
  fi
  rm -f "$base.o"
  echo "$c $opt $src"
}
export -f check_one

for opt in -O0 -O2; do
  "$CLANG" -fenzyme "$opt" -c "$WORK/ext.c" -o "$WORK/ext$opt.o" || { echo "cannot compile ext.c"; exit 2; }
done

while read -r src; do
  echo "$src -O0"
  echo "$src -O2"
done <"$WORK/list" |
  xargs -P "$JOBS" -n 2 bash -c 'check_one "$3" "$4" "$1" "$2"' check "$CLANG" "$WORK" \
  >"$WORK/results" 2>&1

total=$(wc -l <"$WORK/results")
ok=$(grep -c '^OK ' "$WORK/results")
err=$(grep -c '^ERROR ' "$WORK/results")
echo "malformed-requests: $total compiles: $ok compiled (and linked), $err clean errors"

bad=0
while read -r kind opt src; do
  case $kind in
    OK|ERROR) ;;
    *)
      bad=1
      base=${src%.c}$opt
      echo "==== $kind: $CLANG -fenzyme $opt -fno-crash-diagnostics -c $src"
      cat "$src"
      echo "---- compiler output:"
      cat "$base.log"
      if [ "$kind" = CRASH-LINK ]; then
        echo "---- link output:"
        cat "$base.link.log"
      fi
      ;;
  esac
done <"$WORK/results"
if [ "$total" -ne $((2 * COUNT)) ]; then
  echo "malformed-requests: expected $((2 * COUNT)) results, got $total"
  cat "$WORK/results" | grep -vE '^(OK|ERROR|CRASH|CRASH-LINK|FRONTEND) ' | head -20
  bad=1
fi
exit $bad
