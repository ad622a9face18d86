// fmin and fmax against a constant (ReLU-like fmax(x, 0)).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f_min(double x, double c) { return fmin(x, c); }
double f_max(double x, double c) { return fmax(x, c); }
static double relu(double x) { return fmax(x, 0.0) * 2.0; }

int main(void) {
  const double xs[2] = {-0.75, 1.25};
  double c = 0.5;
  for (int i = 0; i < 2; i++) {
    double x = xs[i];
    double g = __enzyme_autodiff((void *)f_min, enzyme_out, x, enzyme_const, c);
    check_grad_at("d/dx fmin(x, const)", x, g, x < c ? 1.0 : 0.0, fd_diff2(f_min, x, c, 0));
    g = __enzyme_autodiff((void *)f_max, enzyme_out, x, enzyme_const, c);
    check_grad_at("d/dx fmax(x, const)", x, g, x > c ? 1.0 : 0.0, fd_diff2(f_max, x, c, 0));
    g = __enzyme_autodiff((void *)relu, x);
    check_grad_at("d/dx 2*fmax(x, 0)", x, g, x > 0 ? 2.0 : 0.0, fd_diff1(relu, x));
  }
  return check_done();
}
