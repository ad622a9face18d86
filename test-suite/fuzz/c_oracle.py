"""The oracle of the C program fuzzer: C code that judges a generated program's
gradient against finite differences inside the program itself, and the
parser of its verdicts.

For a program fz<S> the harness defines

  fz<S>_J(v)    the scalar the gradient is of: the function's return value
                plus sum(w_i * final value of output i) over the shadowed
                arrays and struct fields (w = the output seeds), as a function
                of v, the flattened active inputs (scalars, array elements,
                struct fields). It copies v into fresh buffers, so in-place
                updates never leak into the next evaluation.
  fz<S>_Y(v, y) every output at v (the result, then the shadowed arrays'
                elements and the struct's fields), for forward mode.
  fz<S>_fwd(t)  the tangents of the outputs along u (__enzyme_fwddiff);
  fz<S>_rev(g)  the gradient with the dot-product test's dense seeds;
  fz<S>_fwd2(t) the tangents along a second direction u2;
  fz<S>_vrev(g0, g1), fz<S>_vfwd(t0, t1)   the same in vector mode
                (enzyme_width, 2): reverse with the gradient check's seeds
                in lane 0 and the dot test's in lane 1, forward along u and
                u2.
  fz<S>_check() computes the finite differences of J (primal only), then the
                gradient with __enzyme_autodiff (shadows preset to the seeds
                w, so each shadow ends as dJ/d(initial value)), and prints
                one verdict line:

  FUZZ-VERDICT <seed> <pass|unreliable|mismatch> comp=<j> ad=<> fd=<> noise=<> why=<> bad=<>

  (comp: the worst component; bad: all mismatching ones, "!" marking a
  non-finite gradient). It then checks forward mode and vector mode, with
  four more verdict lines, <seed>/fwd, <seed>/dot, <seed>/vrev and
  <seed>/vfwd:

  fwd           J·u with __enzyme_fwddiff along a random direction u (the
                tangents of the result and of every shadowed output),
                judged output by output against finite differences of that
                output along u (fz_directional: the same quotients, steps
                and rules as the gradient, on t -> output(v0 + t u));
  dot           the dot-product test between the modes:
                <w, J·u> (forward) = <J^T w, u> (reverse, the gradient with
                the dense random output seeds w; the result's seed is 1),
                to rtol * (sum |w_i (J·u)_i| + sum |(J^T w)_j u_j|): both
                sides compute the same sum of the same partial products in
                other orders, so only rounding separates them
                (fz_judge_dot);
  vrev, vfwd    each lane of the width-2 request against the scalar request
                with the same seeds or direction, value by value: the same
                code per lane, so they agree bit for bit or to a few dozen
                ulps of the values' scale (fz_judge_lanes).

Finite differences (fz_judge): for each input j, central differences at
steps h, h/2, h/4 (h = fd_step * max(1, |v_j|)); fd = Richardson
extrapolation of the two smallest, noise = the largest disagreement between
the three, or at least what J's rounding lets a quotient resolve
(8 eps |J| / (h/4); 8 eps max(|J|, 1) / (h/4) where J did not move at all
under any step, since then an intermediate's rounding hid the change, as in
log(1 + y) with y below an ulp of 1). A component agrees when

  |ad - fd| <= rtol * max(|ad|, |fd|) + ATOL * gscale + NOISE_K * noise

(rtol = RTOL, or 1e-3 for programs with float math)

(gscale = the largest |fd| of the program). If it does not, it is
UNRELIABLE rather than a mismatch when the finite differences themselves
cannot be trusted there: a non-finite value at a perturbed point, noise above
UNRELIABLE_REL of the component (a jump or kink inside the steps, roundoff;
not where J did not move: then the quotients agree exactly),
a kink at the point itself (the one-sided difference quotients differ by
an amount that does not shrink with the step), quotients that vary
irregularly far above J's rounding (structure finer than the steps, such
as the sine of a huge argument), a non-finite gradient where the primal
made a NaN or infinity on the way (IEEE flags; reverse mode turns 0 * inf
into NaN, as Enzyme does), or a sine, cosine or tangent whose argument is
so large that the steps move it by a radian or more (libm_probe.c records
the largest): such a term is bounded and oscillates faster than the steps
can follow, so finite differences miss a derivative that is there (and that
can overflow, as each sine in a chain multiplies it by about its argument),
or a non-finite gradient where the primal called pow, cbrt, asin or acos at
a point where its derivative is infinite (pow(0, 0.5): the chain rule gives
inf * 0 = NaN there, as in Enzyme, even where the composition is flat;
libm_probe.c counts such calls), or a finite gradient within 2 qres more of
fd, where qres is what J's quantisation lets the quotient at h/4 resolve
(J rounded to float: the quantum, the largest power of two dividing every
change of J, over h/4; where J did not move at all, the program's
precision at the scale of max(|J|, 1)), or a finite gradient that agrees
with the quotients at much smaller steps (h/8 .. h/16384, two in a row
agreeing with each other and not with fd: J has structure finer than the
steps, such as a fine staircase, which the usual steps average).
docs/reliability.md explains why this makes false alarms rare.
"""

import os
import pathlib
import random
import re
import subprocess
import tempfile

RTOL = 1e-6       # the default; programs with float math use 1e-3 (Program.rtol)
ATOL = 1e-9
NOISE_K = 10.0
UNRELIABLE_REL = 1e-3
MAX_OUT = 4   # gradient structs declared for up to this many enzyme_out scalars
LANE_ULPS = 1024.0  # vector mode's lanes against the scalar requests (fz_judge_lanes)

