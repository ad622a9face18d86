// Calls through a function pointer carry derivatives: a quadrature routine
// takes the integrand as a pointer (a const argument of the request, so at
// -O0 the call stays indirect), and the parameters the integrand reads are
// active. The reverse pass dispatches on the pointer to the derivative of
// whichever function it names.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

typedef double (*integrand)(double, const double *);
double gauss(double t, const double *p) { return exp(-p[0] * t * t) * p[1]; }
double poly(double t, const double *p) { return p[0] * t * t + p[1] * t; }

__attribute__((noinline)) double integrate(integrand f, const double *p, int n) {
  double h = 1.0 / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f((i + 0.5) * h, p) * h;
  return s;
}

void objective(integrand f, const double *p, double *out) {
  *out = integrate(f, p, 40);
}

static integrand current;
static double objective_of(const double *p, void *unused) {
  (void)unused;
  double out;
  objective(current, p, &out);
  return out;
}

int main(void) {
  integrand fs[2] = {gauss, poly};
  for (int k = 0; k < 2; ++k) {
    current = fs[k];
    double p[2] = {0.7, 1.3}, dp[2] = {0, 0}, out = 0, dout = 1.0;
    __enzyme_autodiff((void *)objective, enzyme_const, fs[k], enzyme_dup, p,
                      dp, enzyme_dup, &out, &dout);
    for (int i = 0; i < 2; ++i)
      check_fd(k ? "poly" : "gauss", dp[i], fd_partial(objective_of, p, 2, i, 0));
  }
  return check_done();
}
