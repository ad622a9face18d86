// frexp (mantissa x 2^-e: derivative 2^-e, exponent inactive), modf
// (fractional part: derivative 1; the integral part written through the
// pointer has derivative 0, and its shadow must say so), ldexp, scalbn,
// nextafter, copysign, fmin, fmax: reverse and forward mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* m(x) = frexp(x) * (e + 3): piecewise 2^-e (e + 3). */
double mantissa(double x) {
  int e;
  double m = frexp(x, &e);
  return m * (e + 3);
}

/* The fractional part, times x: frac(x) x; derivative x + frac(x). */
double fraction(double x) {
  double ip;
  double fp = modf(x, &ip);
  return fp * x + ip * 0.25;
}

/* The integral part is written through a pointer whose shadow held the
 * derivative of what was there before (x^2): after modf it must hold 0.
 * out[0] = integral part of 3x (derivative 0), out[1] = fractional part. */
void split(double x, double *out) {
  out[0] = x * x;
  out[1] = modf(3 * x + out[0] * 0, &out[0]);
}

/* ldexp, scalbn, scalbln, nextafter, copysign, fmin, fmax, logb (the
 * exponent as a float: piecewise constant), fdim (max(x - y, 0)). */
double misc(double x, double y) {
  return ldexp(x * y, 3) + scalbn(x, -2) + nextafter(x * x, 10.0) +
         copysign(x, -y) * y + fmin(x, y) * 2 + fmax(x * y, y) * 3 +
         scalbln(x, 2L) + logb(x * y) * y + fdim(x, y) * 5;
}

static double misc_v(const double *v, void *ctx) {
  (void)ctx;
  return misc(v[0], v[1]);
}

static double split1(double x) {
  double out[2];
  split(x, out);
  return out[1];
}

int main(void) {
  const double xs[] = {0.3, 1.7, -5.2, 100.25};
  for (int i = 0; i < 4; ++i) {
    double x = xs[i];
    int e;
    frexp(x, &e);
    double dm = ldexp(1.0, -e) * (e + 3);
    check_grad("frexp rev", __enzyme_autodiff((void *)mantissa, x), dm,
               fd_diff1(mantissa, x));
    check_grad("frexp fwd", __enzyme_fwddiff((void *)mantissa, x, 1.0), dm,
               fd_diff1(mantissa, x));
    double ip, fp = modf(x, &ip);
    check_grad("modf rev", __enzyme_autodiff((void *)fraction, x), fp + x,
               fd_diff1(fraction, x));
    check_grad("modf fwd", __enzyme_fwddiff((void *)fraction, x, 1.0), fp + x,
               fd_diff1(fraction, x));
    /* The shadow of the integral part. */
    double out[2], dout[2] = {0, 0};
    dout[0] = 5.0; /* the adjoint of the integral part: must go nowhere */
    dout[1] = 1.0;
    double g = __enzyme_autodiff((void *)split, enzyme_out, x, enzyme_dup,
                                 out, dout);
    check_grad("modf out rev", g, 3.0, fd_diff1(split1, x));
    check_close("modf out rev: integral adjoint consumed", dout[0], 0, 0, 0);
    double tout[2] = {7.0, 7.0};
    __enzyme_fwddiff((void *)split, x, 1.0, enzyme_dup, out, tout);
    check_close("modf out fwd: integral tangent", tout[0], 0, 0, 0);
    check_grad("modf out fwd: fractional tangent", tout[1], 3.0,
               fd_diff1(split1, x));
  }
  const double pts[3][2] = {{0.7, 1.3}, {-0.4, 0.9}, {1.5, -0.5}};
  for (int p = 0; p < 3; ++p) {
    double x = pts[p][0], y = pts[p][1], v[2] = {x, y};
    double sgn = copysign(1.0, x) * copysign(1.0, -y);
    double ax = 8 * y + 0.25 + 2 * x + sgn * y + (x < y ? 2 : 0) +
                (x * y > y ? 3 * y : 0) + 4 + (x > y ? 5 : 0);
    double ay = 8 * x + copysign(x, -y) + (x < y ? 0 : 2) +
                (x * y > y ? 3 * x : 3) + logb(x * y) + (x > y ? -5 : 0);
    double gx = __enzyme_autodiff((void *)misc, x, enzyme_const, y);
    double gy = __enzyme_autodiff((void *)misc, enzyme_const, x, y);
    check_grad("misc rev d/dx", gx, ax, fd_partial(misc_v, v, 2, 0, 0));
    check_grad("misc rev d/dy", gy, ay, fd_partial(misc_v, v, 2, 1, 0));
    check_grad("misc fwd d/dx", __enzyme_fwddiff((void *)misc, x, 1.0, y, 0.0),
               ax, fd_partial(misc_v, v, 2, 0, 0));
    check_grad("misc fwd d/dy", __enzyme_fwddiff((void *)misc, x, 0.0, y, 1.0),
               ay, fd_partial(misc_v, v, 2, 1, 0));
  }
  return check_done();
}
