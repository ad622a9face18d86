#!/usr/bin/env python3
"""Checks the C fuzzer's oracle (c_oracle.py) on hand-written functions whose
verdict is known: each case is J(v) of one input, a gradient value to judge
(right or deliberately wrong) and the verdict the oracle must reach; forward
cases are two outputs of two inputs with their tangents along a direction
(fz_directional), dot cases the two sides of the dot-product test
(fz_judge_dot), lane cases the two lanes of a vector-mode request against
the scalar requests (fz_judge_lanes). All cases are built into one program
with the oracle's prelude and the trigonometry probe, as the fuzzer builds
generated programs.

    oracle_selftest.py [--build DIR]

prints one line per case and exits non-zero when a verdict differs.
"""

import argparse
import pathlib
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import c_oracle  # noqa: E402
from common import Tools, run  # noqa: E402

# name, J(x) as a C expression of x, the gradient to judge at x0, x0,
# relative step, expected "verdict why".
CASES = [
    ("smooth-right", "sin(x) * exp(x)", "(cos(x) + sin(x)) * exp(x)", 0.7, 1e-4,
     "pass agrees"),
    ("smooth-wrong", "sin(x) * exp(x)", "1.01 * (cos(x) + sin(x)) * exp(x)", 0.7, 1e-4,
     "mismatch differs"),
    # sin(1e15 x) moves by 1e11 radians per step and stays below J's last
    # digit: the finite differences see 1e17 only.
    ("fast-trig", "1e17 * x + sin(1e15 * x)", "1e17 + 1e15 * cos(1e15 * x)", 0.7, 1e-4,
     "unreliable fast-trig"),
    ("fast-trig-overflow", "1e17 * x + sin(1e15 * x)", "INFINITY", 0.7, 1e-4,
     "unreliable fast-trig"),
    # A moderate argument is followed by the steps: a wrong gradient stays wrong.
    ("slow-trig-wrong", "sin(50 * x)", "49 * cos(50 * x)", 0.7, 1e-4, "mismatch differs"),
    ("nan-gradient", "sin(x)", "NAN", 0.7, 1e-4, "mismatch differs"),
    # pow(u, 0.5) at u = 0 (u = x - x): the base partial is infinite, the
    # chain rule gives inf * 0 = NaN although J = x is smooth. Only a
    # non-finite gradient is excused there.
    ("singular-nan", "pow(x - x, 0.5) + x", "NAN", 0.7, 1e-4, "unreliable singular"),
    ("singular-wrong", "pow(x - x, 0.5) + x", "2.0", 0.7, 1e-4, "mismatch differs"),
    # 1 + y with y = 1e-20 x^2 rounds to 1: J is exactly flat, its derivative
    # 2e-20 x is real and far below what a step can show.
    ("flat-tiny", "log(1.0 + (1e-10 * x) * (1e-10 * x))", "2e-20 * x", 1.3, 1e-4,
     "pass agrees"),
    ("flat-wrong", "1.0 + log(1.0 + (1e-10 * x) * (1e-10 * x))", "1e-3", 1.3, 1e-4,
     "mismatch differs"),
    # A staircase finer than the steps: rint(1.2e5 x) jumps every 8.3e-6.
    # Where the steps (1e-4, 5e-5, 2.5e-5) span 12, 6 and 3 jumps on either
    # side, as here (1.2e5 x = 84000.24), the quotients agree exactly on its
    # mean slope 1.2e5, with no kink; the derivative of the pieces (2x) is what quotients at
    # steps below 1e-5 agree on (seed 8020: rint(x0[0] + (256 a0)^2)).
    ("staircase", "rint(1.2e5 * x) + x * x", "2 * x", 0.700002, 1e-4,
     "unreliable fine-scale"),
    ("staircase-wrong", "rint(1.2e5 * x) + x * x", "3 * x", 0.700002, 1e-4, "mismatch differs"),
]