PRELUDE = r"""#define _GNU_SOURCE
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed, enzyme_width;
/* One prototype per gradient shape: the engine recognises every name that
 * contains __enzyme_autodiff, so several return types fit in one file. */
void __enzyme_autodiff_void(void *, ...);
double __enzyme_autodiff(void *, ...);
%(grad_structs)s
/* Forward mode: the tangent of the result, or nothing for a void function
 * (every name that starts with __enzyme_fwddiff is a request). */
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
/* Vector mode, width 2: the two tangents of the result (forward), and K
 * active scalars' two gradients each, lane-major per parameter (reverse:
 * d[2 k + lane]); a void request is __enzyme_autodiff_void, as above. */
struct fz_tan2 { double d[2]; };
struct fz_tan2 __enzyme_fwddiff_w2(void *, ...);
%(vgrad_structs)s
#define FZ_ATOL %(atol)r
#define FZ_NOISE_K %(noise_k)r
#define FZ_UNRELIABLE_REL %(unreliable)r
#define FZ_LANE_ULPS %(lane_ulps)r

static void fz_stage(const char *id, const char *stage) {
  printf("FUZZ-STAGE %%s %%s\n", id, stage);
  fflush(stdout);
}

static void fz_verdict(const char *id, const char *verdict, int comp, double ad, double fd,
                       double noise, const char *why, const char *bad) {
  printf("FUZZ-VERDICT %%s %%s comp=%%d ad=%%.17g fd=%%.17g noise=%%.3g why=%%s bad=%%s\n", id,
         verdict, comp, ad, fd, noise, why, bad);
  fflush(stdout);
}

/* What the difference quotients of one direction show (bits of shape):
 * FZ_KINK, a kink at v0; FZ_ROUGH, the quotients vary irregularly, far
 * above J's rounding (J has structure finer than the steps, such as sin of
 * a huge argument); FZ_FLAT, J did not move at all under any step. */
enum { FZ_KINK = 1, FZ_ROUGH = 2, FZ_FLAT = 4 };

/* The finite differences of one direction:
 * fd     the Richardson value of the quotients at steps h, h/2, h/4;
 * noise  their spread, at least what J's rounding lets a quotient resolve;
 * qres   what J's quantisation lets a quotient at h/4 resolve where J is
 *        rounded more coarsely than a double of its size (a float result),
 *        measured from the changes of J; where J did not move at all, an
 *        intermediate's rounding in the program's precision (eps) at the
 *        scale of max(|J|, 1);
 * fine   a derivative that quotients at much smaller steps (h/8 .. h/16384)
 *        agree on, two steps in a row, and that differs from fd (NAN if
 *        none): J has structure finer than h that averages out smoothly
 *        over the steps (a staircase such as rint(1e5 x): the quotients
 *        see its mean slope, the derivative is that of the pieces), with
 *        fine_tol, the spread and rounding of that pair;
 * shape  FZ_* bits; ok = 0 when J was not finite. */
struct fz_fd {
  double fd, noise, qres, fine, fine_tol;
  int shape, ok;
};

#define FZ_FINE_STEPS 15 /* steps h / 2^s, s = 0..14: 0..2 the quotients */

/* The largest power of two that divides x (finite, nonzero). */
static double fz_lowbit(double x) {
  int e;
  double m = frexp(fabs(x), &e);
  unsigned long long bits = (unsigned long long)ldexp(m, 53);
  return ldexp(1.0, e - 53 + __builtin_ctzll(bits));
}

/* Finite differences of J at v0, n inputs, in a program that computes in
 * precision eps (DBL_EPSILON, or FLT_EPSILON with float math). */
static void fz_differences(double (*J)(const double *), const double *v0, int n, double step,
                           double eps, struct fz_fd *out) {
  double *v = (double *)malloc((n ? n : 1) * sizeof(double));
  memcpy(v, v0, n * sizeof(double));
  double j0 = J(v);
  for (int j = 0; j < n; j++) {
    struct fz_fd *r = out + j;
    double d[FZ_FINE_STEPS], hs[FZ_FINE_STEPS], g[3];
    int moved[FZ_FINE_STEPS], finite[FZ_FINE_STEPS];
    /* The quantum of J: the largest power of two dividing every change of
     * J seen. A double J's changes share about its last bit; a J rounded
     * to float shares some 29 more, which no smooth double would. */
    double quantum = 0;
    r->ok = isfinite(j0);
    double H = step * (fabs(v0[j]) > 1.0 ? fabs(v0[j]) : 1.0);
    for (int s = 0; s < FZ_FINE_STEPS; s++) {
      double h = H / (1 << s);
      /* Through volatile, so the divisor is the step actually taken. */
      volatile double xp = v0[j] + h, xm = v0[j] - h;
      v[j] = xp;
      double fp = J(v);
      v[j] = xm;
      double fm = J(v);
      v[j] = v0[j];
      finite[s] = isfinite(fp) && isfinite(fm);
      if (s < 3 && !finite[s])
        r->ok = 0;
      hs[s] = (xp - xm) / 2;
      d[s] = (fp - fm) / (xp - xm);
      moved[s] = fp != fm;
      if (s < 3)
        /* forward minus backward quotient: ~ h f'' where J is smooth, ~
         * the jump in slope at a kink, whatever h. */
        g[s] = ((fp - j0) - (j0 - fm)) / hs[s];
      double change[2] = {fp - j0, j0 - fm};
      for (int c = 0; c < 2; c++)
        if (finite[s] && isfinite(j0) && change[c] != 0) {
          double b = fz_lowbit(change[c]);
          quantum = quantum == 0 ? b : fmin(quantum, b);
        }
    }
    r->fd = d[2] + (d[2] - d[1]) / 3;
    r->noise = fmax(fabs(d[0] - d[1]), fabs(d[1] - d[2]));
    /* What J's own rounding allows a difference quotient to resolve: where
     * J is huge the steps vanish below its last digit and all three
     * quotients agree on a meaningless value (often exactly 0). Where J
     * did not move at all, the rounding that hid the change happened in
     * an intermediate (log(1 + y) with |y| below an ulp of 1): count it at
     * the scale of 1 at least. */
    double h4 = H / 4;
    int flat = d[0] == 0 && d[1] == 0 && d[2] == 0;
    double floor_ = 8 * DBL_EPSILON * (flat ? fmax(fabs(j0), 1.0) : fabs(j0)) / h4;
    /* Where J is smooth the spread is truncation error, O(h^2): halving the
     * step divides it by 4. Irregular spread far above rounding means the
     * quotients alias something they cannot resolve. */
    double ratio = (d[0] - d[1]) / (d[1] - d[2]);
    r->shape = flat ? FZ_FLAT : 0;
    if (r->noise > 100 * floor_ && !(ratio >= 2 && ratio <= 8))
      r->shape |= FZ_ROUGH;
    r->noise = fmax(r->noise, floor_);
    if (fabs(g[2]) > 0.75 * fabs(g[1]) && fabs(g[2]) > FZ_UNRELIABLE_REL * fabs(r->fd))
      r->shape |= FZ_KINK;
    /* J rounded coarsely (a float result): each value is off by up to half
     * a quantum, so a quotient at h/4 by up to quantum / (2 h/4), the
     * Richardson value by up to 0.75 quantum / (h/4). Where J did not move
     * at all, the rounding that hid the change may be one ulp of a float
     * (eps) at the scale of max(|J|, 1). */
    r->qres = (flat ? eps * fmax(fabs(j0), 1.0) : quantum) / h4;
    /* Smaller steps: a pair of successive quotients that agree with each
     * other (to their rounding) and not with fd. A staircase finer than h
     * (rint of a fast-moving argument) gives quotients that agree on its
     * mean slope at h, h/2, h/4, and on the slope of the pieces at steps
     * below the stairs' width. Steps where J did not move at all count
     * its rounding at the scale of 1, as above. */
    r->fine = NAN;
    r->fine_tol = 0;
    double worst = 1;
    for (int s = 3; s + 1 < FZ_FINE_STEPS; s++) {
      if (!finite[s] || !finite[s + 1])
        continue;
      double scale = moved[s] || moved[s + 1] ? fabs(j0) : fmax(fabs(j0), 1.0);
      double res = (8 * DBL_EPSILON * scale + quantum) / hs[s + 1];
      double spread = fabs(d[s] - d[s + 1]);
      if (spread > FZ_UNRELIABLE_REL * fmax(fabs(d[s]), fabs(d[s + 1])) + FZ_NOISE_K * res)
        continue;
      double tol = FZ_NOISE_K * fmax(spread, res);
      double off_tol =
          FZ_UNRELIABLE_REL * fmax(fabs(d[s + 1]), fabs(r->fd)) + FZ_NOISE_K * r->noise + tol;
      double off = fabs(d[s + 1] - r->fd) / off_tol;
      if (off > worst)
        worst = off, r->fine = d[s + 1], r->fine_tol = tol;
    }
  }
  free(v);
}

/* What the primal run J(v0) shows about the finite differences:
 * FZ_RAISES when it makes a NaN or an infinity on the way (IEEE invalid,
 * divide-by-zero or overflow flags), even where the result stays finite:
 * the reverse pass multiplies such a partial by a zero adjoint, and
 * 0 * inf is NaN. FZ_FAST_TRIG when a sin, cos or tan argument is so large
 * that a step (relative size `step`) moves it by a radian or more: finite
 * differences cannot follow that term (fz_trig_max, from libm_probe.c;
 * unknown without it). FZ_SINGULAR when it called a math function where its
 * derivative is infinite (fz_singular, from libm_probe.c). Called through
 * volatile so J is not inlined into code the compiler may reorder around
 * the flag tests. */
enum { FZ_RAISES = 1, FZ_FAST_TRIG = 2, FZ_SINGULAR = 4 };
extern double fz_trig_max __attribute__((weak));
extern long fz_singular __attribute__((weak));
static int fz_primal_flags(double (*J)(const double *), const double *v0, double step) {
  double (*volatile call)(const double *) = J;
  double *volatile trig = &fz_trig_max;
  long *volatile singular = &fz_singular;
  if (trig)
    *trig = 0;
  if (singular)
    *singular = 0;
  feclearexcept(FE_ALL_EXCEPT);
  volatile double r = call(v0);
  (void)r;
  int flags = fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW) ? FZ_RAISES : 0;
  if (trig && *trig * step >= 1)
    flags |= FZ_FAST_TRIG;
  if (singular && *singular)
    flags |= FZ_SINGULAR;
  return flags;
}

/* Judges the gradient ad[0..n) against finite differences of J; prints the
 * verdict line of program `id`. */
static void fz_judge(const char *id, int n, const double *ad, const struct fz_fd *f, int flags,
                     double rtol) {
  double gscale = 0;
  for (int j = 0; j < n; j++)
    if (f[j].ok && isfinite(f[j].fd))
      gscale = fmax(gscale, fabs(f[j].fd));
  int bad = -1, unsure = -1;
  double worst = 0;
  const char *unsure_why = "";
  /* Every mismatching component, "!" after those whose gradient is not
   * finite: a minimiser keeps the worst one failing the same way. */
  char list[256] = "", *end = list;
  for (int j = 0; j < n; j++) {
    double fd = f[j].fd, noise = f[j].noise;
    int shape = f[j].shape;
    double err = fabs(ad[j] - fd);
#ifdef FZ_VERBOSE /* every component, for reading a reproducer */
    printf("FUZZ-COMPONENT %%s %%d ad=%%.17g fd=%%.17g noise=%%.3g shape=%%d finite=%%d "
           "qres=%%.3g fine=%%.17g fine_tol=%%.3g\n",
           id, j, ad[j], fd, noise, shape, f[j].ok, f[j].qres, f[j].fine, f[j].fine_tol);
#endif
    double tol = rtol * fmax(fabs(ad[j]), fabs(fd)) + FZ_ATOL * gscale + FZ_NOISE_K * noise;
    if (!f[j].ok || !isfinite(fd)) {
      if (unsure < 0) unsure = j, unsure_why = "nonfinite";
      continue;
    }
    if (isfinite(ad[j]) && err <= tol)
      continue;
    /* Where J did not move, the quotients agree exactly: a gradient
     * beyond their resolution (the noise) is wrong, not noisy. */
    if (!(shape & FZ_FLAT) && noise > FZ_UNRELIABLE_REL * (fabs(fd) + 1e-6 * gscale)) {
      if (unsure < 0) unsure = j, unsure_why = "noisy";
      continue;
    }
    if (shape & FZ_KINK) {
      if (unsure < 0) unsure = j, unsure_why = "kink";
      continue;
    }
    if (shape & FZ_ROUGH) {
      if (unsure < 0) unsure = j, unsure_why = "unresolved";
      continue;
    }
    if (!isfinite(ad[j]) && (flags & FZ_RAISES)) {
      if (unsure < 0) unsure = j, unsure_why = "nonfinite-intermediate";
      continue;
    }
    if (!isfinite(ad[j]) && (flags & FZ_SINGULAR)) {
      if (unsure < 0) unsure = j, unsure_why = "singular";
      continue;
    }
    /* Each sin(X) in a chain multiplies the derivative by about X: the
     * exact gradient can overflow to inf (and 0 * inf to NaN) too. */
    if (flags & FZ_FAST_TRIG) {
      if (unsure < 0) unsure = j, unsure_why = "fast-trig";
      continue;
    }
    /* J is rounded more coarsely than a double (a float result, or an
     * intermediate's float rounding hid every change): the gradient is
     * within what that quantisation lets the quotients resolve. */
    if (isfinite(ad[j]) && err <= tol + 2 * f[j].qres) {
      if (unsure < 0) unsure = j, unsure_why = "quantised";
      continue;
    }
    /* Quotients at much smaller steps agree with the gradient, not with
     * fd: J has structure finer than the steps (a fine staircase). */
    if (isfinite(ad[j]) && isfinite(f[j].fine) &&
        fabs(ad[j] - f[j].fine) <=
            rtol * fmax(fabs(ad[j]), fabs(f[j].fine)) + FZ_ATOL * gscale + f[j].fine_tol) {
      if (unsure < 0) unsure = j, unsure_why = "fine-scale";
      continue;
    }
    double ratio = isfinite(ad[j]) ? err / (tol > 0 ? tol : 1e-300) : INFINITY;
    if (bad < 0 || ratio > worst)
      bad = j, worst = ratio;
    if (end < list + sizeof list - 16)
      end += sprintf(end, "%%s%%d%%s", list[0] ? "," : "", j, isfinite(ad[j]) ? "" : "!");
  }
  if (bad >= 0)
    fz_verdict(id, "mismatch", bad, ad[bad], f[bad].fd, f[bad].noise, "differs", list);
  else if (unsure >= 0)
    fz_verdict(id, "unreliable", unsure, ad[unsure], f[unsure].fd, f[unsure].noise, unsure_why,
               "-");
  else
    fz_verdict(id, "pass", -1, 0, 0, 0, "agrees", "-");
}

/* Forward mode's oracle: finite differences of each output of Y along a
 * direction u, i.e. of t -> Y(v0 + t u)[m] at t = 0, through fz_differences
 * (same steps, quotients and shapes as the gradient's), so fz_judge judges
 * the tangents J·u output by output. Y(v, y) writes the outputs of the
 * function at inputs v to y[0..outs). */
static struct {
  void (*Y)(const double *, double *);
  const double *v0, *u;
  double *v, *y;
  int n, m;
} fz_dir;

static double fz_dir_eval(const double *t) {
  for (int j = 0; j < fz_dir.n; j++)
    fz_dir.v[j] = fz_dir.v0[j] + t[0] * fz_dir.u[j];
  fz_dir.Y(fz_dir.v, fz_dir.y);
  return fz_dir.y[fz_dir.m];
}

static void fz_directional(void (*Y)(const double *, double *), const double *v0,
                           const double *u, int n, int outs, double step, double eps,
                           struct fz_fd *out) {
  static const double t0[1] = {0.0};
  fz_dir.Y = Y;
  fz_dir.v0 = v0;
  fz_dir.u = u;
  fz_dir.n = n;
  fz_dir.v = (double *)malloc((n ? n : 1) * sizeof(double));
  fz_dir.y = (double *)malloc((outs ? outs : 1) * sizeof(double));
  for (int m = 0; m < outs; m++) {
    fz_dir.m = m;
    fz_differences(fz_dir_eval, t0, 1, step, eps, out + m);
  }
  free(fz_dir.v);
  free(fz_dir.y);
}

/* The dot-product test: fwd = <w, J·u> from forward mode, rev = <J^T w, u>
 * from reverse mode; scale = sum |w_i (J·u)_i| + sum |(J^T w)_j u_j|. The
 * two are the same sum of the same partial products, accumulated in other
 * orders, so they agree to rounding: |fwd - rev| <= rtol * scale (rtol, the
 * program's tolerance, is some 10^10 roundings of the terms for double,
 * 10^4 for float math). Where they do not, the rules of fz_judge that do not
 * need finite differences excuse it: non-finite values from a primal that
 * made a NaN or infinity (0 * inf is NaN in either mode, not always in
 * both), or from a singular math call; huge derivatives from a fast sine
 * (products of huge factors, whose roundings the scale does not see). */
static void fz_judge_dot(const char *id, double fwd, double rev, double scale, int flags,
                         double rtol) {
  double tol = rtol * scale;
  int finite = isfinite(fwd) && isfinite(rev);
  if (finite && fabs(fwd - rev) <= tol)
    fz_verdict(id, "pass", -1, 0, 0, 0, "agrees", "-");
  else if (!finite && (flags & FZ_RAISES))
    fz_verdict(id, "unreliable", 0, fwd, rev, tol, "nonfinite-intermediate", "-");
  else if (!finite && (flags & FZ_SINGULAR))
    fz_verdict(id, "unreliable", 0, fwd, rev, tol, "singular", "-");
  else if (flags & FZ_FAST_TRIG)
    fz_verdict(id, "unreliable", 0, fwd, rev, tol, "fast-trig", "-");
  else
    fz_verdict(id, "mismatch", 0, fwd, rev, tol, "differs", finite ? "0" : "0!");
}
/* The vector-mode checks (vrev, vfwd): the two lanes of one width-2 request
 * (lane[0], lane[1]) against the scalar requests with the same seeds or
 * directions (ref[0], ref[1]), n values each. Each lane is the same
 * derivative code as the scalar request's, run on the lane's seed: the same
 * partials (computed once for both lanes), multiplied and summed in the same
 * order, so the values are normally identical bit for bit (why=exact). But
 * the reverse pass marks its adjoint accumulations reassoc (addAdjoint in
 * enzyme/lib/Modes/ReversePass.cpp), so at -O2 the optimiser may reorder
 * them (a loop's accumulation may become a vectorised reduction), and
 * differently in the scalar and the width-2 code; forward mode's lanes were
 * seen to differ too (1 to 4 ulps, -O2 only). Reordering a sum of k terms
 * moves it by up to about k eps times the sum of their magnitudes. The terms are not visible
 * here; their size is estimated by the value itself and the largest value of
 * the same lane (its adjoints flow through the same partials), so
 *
 *   |lane - ref| <= FZ_LANE_ULPS eps (max(|lane|, |ref|) + max_j |ref_j|)
 *
 * (eps: DBL_EPSILON, FLT_EPSILON with float math; FZ_LANE_ULPS = 1024: a
 * sum of up to 1024 reordered terms of one size; 64 was too tight for the
 * C++ kind's seed 445 at -O2, whose Eigen Matrix2d tangents cancel: its
 * lanes differ from the scalar tangents by 3e-13 relative, 1.2 times that
 * bound, and agree exactly at -O1, where nothing is reordered; 256 for
 * seeds 2658 and 3703 at -O2, 1.2 and 1.5 times it, exact at -O1 too)
 * passes (why=agrees). A wrong
 * lane (the other lane's seed, a seed dropped, a partial missing in one
 * lane) is off by the size of a term, some 10^13 times more. Values that
 * are not finite must be so in both (NaN and NaN, or the same infinity): the
 * same operations give the same non-finite results in either mode, so
 * there is no excuse for them here. */
static void fz_judge_lanes(const char *id, int n, const double *const ref[2],
                           const double *const lane[2], double eps) {
  int bad = -1, exact = 1;
  double worst = 0, bad_tol = 0;
  char list[256] = "", *end = list;
  for (int l = 0; l < 2; l++) {
    double scale = 0;
    for (int j = 0; j < n; j++)
      if (isfinite(ref[l][j]))
        scale = fmax(scale, fabs(ref[l][j]));
    for (int j = 0; j < n; j++) {
      double r = ref[l][j], v = lane[l][j];
      if (r == v || (isnan(r) && isnan(v)))
        continue;
      exact = 0;
      double tol = FZ_LANE_ULPS * eps * (fmax(fabs(r), fabs(v)) + scale);
      int finite = isfinite(r) && isfinite(v);
      if (finite && fabs(r - v) <= tol)
        continue;
      double ratio = finite ? fabs(r - v) / (tol > 0 ? tol : 1e-300) : INFINITY;
      if (bad < 0 || ratio > worst)
        bad = l * n + j, worst = ratio, bad_tol = tol;
      if (end < list + sizeof list - 16)
        end += sprintf(end, "%%s%%d%%s", list[0] ? "," : "", l * n + j, isfinite(v) ? "" : "!");
    }
  }
  if (bad >= 0)
    fz_verdict(id, "mismatch", bad, lane[bad / n][bad %% n], ref[bad / n][bad %% n], bad_tol,
               "differs", list);
  else
    fz_verdict(id, "pass", -1, 0, 0, 0, exact ? "exact" : "agrees", "-");
}
"""


