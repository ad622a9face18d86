"""Robustness fuzzing of the request parser and the reverse-mode engine with
small C programs holding one (or two) usually malformed `__enzyme_*` calls.

A seed makes one program: a function to differentiate with a random
signature (double, float, long double, int, long, pointers, small and large
structs by value) and random return type, and a request of it with random
activity markers (also unsupported and unknown ones), missing or extra
values and shadows, values of the wrong type, a function argument that is
not a compile-time constant, a random declared return type, and mostly
`__enzyme_autodiff` but also the other entry points the parser knows
(`__enzyme_fwddiff`, `__enzyme_augmentfwd`, `__enzyme_reverse`,
`__enzyme_batch`, names that contain them). Now and then the markers are declared
with other types (`int enzyme_dup;`, `extern double`, `extern char`, an
array), and the function to differentiate holds a request itself (of
another function, or of itself). The mode says where the function to
differentiate comes from: "direct" (written in the call, as a constant or
a run-time value), "helper" (a parameter of a helper holding the request,
which the engine specialises per call: called with known or run-time
functions, once or twice, with two requests, through an unprototyped
declaration with too few arguments, through a cast) or "mixed" (a quarter
through a helper).

run_case compiles the program with `enzyme-clang -fenzyme -c` at the level
and, when that succeeds, links it with -fenzyme (requests whose callees are
in another file are finished at link time). Success (PASSED) and a clean
error (DIAGNOSED) are both fine; a crash of the compile or the link is a
CRASH (exit status other than 0 and 1, or a crash marker: a crashing cc1
can leave the driver's status at 1). An error from clang's front end is a
bug of this generator (which would then test nothing): UNRELIABLE with a
"generator bug:" detail, and a failure of the command line below.

    python3 malformed_requests.py --seed S --count N --mode direct|helper|mixed \\
        [--clang build/bin/enzyme-clang] [--workdir DIR] [--opt O0 O2] [--minimise]

minimise() reduces a crash with cvise.
"""

import atexit
import pathlib
import random
import re
import shlex
import shutil
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import casetools  # noqa: E402
import common  # noqa: E402

KIND = "request"
MODES = {"direct": 0.0, "helper": 1.0, "mixed": 0.25}  # share through a helper
TIMEOUT = 120

# Driver messages that mean a crash besides common.CRASH_MARKERS.
DRIVER_CRASH = ["frontend command failed", "unable to execute command", "Aborted"]
# Every error must come from the engine (or the linker), not the front end.
ENGINE_ERROR = re.compile(r"__enzyme_|cannot differentiate|enzyme_|linker command failed")

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
# The parser knows a request by a name that starts with one of its entry
# points; "__enzyme_batch" (batch mode, no derivative) is one since it is
# served.
REQUEST_NAMES = (["__enzyme_autodiff"] * 12
                 + ["__enzyme_fwddiff", "__enzyme_augmentfwd", "__enzyme_reverse",
                    "__enzyme_autodiff_d", "__enzyme_fwddiff2", "__enzyme_batch"])
# The first four are the supported ones.
MARKERS = ["enzyme_dup", "enzyme_dupnoneed", "enzyme_const", "enzyme_out",
           "enzyme_width", "enzyme_allocated", "enzyme_tape",
           "enzyme_primal_return", "enzyme_noret", "enzyme_scalar", "enzyme_bogus"]

# Values available in the calling function, by kind.
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

# How the program declares the markers: the documented `extern int`, a
# definition (also documented), and types the parser must cope with.
MARKER_DECLS = ["extern int {}"] * 6 + ["int {}", "extern double {}", "extern char {}",
                                        "extern int {}[2]"]

