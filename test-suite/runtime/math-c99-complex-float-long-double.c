// C99 complex functions of `float complex` and `long double complex` (cabs
// carg cexp clog csqrt cpow, their f and l forms) and the compiler runtime's
// __mulsc3/__divsc3/__mulxc3/__divxc3, called directly and reached from
// inline complex arithmetic. On x86-64 float complex values travel as
// <2 x float> and long double complex arguments as byval copies; the
// engine restates both as parts for the one rule table. Reverse and forward
// mode against the analytic real Jacobian and central differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

#include <complex.h>

extern int enzyme_const;
typedef struct {
  float dx, dy;
} gradf;
typedef struct {
  long double dx, dy;
} gradl;
gradf __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
gradl __enzyme_autodiff_l(void *, ...) __asm__("__enzyme_autodiff");
float __enzyme_fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");
long double __enzyme_fwddiff_l(void *, ...) __asm__("__enzyme_fwddiff");

/* What clang calls for a product or quotient that comes out NaN inline. */
float complex __mulsc3(float, float, float, float);
float complex __divsc3(float, float, float, float);
long double complex __mulxc3(long double, long double, long double,
                             long double);
long double complex __divxc3(long double, long double, long double,
                             long double);

enum { CABS, CARG, CEXP, CLOG, CSQRT, CPOW, MUL, DIV, ARITH, NFUN };
static const char *names[NFUN] = {"cabs",  "carg", "cexp", "clog", "csqrt",
                                  "cpow",  "mul",  "div",  "arith"};

/* The constant second operand w = 0.7 - 0.4i. */
#define WRE 0.7
#define WIM (-0.4)

/* Part `part` (0 real, 1 imaginary) of function k at z = x + iy, in T. */
#define DEFINE_EVAL(NAME, T, S, MUL3, DIV3)                                    \
  T NAME(T x, T y, int k, int part) {                                          \
    T complex z, w, r;                                                         \
    __real__ z = x;                                                            \
    __imag__ z = y;                                                            \
    __real__ w = (T)WRE;                                                       \
    __imag__ w = (T)WIM;                                                       \
    switch (k) {                                                               \
    case CABS:                                                                 \
      return cabs##S(z);                                                       \
    case CARG:                                                                 \
      return carg##S(z);                                                       \
    case CEXP: r = cexp##S(z); break;                                          \
    case CLOG: r = clog##S(z); break;                                          \
    case CSQRT: r = csqrt##S(z); break;                                        \
    case CPOW: r = cpow##S(z, w); break;                                       \
    case MUL: r = MUL3(x, y, (T)WRE, (T)WIM); break;                           \
    case DIV: r = DIV3(x, y, (T)WRE, (T)WIM); break;                           \
    default: r = z * w / (z + 1); break;                                       \
    }                                                                          \
    return part ? cimag##S(r) : creal##S(r);                                   \
  }
DEFINE_EVAL(evalf, float, f, __mulsc3, __divsc3)
DEFINE_EVAL(evall, long double, l, __mulxc3, __divxc3)

/* f'(z) of the holomorphic ones, in long double. */
static long double complex deriv(long double complex z, int k) {
  long double complex w = WRE + WIM * I;
  switch (k) {
  case CEXP: return cexpl(z);
  case CLOG: return 1 / z;
  case CSQRT: return 0.5L / csqrtl(z);
  case CPOW: return w * cpowl(z, w) / z;
  case MUL: return w;
  case DIV: return 1 / w;
  default: return w / ((z + 1) * (z + 1));
  }
}

static int K, PART;
static double evall_v(const double *v, void *ctx) {
  (void)ctx;
  return (double)evall(v[0], v[1], K, PART);
}

int main(void) {
  const double pts[3][2] = {{0.8, 0.5}, {-1.3, 0.7}, {0.4, -1.1}};
  char name[80];
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < NFUN; ++k)
      for (int part = 0; part < (k <= CARG ? 1 : 2); ++part) {
        double x = pts[p][0], y = pts[p][1];
        double v[2] = {x, y};
        long double complex z = x + y * I;
        double ax, ay; /* analytic d part / dx, d part / dy */
        if (k == CABS) {
          ax = x / cabsl(z);
          ay = y / cabsl(z);
        } else if (k == CARG) {
          ax = -y / (x * x + y * y);
          ay = x / (x * x + y * y);
        } else {
          long double complex d = deriv(z, k);
          ax = part ? cimagl(d) : creall(d);
          ay = part ? creall(d) : -cimagl(d);
        }
        K = k;
        PART = part;
        double fx = fd_partial(evall_v, v, 2, 0, 0);
        double fy = fd_partial(evall_v, v, 2, 1, 0);

        /* long double: as tight as double. */
        gradl gl = __enzyme_autodiff_l((void *)evall, (long double)x,
                                       (long double)y, enzyme_const, k,
                                       enzyme_const, part);
        long double tx = __enzyme_fwddiff_l((void *)evall, (long double)x, 1.0L,
                                            (long double)y, 0.0L, enzyme_const,
                                            k, enzyme_const, part);
        long double ty = __enzyme_fwddiff_l((void *)evall, (long double)x, 0.0L,
                                            (long double)y, 1.0L, enzyme_const,
                                            k, enzyme_const, part);
        snprintf(name, sizeof name, "%sl part %d at %d: rev d/dx", names[k], part, p);
        check_grad(name, (double)gl.dx, ax, fx);
        snprintf(name, sizeof name, "%sl part %d at %d: rev d/dy", names[k], part, p);
        check_grad(name, (double)gl.dy, ay, fy);
        snprintf(name, sizeof name, "%sl part %d at %d: fwd d/dx", names[k], part, p);
        check_grad(name, (double)tx, ax, fx);
        snprintf(name, sizeof name, "%sl part %d at %d: fwd d/dy", names[k], part, p);
        check_grad(name, (double)ty, ay, fy);

        /* float: against the same analytic values, to float precision. */
        gradf gf = __enzyme_autodiff_f((void *)evalf, (float)x, (float)y,
                                       enzyme_const, k, enzyme_const, part);
        float sx = __enzyme_fwddiff_f((void *)evalf, (float)x, 1.0f, (float)y,
                                      0.0f, enzyme_const, k, enzyme_const, part);
        float sy = __enzyme_fwddiff_f((void *)evalf, (float)x, 0.0f, (float)y,
                                      1.0f, enzyme_const, k, enzyme_const, part);
        snprintf(name, sizeof name, "%sf part %d at %d: rev d/dx", names[k], part, p);
        check_close(name, gf.dx, ax, 1e-5, 1e-5);
        snprintf(name, sizeof name, "%sf part %d at %d: rev d/dy", names[k], part, p);
        check_close(name, gf.dy, ay, 1e-5, 1e-5);
        snprintf(name, sizeof name, "%sf part %d at %d: fwd d/dx", names[k], part, p);
        check_close(name, sx, ax, 1e-5, 1e-5);
        snprintf(name, sizeof name, "%sf part %d at %d: fwd d/dy", names[k], part, p);
        check_close(name, sy, ay, 1e-5, 1e-5);
      }
  return check_done();
}