def prelude():
    structs = []
    for k in range(2, MAX_OUT + 1):
        fields = " ".join("double d%d;" % i for i in range(k))
        structs.append("struct fz_grad%d { %s };\nstruct fz_grad%d __enzyme_autodiff_%d(void *, ...);"
                       % (k, fields, k, k))
    vstructs = []
    for k in range(1, MAX_OUT + 1):
        vstructs.append("struct fz_vgrad%d { double d[%d]; };\n"
                        "struct fz_vgrad%d __enzyme_autodiff_w2_%d(void *, ...);" % (k, 2 * k, k, k))
    return PRELUDE % {"grad_structs": "\n".join(structs), "vgrad_structs": "\n".join(vstructs),
                      "atol": ATOL, "noise_k": NOISE_K, "unreliable": UNRELIABLE_REL,
                      "lane_ulps": LANE_ULPS}


def _num(x):
    return repr(float(x))


def _coords(program):
    """The flattened active inputs: (param, C lvalue suffix, shadow lvalue
    suffix) in order, e.g. (x0, "[2]") or (s, ".a")."""
    out = []
    for p in program.params:
        if not p.active:
            continue
        if p.kind == "scalar":
            out.append((p, ""))
        elif p.kind == "array":
            out += [(p, "[%d]" % i) for i in range(len(p.values))]
        elif p.kind == "struct":
            fields = [".a"] + [".v[%d]" % i for i in range(program.struct_len)] + [".b"]
            out += [(p, f) for f in fields]
    return out


