// C99 complex functions (cabs carg cexp clog csqrt cpow csin ccos ctan csinh
// ccosh ctanh) as maps R^2 -> R^2 (or R): reverse and forward mode against
// the analytic real Jacobian of each and against central differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

#include <complex.h>

static double complex CMPLX_(double x, double y) {
  double complex z;
  __real__ z = x;
  __imag__ z = y;
  return z;
}
#define CMPLX CMPLX_

extern int enzyme_dup, enzyme_const, enzyme_out;
typedef struct {
  double dx, dy;
} grad2;
grad2 __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { CABS, CARG, CEXP, CLOG, CSQRT, CPOW, CSIN, CCOS, CTAN, CSINH, CCOSH,
       CTANH, NFUN };
static const char *names[NFUN] = {"cabs", "carg", "cexp", "clog",
                                  "csqrt", "cpow", "csin", "ccos",
                                  "ctan", "csinh", "ccosh", "ctanh"};

/* Part `part` (0 real, 1 imaginary) of function k at z = x + iy. */
static double eval(double x, double y, int k, int part) {
  double complex z = CMPLX(x, y), w;
  switch (k) {
  case CABS:
    return cabs(z);
  case CARG:
    return carg(z);
  case CEXP: w = cexp(z); break;
  case CLOG: w = clog(z); break;
  case CSQRT: w = csqrt(z); break;
  case CPOW: w = cpow(z, CMPLX(0.7, -0.4)); break;
  case CSIN: w = csin(z); break;
  case CCOS: w = ccos(z); break;
  case CTAN: w = ctan(z); break;
  case CSINH: w = csinh(z); break;
  case CCOSH: w = ccosh(z); break;
  default: w = ctanh(z); break;
  }
  return part ? cimag(w) : creal(w);
}

/* The derivative f'(z) of the holomorphic functions. */
static double complex deriv(double complex z, int k) {
  switch (k) {
  case CEXP: return cexp(z);
  case CLOG: return 1 / z;
  case CSQRT: return 0.5 / csqrt(z);
  case CPOW: return CMPLX(0.7, -0.4) * cpow(z, CMPLX(0.7, -0.4)) / z;
  case CSIN: return ccos(z);
  case CCOS: return -csin(z);
  case CTAN: return 1 / (ccos(z) * ccos(z));
  case CSINH: return ccosh(z);
  case CCOSH: return csinh(z);
  default: return 1 / (ccosh(z) * ccosh(z));
  }
}

static int K, PART;
static double ev_v(const double *v, void *ctx) {
  (void)ctx;
  return eval(v[0], v[1], K, PART);
}

int main(void) {
  const double pts[3][2] = {{0.8, 0.5}, {-1.3, 0.7}, {0.4, -1.1}};
  char name[64];
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < NFUN; ++k)
      for (int part = 0; part < (k <= CARG ? 1 : 2); ++part) {
        double x = pts[p][0], y = pts[p][1];
        double v[2] = {x, y};
        /* Analytic row of the real Jacobian: d part / dx, d part / dy. */
        double ax, ay;
        double complex z = CMPLX(x, y);
        if (k == CABS) {
          ax = x / cabs(z);
          ay = y / cabs(z);
        } else if (k == CARG) {
          ax = -y / (x * x + y * y);
          ay = x / (x * x + y * y);
        } else {
          double complex d = deriv(z, k);
          ax = part ? cimag(d) : creal(d);
          ay = part ? creal(d) : -cimag(d);
        }
        K = k;
        PART = part;
        double fx = fd_partial(ev_v, v, 2, 0, 0);
        double fy = fd_partial(ev_v, v, 2, 1, 0);
        grad2 g = __enzyme_autodiff((void *)eval, x, y, enzyme_const, k,
                                    enzyme_const, part);
        snprintf(name, sizeof name, "%s part %d at %d: rev d/dx", names[k], part, p);
        check_grad(name, g.dx, ax, fx);
        snprintf(name, sizeof name, "%s part %d at %d: rev d/dy", names[k], part, p);
        check_grad(name, g.dy, ay, fy);
        double tx = __enzyme_fwddiff((void *)eval, x, 1.0, y, 0.0,
                                     enzyme_const, k, enzyme_const, part);
        double ty = __enzyme_fwddiff((void *)eval, x, 0.0, y, 1.0,
                                     enzyme_const, k, enzyme_const, part);
        snprintf(name, sizeof name, "%s part %d at %d: fwd d/dx", names[k], part, p);
        check_grad(name, tx, ax, fx);
        snprintf(name, sizeof name, "%s part %d at %d: fwd d/dy", names[k], part, p);
        check_grad(name, ty, ay, fy);
      }
  return check_done();
}
