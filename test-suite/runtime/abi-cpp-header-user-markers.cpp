// C++ files often declare the markers themselves (`int enzyme_dup;`, as
// Enzyme's examples do) and include the headers as well, in either order.
// That used to be a conflict with the headers' extern "C" declarations.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

extern int enzyme_dup;
int enzyme_const;
#include <enzyme/enzyme>
#include <enzyme/enzyme.h>

double f(double x, double c) { return x * x * c; }

int main() {
  auto r = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{3.0},
                                             enzyme::Const{2.0});
  check_close("d/dx", enzyme::get<0>(enzyme::get<0>(r)), 12.0, RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