def _declare_inputs(program, lines, from_v):
    """Declares the primal arguments; active ones taken from v[], the rest
    constant."""
    k = 0
    for p in program.params:
        if p.kind == "scalar":
            if p.active:
                lines.append("  double %s = %s;" % (p.name, "v[%d]" % k if from_v else _num(p.values[0])))
                k += 1
            else:
                lines.append("  double %s = %s;" % (p.name, _num(p.values[0])))
        elif p.kind == "int":
            lines.append("  int %s = %d;" % (p.name, p.values[0]))
        elif p.kind == "array":
            vals = ", ".join(_num(x) for x in p.values)
            lines.append("  double %s[%d] = {%s};" % (p.name, len(p.values), vals))
            if p.active and from_v:
                lines.append("  memcpy(%s, v + %d, sizeof %s);" % (p.name, k, p.name))
            if p.active:
                k += len(p.values)
        elif p.kind == "struct":
            lines.append("  struct %s %s;" % (program.struct_name, p.name))
            lines.append("  %s.k = %d;" % (p.name, p.struct_k))
            for i, f in enumerate(_struct_fields(program)):
                lines.append("  %s%s = %s;" % (p.name, f, "v[%d]" % (k + i) if from_v else _num(p.values[i])))
            k += len(p.values)


def _struct_fields(program):
    return [".a"] + [".v[%d]" % i for i in range(program.struct_len)] + [".b"]


