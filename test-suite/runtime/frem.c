// fmod without errno is LLVM's frem instruction: its adjoint is 1 for the
// dividend and -trunc(a / b) for the divisor, checked against the analytic
// values and finite differences (away from the jumps).
// RUN: %clang_enzyme -fenzyme -fno-math-errno -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -fno-math-errno -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct {
  double da, db;
} Grad2;
Grad2 __enzyme_autodiff(void *, ...);

double f(double a, double b) { return fmod(a * a, b) * b; }
static double A, B;
static double f_a(double a) { return f(a, B); }
static double f_b(double b) { return f(A, b); }

int main(void) {
  double points[][2] = {{1.7, 0.9}, {-2.3, 0.7}, {3.1, -1.3}};
  for (int i = 0; i < 3; ++i) {
    double a = A = points[i][0], b = B = points[i][1];
    Grad2 g = __enzyme_autodiff((void *)f, a, b);
    double r = fmod(a * a, b);
    double da = 2 * a * b, db = r - b * trunc(a * a / b);
    check_grad_at("d/da", a, g.da, da, fd_diff1(f_a, a));
    check_grad_at("d/db", b, g.db, db, fd_diff1(f_b, b));
  }
  return check_done();
}
