// A capture-less lambda converted to a function pointer is the function
// being differentiated.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_out, enzyme_const;

int main() {
  auto f = [](double x, double y) { return x * y * y + exp(x); };
  double (*fp)(double, double) = f;
  double x = 0.4, y = -1.7;
  check_grad("d/dx via unary +", __enzyme_autodiff<double>(+f, enzyme_out, x, enzyme_const, y),
             y * y + exp(x), fd_diff2(fp, x, y, 0));
  check_grad("d/dy via pointer", __enzyme_autodiff<double>(fp, enzyme_const, x, enzyme_out, y),
             2 * x * y, fd_diff2(fp, x, y, 1));
  return check_done();
}