def _call_args(program, shadows, prefixes=("d_",)):
    """The argument list of a call of the function; with shadows, the
    request's list with activity markers, and after each shadowed array or
    struct its shadow, one per prefix (vector mode: one per lane)."""
    args = []
    for p in program.params:
        value = ("&" + p.name) if p.kind == "struct" else p.name
        if not shadows:
            args.append(value)
            continue
        if p.marker:
            args.append("enzyme_" + p.activity)
        args.append(value)
        if p.active and p.kind in ("array", "struct"):
            args += [("&" if p.kind == "struct" else "") + prefix + p.name for prefix in prefixes]
    return ", ".join(args)


def _outputs(program):
    """What forward mode gives a tangent of, in order: the result (None) when
    the function returns one, then every element of the shadowed arrays and
    every double field of the struct, as (param, C lvalue suffix)."""
    out = [(None, "")] if program.returns else []
    for p in program.params:
        if p.active and p.kind == "array":
            out += [(p, "[%d]" % i) for i in range(len(p.values))]
        elif p.active and p.kind == "struct":
            out += [(p, f) for f in _struct_fields(program)]
    return out


def _direction(program, coords, outputs):
    """The forward check's random direction u (one entry per active input)
    and the dot-product test's output seeds w (one per output; the result's
    is 1, as reverse mode seeds it): +-k/16, k = 4..16, so no entry is tiny
    and u moves every input. Drawn from a generator of their own, so the
    programs of a seed do not change."""
    r = random.Random("fwd-%d" % program.seed)
    draw = lambda: r.choice((-1, 1)) * r.randrange(4, 17) / 16.0
    u = [draw() for _ in coords]
    w = [1.0 if p is None else draw() for p, _ in outputs]
    return u, w


def _shadow_lines(program, values, out, prefix="d_"):
    """Declares the shadows <prefix><name> (d_<name>) of the active arrays
    and the struct, filled from `values` (one per flattened active input, in
    _coords order: output seeds for reverse mode, the direction for forward
    mode); returns the active scalars' entries of `values`, in order."""
    k, scalars = 0, []
    for p in program.params:
        if not p.active:
            continue
        if p.kind == "scalar":
            scalars.append(values[k])
            k += 1
        elif p.kind == "array":
            vals = values[k:k + len(p.values)]
            out.append("  double %s%s[%d] = {%s};" % (prefix, p.name, len(vals),
                                                      ", ".join(_num(x) for x in vals)))
            k += len(p.values)
        elif p.kind == "struct":
            out.append("  struct %s %s%s;" % (program.struct_name, prefix, p.name))
            out.append("  %s%s.k = %d;" % (prefix, p.name, p.struct_k))
            for f, x in zip(_struct_fields(program), values[k:k + len(p.values)]):
                out.append("  %s%s%s = %s;" % (prefix, p.name, f, _num(x)))
            k += len(p.values)
    return scalars