PRELUDE = r"""#include <math.h>
struct S2 { double a, b; };
struct S5 { double a, b, c, d, e; };
struct SM { double a; int n; };
struct G1 { double a; };
struct G2 { double a, b; };
struct G3 { double a, b, c; };
struct GI { int a; double b; };
double ext_h(double);  /* defined in another file, compiled with -fenzyme */
double gmut;           /* a mutable global */
double other(double x);
double __enzyme_autodiff_nested(void *, ...);
int main(int, char **);
void use(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }
static double helper(double x, int k) {
  double y = x;
  for (int j = 0; j < k; ++j) y = y * x + 1.0;
  return y;
}
"""

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

EXT_C = "double ext_h(double x) { return x * x + 1.0; }\n"


class _Generator:
    """One program from one seed (see the module doc)."""

    def __init__(self, seed, mode):
        self.rng = random.Random(seed)
        self.seed = seed
        self.helper_p = MODES[mode]

    def param_use(self, name, kind):
        rng = self.rng
        if kind == "fp":
            return rng.choice([f"{name} * {name}", f"sin({name})", f"({name} + 1.5)",
                               f"exp({name}) * 0.5", f"{name} / 3.0"])
        if kind == "int":
            return f"(double){name} * 0.25"
        if kind == "ptr":
            return rng.choice([f"{name}[0] * {name}[1]", f"{name}[0]",
                               f"sqrt({name}[1] * {name}[1] + 1.0)"])
        if kind == "iptr":
            return f"(double){name}[0]"
        if kind == "s2":
            return f"{name}.a * {name}.b"
        if kind == "s5":
            return f"{name}.a * {name}.e + {name}.c"
        if kind == "sm":
            return f"{name}.a * {name}.n"
        raise ValueError(kind)

    def make_function(self):
        rng = self.rng
        nparams = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        params = [rng.choice(PARAM_TYPES) for _ in range(nparams)]
        ret = rng.choice(RETURN_TYPES)
        names = [f"p{k}" for k in range(nparams)]
        sig = ", ".join(f"{t} {n}" for (t, _), n in zip(params, names)) or "void"
        body = ["  double r = 0.5;"]
        for (t, kind), n in zip(params, names):
            body.append(f"  r += {self.param_use(n, kind)};")
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
        elif extra < 0.44:
            # A request inside the function to differentiate, of another
            # function or of itself.
            if rng.random() < 0.5:
                body.append("  r += __enzyme_autodiff_nested((void *)other, r);")
            else:
                # Its own gradient, well-formed where the signature allows.
                own = [f"enzyme_const, {n}" if kind in ("ptr", "iptr") else n
                       for (_, kind), n in zip(params, names)]
                body.append(f"  r += __enzyme_autodiff_nested({', '.join(['(void *)fn'] + own)});")
        ptrs = [n for (t, kind), n in zip(params, names) if kind == "ptr"]
        if ptrs and rng.random() < 0.4:
            body.append(f"  {ptrs[0]}[1] = r * {ptrs[0]}[0];")
        if ret == "void":
            body.append(f"  {ptrs[-1]}[0] = r;" if ptrs else "  (void)r;")
        elif ret == "double *":
            body.append(f"  return {ptrs[0]};" if ptrs
                        else "  static double cell; cell = r; return &cell;")
        elif ret == "struct S2":
            body.append("  struct S2 s = {r, r * 2.0}; return s;")
        else:
            body.append(f"  return ({ret})r;")
        decl = f"{ret} fn({sig})"
        return params, ret, decl + " {\n" + "\n".join(body) + "\n}\n"

    def correct_args(self, kind):
        """A well-formed marker/value/shadow sequence for a parameter of kind."""
        rng = self.rng
        v = rng.choice(POOL[kind])
        if kind == "fp":
            return rng.choice([[v], ["enzyme_out", v], ["enzyme_const", v]])
        if kind == "ptr":
            shadow = rng.choice(["da0", "da1", "db0"]) if v in ("a0", "a1", "b0") else "dfa0"
            return rng.choice([[v, shadow], ["enzyme_dup", v, shadow],
                               ["enzyme_dupnoneed", v, shadow], ["enzyme_const", v]])
        if kind == "iptr":
            return rng.choice([["enzyme_const", v], [v, "ib0"]])
        return rng.choice([[v], ["enzyme_const", v]])

    def param_args(self, kind):
        rng = self.rng
        if rng.random() < 0.60:
            return self.correct_args(kind), "ok"
        good = self.correct_args(kind)
        value = good[-1] if good[0] not in MARKERS else good[1]
        mutation = rng.choice(["wrong-marker", "marker-only", "no-shadow", "extra-shadow",
                               "wrong-type", "double-marker", "drop", "marker-address",
                               "wrong-type-marked"])
        if mutation == "wrong-marker":
            m = rng.choice(MARKERS)
            tail = [value] + ([rng.choice(ALL_VALUES)] if rng.random() < 0.5 else [])
            if m in ("enzyme_width", "enzyme_allocated"):
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
            return ["&" + rng.choice(MARKERS[:4]), value], mutation
        return [], mutation  # drop

    def fn_arg(self):
        rng = self.rng
        if rng.random() < 0.82:
            return rng.choice(["(void *)fn", "(void *)&fn", "fn"])
        return rng.choice([
            "(void *)0", "(void *)&gmut", "n ? (void *)fn : (void *)other",
            "table[n & 1]", "(void *)fptr", "(void *)(long)n", "(void *)&enzyme_dup",
            "(void *)ext_h", "(void *)use", "(void *)t_caller", "(void *)main",
            "(void *)__enzyme_autodiff_nested",
        ])

    def helper_call_sites(self, two, kr):
        """Calls of the helper that holds the request: the function to
        differentiate reaches the request through the helper's parameter.
        With an unprototyped declaration (kr) a call may pass too few
        arguments."""
        rng = self.rng
        sites = []
        for _ in range(rng.choice([1, 1, 2])):
            f = self.fn_arg() if rng.random() < 0.7 else "(void *)fn"
            g = ", (void *)other" if two else ""
            form = rng.random()
            if kr and form < 0.5:
                sites.append(rng.choice(["  req();", "  req(n);", f"  req({f});"]))
            elif form < 0.9:
                sites.append(f"  req({f}{g}, n);")
            else:
                sites.append("  ((void (*)(int))req)(n);")  # through a cast
        return sites

    def program(self):
        rng = self.rng
        params, ret, fn = self.make_function()
        has_fn = rng.random() > 0.03
        # Where the function to differentiate comes from: written in the
        # call, or a parameter of a helper that holds the request.
        helper = rng.random() < self.helper_p and has_fn
        two = helper and rng.random() < 0.3
        kr = helper and rng.random() < 0.3
        args = [("fparam" if helper else self.fn_arg())] if has_fn else []
        muts = []
        for (t, kind) in params:
            a, m = self.param_args(kind)
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
        name = rng.choice(REQUEST_NAMES)
        # Without a function argument the first argument may be anything:
        # only an unprototyped declaration lets such a call through the
        # front end.
        proto = "void *, ..." if has_fn and rng.random() < 0.85 else ""
        uniform = rng.random() < 0.7
        markers = "\n".join(
            (MARKER_DECLS[0] if uniform else rng.choice(MARKER_DECLS)).format(m) + ";"
            for m in MARKERS)
        lines = [PRELUDE, markers, fn,
                 "double other(double x) { return x; }",
                 "void *table[2] = {(void *)fn, (void *)other};",
                 "void *fptr = (void *)fn;",
                 f"{req_ret} {name}({proto});"]
        if helper:
            linkage = rng.choice(["static ", ""])
            gparam = ", void *gparam" if two else ""
            lines.append(f"{linkage}void req({'' if kr else 'void *fparam' + gparam + ', int n'});")
            lines.append("void t_caller(int n) {")
            lines += self.helper_call_sites(two, kr)
            lines.append("}")
            lines.append(f"{linkage}void req(void *fparam{gparam}, int n) {{")
            muts.append(f"helper({linkage.strip() or 'extern'}"
                        f"{', two requests' if two else ''}{', unprototyped' if kr else ''})")
        else:
            lines.append("void t_caller(int n) {")
        lines += [LOCALS,
                  "  (void)d0; (void)d1; (void)f0; (void)ld0; (void)i0; (void)l0; (void)n;"]
        call = f"{name}(" + ", ".join(args) + ")"
        if req_ret == "void":
            lines.append(f"  {call};")
        else:
            lines.append(f"  {req_ret} res = {call};\n  use(&res);")
        if two:
            lines.append(f"  double dg = ((double (*)(void *, ...)){name})(gparam, d0);"
                         " use(&dg);")
        lines += ["  use(da0); use(da1); use(db0); use(dfa0); use(ib0);",
                  "  use(&s2b); use(&s5b); use(&smb);",
                  "}",
                  "int main(int argc, char **argv) { (void)argv; t_caller(argc); return 0; }",
                  ""]
        header = (f"/* seed {self.seed}: fn {ret} <- {[t for t, _ in params]};"
                  f" {name} returns {req_ret}; mutations {muts} */\n")
        return header + "\n".join(lines)


