/*===- check.h - Shared helpers of the runtime tests ----------------------===*\
|*                                                                            *|
|* Each runtime test is a program that computes a gradient with               *|
|* __enzyme_autodiff, compares it with a value it derives itself, prints what *|
|* differed and exits non-zero on a mismatch (`return check_done();`).        *|
|*                                                                            *|
|*   check_close(name, got, expected, rtol, atol)                             *|
|*       passes when |got - expected| <= atol + rtol * |expected|.            *|
|*   check_grad(name, got, analytic, fd)                                      *|
|*       a gradient against its analytic value (RTOL_EXACT) and against a     *|
|*       central finite difference of the primal (RTOL_FD).                   *|
|*   check_grad_tol(name, got, analytic, fd, rtol)                            *|
|*       the same with a looser analytic tolerance (float, long loops).       *|
|*   check_grad_at(name, x, got, analytic, fd)  the same, naming the point x. *|
|*   check_fd(name, got, fd)   a gradient against finite differences only.    *|
|*   fd_diff1(f, x), fd_diff2(f, x, y, i), fd_partial(f, x, n, i, ctx)        *|
|*       central differences, step fd_step(x) = 1e-6 * max(1, |x|).           *|
|*   ref_digamma(x)   psi(x), for the derivatives of lgamma and tgamma.       *|
|*                                                                            *|
|* Self-test: compiled with -DENZYME_RT_SELFTEST by a plain clang and linked  *|
|* with Inputs/selftest-stubs.c (which defines __enzyme_autodiff as a no-op), *|
|* a test checks its own analytic derivatives against finite differences      *|
|* instead of checking the engine. Inputs/selftest.sh does that for the       *|
|* whole corpus, so the expectations can be trusted before the engine runs.   *|
\*===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_CHECK_H
#define ENZYME_RUNTIME_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tolerances. Analytic expectations are compared tightly; finite differences
 * with step 1e-6 are good to about 1e-9 on the smooth, O(1) functions used
 * here, so 1e-6 leaves a wide margin without hiding a wrong derivative. */
#define RTOL_EXACT 1e-12
#define ATOL_EXACT 1e-13
#define RTOL_FD 1e-6
#define ATOL_FD 1e-6

static int check_failures_ = 0;

static inline int check_report_(const char *name, const char *what, double got,
                                double expected, double rtol, double atol) {
  double diff = fabs(got - expected);
  double tol = atol + rtol * fabs(expected);
  if (diff <= tol) /* false for NaN */
    return 1;
  fprintf(stderr,
          "FAIL %s%s: got %.17g, expected %.17g (|diff| %.3g > tol %.3g)\n",
          name, what, got, expected, diff, tol);
  ++check_failures_;
  return 0;
}

#ifndef ENZYME_RT_SELFTEST

static inline int check_close(const char *name, double got, double expected,
                              double rtol, double atol) {
  return check_report_(name, "", got, expected, rtol, atol);
}

static inline int check_grad_tol(const char *name, double got, double analytic,
                                 double fd, double rtol) {
  int ok = check_report_(name, " (vs analytic)", got, analytic, rtol, ATOL_EXACT);
  return check_report_(name, " (vs finite difference)", got, fd, RTOL_FD, ATOL_FD) && ok;
}

static inline int check_fd(const char *name, double got, double fd) {
  return check_report_(name, " (vs finite difference)", got, fd, RTOL_FD, ATOL_FD);
}

#else /* ENZYME_RT_SELFTEST: check the test's own expectations. */

static inline int check_close(const char *name, double got, double expected,
                              double rtol, double atol) {
  (void)name; (void)got; (void)expected; (void)rtol; (void)atol;
  return 1;
}

static inline int check_grad_tol(const char *name, double got, double analytic,
                                 double fd, double rtol) {
  (void)got; (void)rtol;
  return check_report_(name, " (selftest: analytic vs finite difference)",
                       analytic, fd, RTOL_FD, ATOL_FD);
}

static inline int check_fd(const char *name, double got, double fd) {
  (void)name; (void)got; (void)fd;
  return 1;
}

#ifdef __cplusplus
/* The C++ tests declare the ABI as a variadic template; give it a body.
 * <enzyme/enzyme> declares the R-first forms of the entry points. */
template <typename R, typename... Args> R __enzyme_autodiff(Args...) { return R(); }
template <typename R, typename... Args> R __enzyme_fwddiff(Args...) { return R(); }
template <typename R, typename... Args> R __enzyme_augmentfwd(Args...) { return R(); }
template <typename R, typename... Args> R __enzyme_reverse(Args...) { return R(); }
template <typename R, typename... Args> R __enzyme_batch(Args...) { return R(); }
template <typename... Args> void *__enzyme_augmentfwd(void *, Args...) { return nullptr; }
template <typename... Args> void __enzyme_reverse(void *, Args...) {}
#endif

#endif /* ENZYME_RT_SELFTEST */

static inline int check_grad(const char *name, double got, double analytic, double fd) {
  return check_grad_tol(name, got, analytic, fd, RTOL_EXACT);
}

/* check_grad with the point in the name: "sin at x=0.3". */
static inline int check_grad_at(const char *name, double x, double got, double analytic,
                                double fd) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s at x=%g", name, x);
  return check_grad(buf, got, analytic, fd);
}

static inline int check_done(void) {
  if (check_failures_ == 0)
    return 0;
  fprintf(stderr, "%d check(s) failed\n", check_failures_);
  return 1;
}

/* Central finite differences. The step is rounded through volatile so the
 * divisor is the distance actually taken. */
static inline double fd_step(double x) { return 1e-6 * (fabs(x) > 1.0 ? fabs(x) : 1.0); }

static inline double fd_diff1(double (*f)(double), double x) {
  volatile double xp = x + fd_step(x), xm = x - fd_step(x);
  return (f(xp) - f(xm)) / (xp - xm);
}

/* d f(x, y) / d x (i == 0) or d y (i == 1). */
static inline double fd_diff2(double (*f)(double, double), double x, double y, int i) {
  double v = i == 0 ? x : y;
  volatile double vp = v + fd_step(v), vm = v - fd_step(v);
  double fp = i == 0 ? f(vp, y) : f(x, vp);
  double fm = i == 0 ? f(vm, y) : f(x, vm);
  return (fp - fm) / (vp - vm);
}

/* d f(x[0..n-1], ctx) / d x[i]; x itself is left unchanged. */
static inline double fd_partial(double (*f)(const double *, void *), const double *x,
                                int n, int i, void *ctx) {
  double *buf = (double *)malloc((size_t)n * sizeof(double));
  memcpy(buf, x, (size_t)n * sizeof(double));
  volatile double vp = x[i] + fd_step(x[i]), vm = x[i] - fd_step(x[i]);
  buf[i] = vp;
  double fp = f(buf, ctx);
  buf[i] = vm;
  double fm = f(buf, ctx);
  free(buf);
  return (fp - fm) / (vp - vm);
}

/* Digamma psi(x) = d/dx lgamma(x) for x not a non-positive integer: shift to
 * x >= 20 by psi(x) = psi(x + 1) - 1/x, then the asymptotic series. */
static inline double ref_digamma(double x) {
  double shift = 0.0;
  while (x < 20.0) {
    shift -= 1.0 / x;
    x += 1.0;
  }
  double r = 1.0 / (x * x);
  double series =
      r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r / 132))));
  return shift + log(x) - 0.5 / x - series;
}

#endif /* ENZYME_RUNTIME_CHECK_H */