def _seeds(program, weights):
    """Output seeds, per output array element and struct field, as values
    for _shadow_lines (the seeds go where the shadows are; scalars get 0)."""
    seeds = []
    for p in program.params:
        if p.active:
            seeds += [0.0] if p.kind == "scalar" else list(weights[p.name])
    return seeds


def _gradient_lines(program, seeds):
    """The reverse-mode request with the shadows preset to `seeds` (one list
    per output param name); _gradient_reads then copies dJ/dv out."""
    name = program.name
    out = []
    _declare_inputs(program, out, from_v=False)
    _shadow_lines(program, _seeds(program, seeds), out)
    scalars = [p for p in program.params if p.kind == "scalar" and p.active]
    args = "(void *)%s, %s" % (name, _call_args(program, shadows=True))
    if len(scalars) == 0:
        out.append("  __enzyme_autodiff_void(%s);" % args)
    elif len(scalars) == 1:
        out.append("  double g = __enzyme_autodiff(%s);" % args)
    else:
        out.append("  struct fz_grad%d g = __enzyme_autodiff_%d(%s);" % (len(scalars), len(scalars), args))
    return out


def _gradient_reads(program, target):
    """Copies the gradient of the request of _gradient_lines to target[]."""
    out, k_scalar = [], 0
    scalars = [p for p in program.params if p.kind == "scalar" and p.active]
    for j, (p, f) in enumerate(_coords(program)):
        if p.kind == "scalar":
            src = "g" if len(scalars) == 1 else "g.d%d" % k_scalar
            k_scalar += 1
        else:
            src = "d_%s%s" % (p.name, f)
        out.append("  %s[%d] = %s;" % (target, j, src))
    return out


def _tangent_lines(program, u, target):
    """The forward-mode request along u, leaving the tangents of the outputs
    (_outputs order) in target[]. Markers as in the reverse request: a
    scalar's enzyme_out becomes enzyme_dup (value, then tangent), left out
    where the reverse request leaves it out (both default to it)."""
    name = program.name
    out = []
    _declare_inputs(program, out, from_v=False)
    tangents = iter(_shadow_lines(program, u, out))
    args = []
    for p in program.params:
        value = ("&" + p.name) if p.kind == "struct" else p.name
        if p.marker:
            args.append("enzyme_" + ("dup" if p.activity == "out" else p.activity))
        args.append(value)
        if p.active and p.kind == "scalar":
            args.append(_num(next(tangents)))
        elif p.active:
            args.append(("&d_" if p.kind == "struct" else "d_") + p.name)
    call = "(void *)%s, %s" % (name, ", ".join(args))
    if program.returns:
        out.append("  double dr = __enzyme_fwddiff(%s);" % call)
    else:
        out.append("  __enzyme_fwddiff_void(%s);" % call)
    for m, (p, f) in enumerate(_outputs(program)):
        out.append("  %s[%d] = %s;" % (target, m, "dr" if p is None else "d_%s%s" % (p.name, f)))
    return out


# Engine bugs the fuzzer knows of, each with its XFAIL test: (program
# feature, check, test). A program with the feature leaves out the check's
# request (it would crash the compiler, hiding what the other checks say)
# and reports it "unreliable known-bug", so every campaign counts it. When
# the test starts to pass (lit: XPASS), drop the entry.
KNOWN_BUGS = [
    # ("long-double", "vrev", "test-suite/runtime/vector-rev-long-double.c")
    # was here until 098b0a0 fixed it.
]


def known_bug(program, check):
    """The test of a known engine bug that keeps `check` from running on
    `program`, or None."""
    for feature, c, test in KNOWN_BUGS:
        if c == check and feature in program.features:
            return test
    return None


# The shadows of vector mode's two lanes: d_<name> (lane 0) and d1_<name>.
LANES = ("d_", "d1_")


def _vector_gradient_lines(program, seeds, targets):
    """The width-2 reverse-mode request: lane l's output shadows preset to
    seeds[l] (as _gradient_lines), each active scalar's two gradients
    returned lane-major per parameter (g.d[2 k + l]); the gradient of lane l
    is left in targets[l][] (_coords order)."""
    name = program.name
    out = []
    _declare_inputs(program, out, from_v=False)
    for prefix, lane in zip(LANES, seeds):
        _shadow_lines(program, _seeds(program, lane), out, prefix)
    scalars = [p for p in program.params if p.kind == "scalar" and p.active]
    args = "(void *)%s, enzyme_width, 2, %s" % (name, _call_args(program, True, LANES))
    if scalars:
        out.append("  struct fz_vgrad%d g = __enzyme_autodiff_w2_%d(%s);"
                   % (len(scalars), len(scalars), args))
    else:
        out.append("  __enzyme_autodiff_void(%s);" % args)
    for l, (prefix, target) in enumerate(zip(LANES, targets)):
        k_scalar = 0
        for j, (p, f) in enumerate(_coords(program)):
            if p.kind == "scalar":
                src = "g.d[%d]" % (2 * k_scalar + l)
                k_scalar += 1
            else:
                src = "%s%s%s" % (prefix, p.name, f)
            out.append("  %s[%d] = %s;" % (target, j, src))
    return out


def _vector_tangent_lines(program, directions, targets):
    """The width-2 forward-mode request along directions[0] and [1] (markers
    as in _tangent_lines; a scalar's value is followed by its two
    tangents, a pointer by its two shadows), leaving lane l's tangents of
    the outputs (_outputs order) in targets[l][]."""
    name = program.name
    out = []
    _declare_inputs(program, out, from_v=False)
    tangents = list(zip(*[_shadow_lines(program, u, out, prefix)
                          for prefix, u in zip(LANES, directions)]))
    tangents = iter(tangents)
    args = []
    for p in program.params:
        value = ("&" + p.name) if p.kind == "struct" else p.name
        if p.marker:
            args.append("enzyme_" + ("dup" if p.activity == "out" else p.activity))
        args.append(value)
        if p.active and p.kind == "scalar":
            args += [_num(t) for t in next(tangents)]
        elif p.active:
            args += [("&" if p.kind == "struct" else "") + prefix + p.name for prefix in LANES]
    call = "(void *)%s, enzyme_width, 2, %s" % (name, ", ".join(args))
    if program.returns:
        out.append("  struct fz_tan2 dr = __enzyme_fwddiff_w2(%s);" % call)
    else:
        out.append("  __enzyme_fwddiff_void(%s);" % call)
    for l, (prefix, target) in enumerate(zip(LANES, targets)):
        for m, (p, f) in enumerate(_outputs(program)):
            src = "dr.d[%d]" % l if p is None else "%s%s%s" % (prefix, p.name, f)
            out.append("  %s[%d] = %s;" % (target, m, src))
    return out