# Programs with float math (the fuzzer's step 1e-2, tolerance 1e-3, and
# float's precision for what a change of J hidden by rounding may be), in the
# shape of CASES.
FLOAT_RTOL = 1e-3
FLOAT_CASES = [
    # A float result: J moves in steps of 2^-23, so the quotient at h/4 =
    # 2.5e-3 resolves 5e-5 at best; here its three quotients agree exactly
    # on 6.675720e-4 while the derivative is 6.6922e-4 (seed 9174's
    # (float) erfcf(..), 0.25%% apart).
    ("float-quantised", "(double)(float)(1.9959354400634766 + 6.6922436235e-4 * x)",
     "6.6922436235e-4", 0.0, 1e-2, "unreliable quantised"),
    ("float-quantised-wrong", "(double)(float)(1.9959354400634766 + 6.6922436235e-4 * x)",
     "8e-4", 0.0, 1e-2, "mismatch differs"),
    # A float rounding hides every change: -0.882 / (1 + q^2) with q near
    # 5e-4 rounded to float (seed 9606): flat, its derivative 2.4e-7 real.
    ("float-flat", "0.5 + (double)(float)(-0.882 / (1.0 + (5e-4 + 1e-4 * x) * (5e-4 + 1e-4 * x)))",
     "0.882 * 2 * (5e-4 + 1e-4 * x) * 1e-4 / ((1.0 + (5e-4 + 1e-4 * x) * (5e-4 + 1e-4 * x)) * "
     "(1.0 + (5e-4 + 1e-4 * x) * (5e-4 + 1e-4 * x)))", 0.3, 1e-2, "unreliable quantised"),
    ("float-flat-wrong", "0.5 + (double)(float)(-0.882 / (1.0 + (5e-4 + 1e-4 * x) * (5e-4 + 1e-4 * x)))",
     "1e-3", 0.3, 1e-2, "mismatch differs"),
]

# Forward mode (fz_directional, then fz_judge): name, the two outputs of
# Y(x0, x1) as C expressions, their tangents along u to judge, the point,
# u, relative step, expected verdict.
FORWARD_CASES = [
    ("fwd-right", ("sin(x0) * x1", "exp(x0 - x1)"),
     ("cos(x0) * x1 * u0 + sin(x0) * u1", "exp(x0 - x1) * (u0 - u1)"),
     (0.7, -1.1), (0.5, -0.75), 1e-4, "pass agrees"),
    ("fwd-wrong", ("sin(x0) * x1", "exp(x0 - x1)"),
     ("cos(x0) * x1 * u0 + sin(x0) * u1", "exp(x0 - x1) * (u0 + u1)"),
     (0.7, -1.1), (0.5, -0.75), 1e-4, "mismatch differs"),
    # The same fast sine as above, seen along a direction.
    ("fwd-fast-trig", ("1e17 * x0 + sin(1e15 * x1)", "x1"),
     ("1e17 * u0 + 1e15 * cos(1e15 * x1) * u1", "u1"),
     (0.7, 0.3), (0.5, -0.75), 1e-4, "unreliable fast-trig"),
    # A staircase finer than the steps along the direction (seed 8020).
    ("fwd-staircase", ("rint(1.2e5 * x0) + x0 * x1", "x1"),
     ("x1 * u0 + x0 * u1", "u1"), (0.700002, 0.3), (1.0, -0.75), 1e-4, "unreliable fine-scale"),
    ("fwd-staircase-wrong", ("rint(1.2e5 * x0) + x0 * x1", "x1"),
     ("x1 * u0", "u1"), (0.700002, 0.3), (1.0, -0.75), 1e-4, "mismatch differs"),
]
# The dot-product test (fz_judge_dot): name, <w, J u>, <J^T w, u>, the sum of
# the terms' magnitudes, flags, expected verdict.
DOT_CASES = [
    ("dot-rounding", "1.0 + 1e-13", "1.0", "3.0", "0", "pass agrees"),
    ("dot-wrong", "1.01", "1.0", "3.0", "0", "mismatch differs"),
    ("dot-cancelled-wrong", "1e-3", "0.0", "2.0", "0", "mismatch differs"),
    ("dot-nan", "NAN", "1.0", "3.0", "0", "mismatch differs"),
    ("dot-nan-raised", "NAN", "1.0", "3.0", "FZ_RAISES", "unreliable nonfinite-intermediate"),
    ("dot-nan-singular", "1.0", "NAN", "3.0", "FZ_SINGULAR", "unreliable singular"),
]