def generate(seed, mode="mixed"):
    """The C program of one seed, as text."""
    return _Generator(seed, mode).program()


def _crashed(rc, log):
    return common.crashed(rc, log) or any(m in log for m in DRIVER_CRASH)


_ext_lock = threading.Lock()
_ext_objects = {}


def _ext_object(opt, tools):
    """ext.c (ext_h, called by some programs) compiled with -fenzyme at the
    level, once per process (case folders come and go)."""
    key = (str(tools.clang), opt)
    with _ext_lock:
        if key not in _ext_objects:
            folder = pathlib.Path(tempfile.mkdtemp(prefix="enzyme-fuzz-ext-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            src = folder / "ext.c"
            src.write_text(EXT_C)
            obj = folder / f"ext-{opt}.o"
            rc, log = casetools.run_tool(
                [tools.clang, "-fenzyme", f"-{opt}", "-c", src, "-o", obj], TIMEOUT)
            if rc != 0:
                raise casetools.ToolError(f"cannot compile ext.c at -{opt}: {log.strip()[:300]}")
            _ext_objects[key] = obj
        return _ext_objects[key]


def compile_command(tools, opt, src, obj):
    return [tools.clang, "-fenzyme", f"-{opt}", "-fno-crash-diagnostics", "-c", src, "-o", obj]


def link_command(tools, opt, obj, ext, exe):
    return [tools.clang, "-fenzyme", f"-{opt}", "-fno-crash-diagnostics", obj, ext, "-o", exe,
            "-lm"]


def run_case(seed, opt, workdir, tools, mode="mixed"):
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    ext = _ext_object(opt, tools)
    case = workdir / f"request-{mode}-{seed}-{opt}"
    case.mkdir(exist_ok=True)
    src = case / "v.c"
    src.write_text(generate(seed, mode))

    def result(outcome, detail, log, stage):
        r = common.Result(outcome, seed, opt, KIND, detail, src, log)
        if outcome in common.FAILURES or casetools.is_generator_bug(r):
            # Everything the reproducer needs, in the case folder.
            (case / "stage").write_text(f"{stage}\n{detail}\n")
            (case / "log").write_text(log)
            shutil.copy(ext, case / "ext.o")
        else:
            shutil.rmtree(case, ignore_errors=True)
            r.source = None
        return r

    rc, log = casetools.run_tool(compile_command(tools, opt, src, case / "v.o"), TIMEOUT)
    if _crashed(rc, log):
        return result(common.CRASH, casetools.crash_detail(rc, log), log, "compile")
    if rc != 0:
        errors = [l for l in log.splitlines() if "error:" in l]
        front_end = [l for l in errors if not ENGINE_ERROR.search(l)]
        if front_end:
            return result(common.UNRELIABLE, casetools.GENERATOR_BUG + "clang's front end "
                          "rejected the program: " + front_end[0].strip(), log, "compile")
        if not errors:
            return result(common.CRASH, casetools.NO_ERROR, log, "compile")
        return result(common.DIAGNOSED, errors[0].strip(), log, "compile")

    rc, log = casetools.run_tool(link_command(tools, opt, case / "v.o", ext, case / "v.exe"),
                                 TIMEOUT)
    if _crashed(rc, log):
        return result(common.CRASH, "link: " + casetools.crash_detail(rc, log), log, "link")
    if rc != 0:
        return result(common.DIAGNOSED, "link: " + casetools.first_error(log), log, "link")
    return result(common.PASSED, "compiled and linked", log, "link")


INTERESTING = """#!/bin/bash
# Interesting when v.c still makes the {stage} fail the same way:
#   {signature}
timeout {timeout} {compile} >log 2>&1
rc=$?
{link}
{check} <log
"""


def minimise(result, tools):
    """Reduces a crash's program with cvise (which must be installed);
    writes <case>/reduced.c, headed by the commands that reproduce it.
    Returns its path, or None."""
    if result.outcome != common.CRASH or result.source is None or not shutil.which("cvise"):
        return None
    case = result.source.parent
    stage, sig = (case / "stage").read_text().splitlines()[:2]
    sig = sig.removeprefix("link: ")
    opt = result.opt
    ext = case / "ext.o"
    q = lambda cmd: " ".join(shlex.quote(str(c)) for c in cmd)  # noqa: E731
    compile_cmd = q(compile_command(tools, opt, "v.c", "v.o"))
    link_cmd = ""
    if stage == "link":
        # The compile must succeed; the link must crash the same way.
        link_cmd = (f"[ $rc -eq 0 ] || exit 1\ntimeout {TIMEOUT} "
                    f"{q(link_command(tools, opt, 'v.o', ext, 'v.exe'))} >log 2>&1\nrc=$?")
    test = case / "interesting.sh"
    test.write_text(INTERESTING.format(stage=stage, signature=sig, timeout=TIMEOUT,
                                       compile=compile_cmd, link=link_cmd,
                                       check=casetools.same_crash_command(sig)))
    test.chmod(0o755)
    work = case / "reduce"
    work.mkdir(exist_ok=True)
    target = work / "v.c"
    shutil.copy(result.source, target)
    # cvise wants the file name without a folder, relative to its cwd.
    rc, log = common.run(["cvise", "--n", "1", "--timeout", "60", test, target.name],
                         timeout=getattr(tools, "minimise_seconds", 1800), cwd=work)
    if rc != 0:
        (case / "reduce.log").write_text(log)
        return None
    reduced = case / "reduced.c"
    commands = compile_cmd.replace("v.c", "reduced.c") + (
        "\n   then " + q(link_command(tools, opt, "v.o", ext, "v.exe")) if link_cmd else "")
    reduced.write_text(f"/* seed {result.seed} at {opt}, {stage}: {sig}\n"
                       f"   reproduce: {commands} */\n" + target.read_text())
    return reduced


def rerun_command(result):
    """The command line that runs this case again (scripts/fuzz shows it)."""
    return (f"python3 test-suite/fuzz/malformed_requests.py --seed {result.seed} --count 1 "
            f"--opt {result.opt} --mode mixed")


def _arguments(parser):
    parser.add_argument("--mode", choices=sorted(MODES), default="mixed",
                        help="where the function to differentiate comes from")
    parser.add_argument("--clang", help="enzyme-clang to test (default: the build's)")


def _case_kwargs(args):
    if args.clang:
        # The build directory holds bin/enzyme-clang.
        args.build = str(pathlib.Path(args.clang).parent.parent)
    return {"mode": args.mode}


if __name__ == "__main__":
    casetools.seed_range_main(sys.modules[__name__], "malformed-requests",
                              "malformed __enzyme_* requests through enzyme-clang",
                              extra_args=_arguments, case_kwargs=_case_kwargs)