def _second_direction(program, coords):
    """Lane 1's direction of the vfwd check, drawn as _direction's u from a
    generator of its own."""
    r = random.Random("vfwd-%d" % program.seed)
    return [r.choice((-1, 1)) * r.randrange(4, 17) / 16.0 for _ in coords]


def harness(program):
    """fz<S>_J, fz<S>_Y, fz<S>_fwd, fz<S>_rev, the vector requests
    fz<S>_fwd2, fz<S>_vrev, fz<S>_vfwd, and fz<S>_check for one program."""
    name = program.name
    coords = _coords(program)
    n = len(coords)
    outputs = [p for p in program.params if p.active and p.kind in ("array", "struct")]
    outs = _outputs(program)
    nout = len(outs)
    u, w_dot = _direction(program, coords, outs)
    out = ["", "/* Oracle of %s: J(v), Y(v) and the checks. */" % name]

    # J(v): the scalar whose gradient the request computes.
    body = []
    _declare_inputs(program, body, from_v=True)
    call = "%s(%s)" % (name, _call_args(program, shadows=False))
    body.append("  double J = %s;" % ("0;\n  " + call if not program.returns else call))
    for p in outputs:
        fields = ["[%d]" % i for i in range(len(p.values))] if p.kind == "array" else _struct_fields(program)
        for f, w in zip(fields, p.weights):
            if w != 0.0:
                body.append("  J += %s * %s%s;" % (_num(w), p.name, f))
    out.append("static double %s_J(const double *v) {" % name)
    out.append("  (void)v;")
    out += body
    out.append("  return J;")
    out.append("}")

    # Y(v, y): every output, for forward mode's finite differences.
    out.append("static void %s_Y(const double *v, double *y) {" % name)
    out.append("  (void)v;")
    _declare_inputs(program, out, from_v=True)
    out.append("  %s%s;" % ("y[0] = " if program.returns else "", call))
    for m, (p, f) in enumerate(outs):
        if p is not None:
            out.append("  y[%d] = %s%s;" % (m, p.name, f))
    out.append("}")

    # The forward request along u, and the reverse request with the dot
    # test's seeds w (the same gradient code as the check's, other seeds).
    out.append("#ifndef FZ_PRIMAL_ONLY")
    out.append("static void %s_fwd(double *t) {" % name)
    out += _tangent_lines(program, u, "t")
    out.append("}")
    out.append("static void %s_rev(double *gw) {" % name)
    dense, k = {}, 1 if program.returns else 0
    for p in outputs:
        dense[p.name] = w_dot[k:k + len(p.values)]
        k += len(p.values)
    out += _gradient_lines(program, dense) + _gradient_reads(program, "gw")
    out.append("}")
    # Vector mode (the vrev and vfwd checks): one width-2 reverse request
    # whose lane 0 has the gradient check's seeds and lane 1 the dot test's
    # (whose scalar gradients fz<S>_check and fz<S>_rev compute), one
    # width-2 forward request along u and a second direction u2, and the
    # scalar forward request along u2 to compare lane 1 with.
    u2 = _second_direction(program, coords)
    out.append("static void %s_fwd2(double *t) {" % name)
    out += _tangent_lines(program, u2, "t")
    out.append("}")
    out.append("#ifndef FZ_NO_VECTOR")
    skip_vrev = known_bug(program, "vrev")
    if not skip_vrev:
        out.append("static void %s_vrev(double *g0, double *g1) {" % name)
        out += _vector_gradient_lines(program, [{p.name: p.weights for p in outputs}, dense],
                                      ["g0", "g1"])
        out.append("}")
    out.append("static void %s_vfwd(double *t0, double *t1) {" % name)
    out += _vector_tangent_lines(program, [u, u2], ["t0", "t1"])
    out.append("}")
    out.append("#endif")
    out.append("#endif")

    # The check: finite differences first (primal only), then the gradient.
    out.append("static void %s_check(void) {" % name)
    out.append('  const char *id = "%d";' % program.seed)
    vals = []
    for p, f in coords:
        if p.kind == "struct":
            vals.append(p.values[_struct_fields(program).index(f)])
        elif p.kind == "array":
            vals.append(p.values[int(f[1:-1])])
        else:
            vals.append(p.values[0])
    # The precision the program rounds to: float math rounds its values,
    # and may hide a change of J, at float's precision.
    eps = "FLT_EPSILON" if "float" in program.features else "DBL_EPSILON"
    out.append("  static const double v0[%d] = {%s};" % (max(n, 1), ", ".join(_num(x) for x in vals) or "0"))
    out.append("  double ad[%d];" % max(n, 1))
    out.append("  struct fz_fd fd[%d];" % max(n, 1))
    out.append('  fz_stage(id, "fd");')
    out.append("  fz_differences(%s_J, v0, %d, %s, %s, fd);" % (name, n, _num(program.fd_step), eps))
    out.append("  int flags = fz_primal_flags(%s_J, v0, %s);" % (name, _num(program.fd_step)))
    out.append('  fz_stage(id, "ad");')
    # Built with -DFZ_PRIMAL_ONLY (a plain clang, sanitizers) the program
    # runs the primal and the finite differences only.
    out.append("#ifdef FZ_PRIMAL_ONLY")
    out.append("  for (int j = 0; j < %d; j++)" % n)
    out.append("    ad[j] = fd[j].fd;")
    out.append("  (void)%s;" % (name,))
    out.append("#else")
    out.append("  {")
    lines = _gradient_lines(program, {p.name: p.weights for p in outputs})
    out += ["  " + l for l in lines]
    out.append('    fz_stage(id, "judge");')
    out += ["  " + l for l in _gradient_reads(program, "ad")]
    out.append("  }")
    out.append("#endif")
    out.append("  fz_judge(id, %d, ad, fd, flags, %s);" % (n, _num(program.rtol)))

    # Forward mode: J·u output by output against directional differences.
    out.append("  static const double u[%d] = {%s};" % (max(n, 1), ", ".join(_num(x) for x in u) or "0"))
    out.append("  double tad[%d];" % max(nout, 1))
    out.append("  struct fz_fd tfd[%d];" % max(nout, 1))
    out.append('  fz_stage(id, "fwd-fd");')
    out.append("  fz_directional(%s_Y, v0, u, %d, %d, %s, %s, tfd);"
               % (name, n, nout, _num(program.fd_step), eps))
    out.append('  fz_stage(id, "fwd");')
    out.append("#ifdef FZ_PRIMAL_ONLY")
    out.append("  for (int m = 0; m < %d; m++)" % nout)
    out.append("    tad[m] = tfd[m].fd;")
    out.append("#else")
    out.append("  %s_fwd(tad);" % name)
    out.append("#endif")
    out.append('  fz_judge("%d/fwd", %d, tad, tfd, flags, %s);'
               % (program.seed, nout, _num(program.rtol)))

    # The dot-product test: <w, J·u> (forward) = <J^T w, u> (reverse).
    out.append('  fz_stage(id, "dot");')
    out.append("#ifdef FZ_PRIMAL_ONLY")
    out.append('  fz_verdict("%d/dot", "pass", -1, 0, 0, 0, "agrees", "-");' % program.seed)
    out.append("#else")
    out.append("  static const double w[%d] = {%s};" % (max(nout, 1), ", ".join(_num(x) for x in w_dot) or "0"))
    out.append("  double gw[%d];" % max(n, 1))
    out.append("  %s_rev(gw);" % name)
    out.append("  double fwd = 0, rev = 0, scale = 0;")
    out.append("  for (int m = 0; m < %d; m++)" % nout)
    out.append("    fwd += w[m] * tad[m], scale += fabs(w[m] * tad[m]);")
    out.append("  for (int j = 0; j < %d; j++)" % n)
    out.append("    rev += gw[j] * u[j], scale += fabs(gw[j] * u[j]);")
    out.append('  fz_judge_dot("%d/dot", fwd, rev, scale, flags, %s);' % (program.seed, _num(program.rtol)))
    out.append("#endif")

    # Vector mode: each lane of a width-2 request against the scalar request
    # with its seeds (vrev: ad and gw above) or direction (vfwd: tad, and
    # fz<S>_fwd2's tangents along u2). Built with -DFZ_NO_VECTOR (c_fuzz,
    # where the vector requests do not compile) they are left out.
    out.append("#ifndef FZ_NO_VECTOR")
    out.append('  fz_stage(id, "vrev");')
    out.append("#ifdef FZ_PRIMAL_ONLY")
    out.append('  fz_verdict("%d/vrev", "pass", -1, 0, 0, 0, "agrees", "-");' % program.seed)
    out.append('  fz_verdict("%d/vfwd", "pass", -1, 0, 0, 0, "agrees", "-");' % program.seed)
    out.append("#else")
    if skip_vrev:
        out.append('  fz_verdict("%d/vrev", "unreliable", -1, 0, 0, 0, "known-bug", "-");'
                   % program.seed)
    else:
        out.append("  {")
        out.append("    double vg0[%d], vg1[%d];" % (max(n, 1), max(n, 1)))
        out.append("    %s_vrev(vg0, vg1);" % name)
        out.append("    const double *ref[2] = {ad, gw}, *lane[2] = {vg0, vg1};")
        out.append('    fz_judge_lanes("%d/vrev", %d, ref, lane, %s);' % (program.seed, n, eps))
        out.append("  }")
    out.append('  fz_stage(id, "vfwd");')
    out.append("  {")
    out.append("    double t2[%d], vt0[%d], vt1[%d];" % ((max(nout, 1),) * 3))
    out.append("    %s_fwd2(t2);" % name)
    out.append("    %s_vfwd(vt0, vt1);" % name)
    out.append("    const double *ref[2] = {tad, t2}, *lane[2] = {vt0, vt1};")
    out.append('    fz_judge_lanes("%d/vfwd", %d, ref, lane, %s);' % (program.seed, nout, eps))
    out.append("  }")
    out.append("#endif")
    out.append("#endif")
    out.append("}")
    return "\n".join(out) + "\n"


