// Regression test: a function that returns the bits of a float with a
// derivative as an integer (a struct of one integer that holds a float's
// bits, as CUDA's `__half` is, returned by value) and another that takes
// them back. The integer carries no derivative, so the gradient and the
// tangent were silently 0 at -O0, -O1 and -O2 (the right value is 6).
// Expected: an error that names the function and what to do; from the
// callee's copy where it is differentiated (-O0), and at the call that
// hands the bits on where the optimised callee, without memory effects, is
// not (-O2).
//
// RUN: not %clang_enzyme -fenzyme -O0 -g %s -o %t 2>&1 | FileCheck %s --check-prefix=CALLEE %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O0 -g -DFORWARD %s -o %t 2>&1 | FileCheck %s --check-prefix=CALLEE %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g %s -o %t 2>&1 | FileCheck %s --check-prefix=CALLER %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g -DFORWARD %s -o %t 2>&1 | FileCheck %s --check-prefix=CALLER %{no-crash}
// CALLEE: error: cannot differentiate 'scaled': cannot differentiate 'encode': it returns the bits of a floating-point value with a derivative as an integer
// CALLEE-SAME: return the float itself, or give the function a custom derivative
// CALLER: error: cannot differentiate 'scaled': cannot differentiate the call of 'decode': its argument 1 is an integer that carries the bits of a float with a derivative (the bits of a float that 'encode' returns as an integer)
#include <string.h>

typedef struct {
  unsigned bits;
} Packed;

__attribute__((noinline)) Packed encode(float f) {
  Packed p;
  memcpy(&p.bits, &f, sizeof f);
  return p;
}
__attribute__((noinline)) float decode(Packed p) {
  float f;
  memcpy(&f, &p.bits, sizeof f);
  return f;
}
float scaled(float x) { return decode(encode(x * 2)) * 3; }

extern float __enzyme_autodiff(void *, ...);
extern float __enzyme_fwddiff(void *, ...);
int main(void) {
#ifdef FORWARD
  return __enzyme_fwddiff((void *)scaled, 1.5f, 1.0f) != 6;
#else
  return __enzyme_autodiff((void *)scaled, 1.5f) != 6;
#endif
}