# Vector mode's lanes against the scalar requests (fz_judge_lanes): name,
# the scalar values of lane 0 and lane 1, the width-2 request's lanes (C
# expressions, three values each), eps, expected verdict.
LANE_CASES = [
    ("lanes-exact", ("1.5", "-2.0", "0.0"), ("0.25", "3e-7", "NAN"),
     ("1.5", "-2.0", "0.0"), ("0.25", "3e-7", "NAN"), "DBL_EPSILON", "pass exact"),
    # The same sum in another order: rounding-level differences pass.
    ("lanes-reordered", ("(0.1 + 0.2) + 0.3", "1e6 * ((0.7 + 0.1) + 0.2)", "-1.0"),
     ("0.5", "2.0", "1.0"),
     ("0.1 + (0.2 + 0.3)", "1e6 * (0.7 + (0.1 + 0.2))", "-1.0"), ("0.5", "2.0", "1.0"),
     "DBL_EPSILON", "pass agrees"),
    # Lane 1 computed with lane 0's seeds (a seed not widened).
    ("lane-swapped", ("1.5", "-2.0", "0.0"), ("0.25", "3.0", "1.0"),
     ("1.5", "-2.0", "0.0"), ("1.5", "-2.0", "0.0"), "DBL_EPSILON", "mismatch differs"),
    # One component of lane 0 off in its eighth digit (a partial dropped
    # where it is small): far above rounding.
    ("lane-small-error", ("1.5", "-2.0", "0.0"), ("0.25", "3.0", "1.0"),
     ("1.5", "-2.0 * (1 + 1e-8)", "0.0"), ("0.25", "3.0", "1.0"), "DBL_EPSILON",
     "mismatch differs"),
    # A lane missing a contribution to a small component.
    ("lane-zeroed", ("1.5", "-2.0", "1e-3"), ("0.25", "3.0", "1.0"),
     ("1.5", "-2.0", "1e-3"), ("0.25", "3.0", "0.0"), "DBL_EPSILON", "mismatch differs"),
    ("lane-nan", ("1.5", "-2.0", "0.0"), ("0.25", "3.0", "1.0"),
     ("1.5", "-2.0", "0.0"), ("0.25", "NAN", "1.0"), "DBL_EPSILON", "mismatch differs"),
    # Float math: float's rounding passes, a real difference does not.
    ("lanes-float-rounding", ("(double)((1.0f + 6e-8f) + 6e-8f)", "1.0", "2.0"),
     ("1.0", "1.0", "1.0"), ("(double)(1.0f + (6e-8f + 6e-8f))", "1.0", "2.0"),
     ("1.0", "1.0", "1.0"), "FLT_EPSILON", "pass agrees"),
    ("lanes-float-wrong", ("1.0", "1.0", "2.0"), ("1.0", "1.0", "1.0"),
     ("1.0", "1.0", "2.0"), ("1.0", "1.001", "1.0"), "FLT_EPSILON", "mismatch differs"),
]