def main_function(programs):
    calls = "".join("  %s_check();\n" % p.name for p in programs)
    return "\nint main(void) {\n%s  return 0;\n}\n" % calls


def standalone_main(program, case_file):
    """The driver file of one program: prelude, the program (included, so a
    minimiser can reduce it alone while the oracle stays fixed), its oracle."""
    return (prelude() + '\n#include "%s"\n' % case_file + harness(program)
            + main_function([program]))


def batch_source(programs):
    """Several programs and their oracles in one translation unit."""
    parts = [prelude()]
    for p in programs:
        parts.append("\n" + p.code + harness(p))
    parts.append(main_function(programs))
    return "".join(parts)


PROBE_SOURCE = pathlib.Path(__file__).resolve().with_name("libm_probe.c")


def libm_probe(tools):
    """The native object of libm_probe.c (built once per build directory,
    outside LTO so it cannot be inlined into the program under test), to
    link into every checked program."""
    obj = tools.build / "fuzz-support" / "libm_probe.o"
    if obj.exists() and obj.stat().st_mtime >= PROBE_SOURCE.stat().st_mtime:
        return obj
    obj.parent.mkdir(parents=True, exist_ok=True)
    # Parallel workers (threads and processes) may build it at once: each
    # writes a file of its own and renames it into place.
    fd, tmp = tempfile.mkstemp(prefix="libm_probe.", suffix=".o", dir=obj.parent)
    os.close(fd)
    subprocess.run([str(tools.llvm("clang")), "-O2", "-c", str(PROBE_SOURCE), "-o", tmp],
                   check=True)
    os.replace(tmp, obj)
    return obj


def build_command(tools, opt, source, exe, flags=()):
    """The command that builds an oracle program `source` (a path or a name
    in the working folder) into `exe` at -`opt`: through the toolchain,
    linked with the libm probe."""
    return [str(tools.clang), "-fenzyme", "-" + opt, *flags, str(source), str(libm_probe(tools)),
            "-o", str(exe), "-lm"]


# The checks of one program, in the order its verdict lines come: the
# gradient (id <seed>), forward mode (<seed>/fwd), the dot-product test
# (<seed>/dot), vector reverse and forward mode's lanes against the scalar
# requests (<seed>/vrev, <seed>/vfwd).
CHECKS = ("rev", "fwd", "dot", "vrev", "vfwd")
SCALAR_CHECKS = CHECKS[:3]   # all there is with -DFZ_NO_VECTOR
VERDICT = re.compile(r"^FUZZ-VERDICT (\d+)(?:/(fwd|dot|vrev|vfwd))? (pass|unreliable|mismatch) (.*)$",
                     re.M)
STAGE = re.compile(r"^FUZZ-STAGE (\S+) (\S+)$", re.M)


def parse(output):
    """{seed: {check: (verdict, rest of the line)}} and the last stage
    reached, as (seed, stage) or None. A program whose checks are not all
    there stopped (crashed or hung) in the stage reached."""
    verdicts = {}
    for m in VERDICT.finditer(output):
        verdicts.setdefault(int(m.group(1)), {})[m.group(2) or "rev"] = (m.group(3), m.group(4))
    stages = STAGE.findall(output)
    last = (int(stages[-1][0]), stages[-1][1]) if stages else None
    return verdicts, last


def complete(checks, expected=CHECKS):
    """All of a program's verdicts (of the checks expected) are there."""
    return checks is not None and all(c in checks for c in expected)
