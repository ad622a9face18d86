// A float's bits stored as an integer of its width: `memcpy(&bits, &x, 4)`
// then `*(int32_t *)p = bits` (type punning the way C allows it). At -O0,
// once the engine's preparation promoted the local copy, the store wrote
// an integer made from the float with a bitcast, and the derivative was
// lost (the gradient was 0, no diagnostic). The store now writes the float
// itself. Reverse mode against analytic values and finite differences,
// forward mode against reverse, float and double.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static void storeBits32(float x, int32_t *p) {
  int32_t Bits;
  memcpy(&Bits, &x, sizeof Bits);
  *p = Bits;
}
__attribute__((noinline)) static void storeBits64(double x, int64_t *p) {
  int64_t Bits;
  memcpy(&Bits, &x, sizeof Bits);
  *p = Bits;
}

// f(x) = 3 x^2 (through a float) + sin(x) x (through a double)
static double f(double x) {
  float Narrow;
  double Wide;
  storeBits32((float)(3 * x * x), (int32_t *)&Narrow);
  storeBits64(sin(x) * x, (int64_t *)&Wide);
  return Narrow + Wide;
}
static double wide(double x) { return sin(x) * x; }

int main(void) {
  double X = 0.8;
  double Analytic = 6 * X + cos(X) * X + sin(X);
  double Got = __enzyme_autodiff((void *)f, X);
  // The float rounds 3 x^2 to 7 digits, which a finite difference of
  // step 1e-6 would magnify: the double part is checked against one.
  check_close("df/dx", Got, Analytic, 1e-6, 1e-6);
  check_fd("d(wide)/dx", Got - 6 * X, fd_diff1(wide, X));
  double Tangent = __enzyme_fwddiff((void *)f, X, 1.0);
  check_close("tangent", Tangent, Got, 1e-6, 1e-6);
  return check_done();
}