def source():
    parts = [c_oracle.prelude()]
    for k, (name, j, grad, x0, step, eps, rtol, _) in enumerate(
            [c[:5] + ("DBL_EPSILON", c_oracle.RTOL, c[5]) for c in CASES]
            + [c[:5] + ("FLT_EPSILON", FLOAT_RTOL, c[5]) for c in FLOAT_CASES]):
        parts.append("""
static double case%(k)d_J(const double *v) { double x = v[0]; return %(j)s; }
static void case%(k)d(void) {
  static const double v0[1] = {%(x0)r};
  double ad[1];
  struct fz_fd fd[1];
  fz_differences(case%(k)d_J, v0, 1, %(step)r, %(eps)s, fd);
  int flags = fz_primal_flags(case%(k)d_J, v0, %(step)r);
  double x = v0[0];
  ad[0] = %(grad)s;
  fz_judge("%(name)s", 1, ad, fd, flags, %(rtol)r);
}
""" % dict(k=k, j=j, grad=grad, x0=x0, step=step, name=name, eps=eps, rtol=rtol))
    for k, (name, ys, ts, x, u, step, _) in enumerate(FORWARD_CASES):
        parts.append("""
static void fwd%(k)d_Y(const double *v, double *y) {
  double x0 = v[0], x1 = v[1];
  y[0] = %(y0)s;
  y[1] = %(y1)s;
}
static double fwd%(k)d_J(const double *v) {
  double y[2];
  fwd%(k)d_Y(v, y);
  return y[0] + y[1];
}
static void fwd%(k)d(void) {
  static const double v0[2] = {%(x0)r, %(x1)r}, u[2] = {%(u0)r, %(u1)r};
  double tad[2];
  struct fz_fd tfd[2];
  fz_directional(fwd%(k)d_Y, v0, u, 2, 2, %(step)r, DBL_EPSILON, tfd);
  int flags = fz_primal_flags(fwd%(k)d_J, v0, %(step)r);
  double x0 = v0[0], x1 = v0[1], u0 = u[0], u1 = u[1];
  tad[0] = %(t0)s;
  tad[1] = %(t1)s;
  fz_judge("%(name)s", 2, tad, tfd, flags, %(rtol)r);
}
""" % dict(k=k, y0=ys[0], y1=ys[1], t0=ts[0], t1=ts[1], x0=x[0], x1=x[1], u0=u[0], u1=u[1],
           step=step, name=name, rtol=c_oracle.RTOL))
    for k, (name, fwd, rev, scale, flags, _) in enumerate(DOT_CASES):
        parts.append("""
static void dot%(k)d(void) {
  fz_judge_dot("%(name)s", %(fwd)s, %(rev)s, %(scale)s, %(flags)s, %(rtol)r);
}
""" % dict(k=k, name=name, fwd=fwd, rev=rev, scale=scale, flags=flags, rtol=c_oracle.RTOL))
    for k, (name, ref0, ref1, lane0, lane1, eps, _) in enumerate(LANE_CASES):
        parts.append("""
static void lanes%(k)d(void) {
  const double r0[3] = {%(r0)s}, r1[3] = {%(r1)s}, l0[3] = {%(l0)s}, l1[3] = {%(l1)s};
  double a[4][3];
  for (int j = 0; j < 3; j++)
    a[0][j] = r0[j], a[1][j] = r1[j], a[2][j] = l0[j], a[3][j] = l1[j];
  const double *ref[2] = {a[0], a[1]}, *lane[2] = {a[2], a[3]};
  fz_judge_lanes("%(name)s", 3, ref, lane, %(eps)s);
}
""" % dict(k=k, name=name, r0=", ".join(ref0), r1=", ".join(ref1), l0=", ".join(lane0),
           l1=", ".join(lane1), eps=eps))
    calls = "".join("  case%d();\n" % k for k in range(len(CASES) + len(FLOAT_CASES)))
    calls += "".join("  fwd%d();\n" % k for k in range(len(FORWARD_CASES)))
    calls += "".join("  dot%d();\n" % k for k in range(len(DOT_CASES)))
    calls += "".join("  lanes%d();\n" % k for k in range(len(LANE_CASES)))
    parts.append("int main(void) {\n%s  return 0;\n}\n" % calls)
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", help="build directory (default $BUILD_DIR or build/)")
    tools = Tools.find(ap.parse_args().build)
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        (folder / "oracle.c").write_text(source())
        rc, out = run(c_oracle.build_command(tools, "O2", "oracle.c", "oracle"), cwd=folder)
        if rc != 0:
            print(out)
            return 2
        rc, out = run([folder / "oracle"], timeout=30, cwd=folder)
    verdicts = {line.split()[1]: line for line in out.splitlines()
                if line.startswith("FUZZ-VERDICT")}
    failed = 0
    for name, *_, expected in CASES + FLOAT_CASES + FORWARD_CASES + DOT_CASES + LANE_CASES:
        line = verdicts.get(name, "")
        fields = line.split()
        seen = "%s %s" % (fields[2], fields[7][4:]) if len(fields) > 7 else "no verdict"
        ok = seen == expected
        failed += not ok
        print("%s %s: %s%s" % ("ok  " if ok else "FAIL", name, seen,
                               "" if ok else " (expected %s; %s)" % (expected, line)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
