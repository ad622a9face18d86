// enzyme_primal_return: __enzyme_fwddiff returns a struct {primal, tangent}
// (declared by the user as a two-field struct); float pairs come back in a
// vector register on x86-64 and long double pairs through memory.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_primal_return;
typedef struct { double value, tangent; } dual;
typedef struct { float value, tangent; } dualf;
typedef struct { long double value, tangent; } duall;
dual __enzyme_fwddiff(void *, ...);
dualf fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");
duall fwddiff_l(void *, ...) __asm__("__enzyme_fwddiff");

static double f(double x) { return x * exp(x); }
static float g(float x) { return x * x * x; }
static long double h(long double x) { return x * x; }

int main(void) {
  double x = 0.8;
  dual d = __enzyme_fwddiff((void *)f, enzyme_primal_return, x, 1.0);
  check_close("primal", d.value, x * exp(x), 1e-15, 0);
  check_close("tangent", d.tangent, (1 + x) * exp(x), 1e-15, 0);
  // The marker may come anywhere in the argument list.
  dual e = __enzyme_fwddiff((void *)f, x, 2.0, enzyme_primal_return);
  check_close("tangent, marker last", e.tangent, 2 * (1 + x) * exp(x), 1e-15, 0);

  dualf df = fwddiff_f((void *)g, enzyme_primal_return, 1.5f, 1.0f);
  check_close("float primal", df.value, 3.375, 0, 0);
  check_close("float tangent", df.tangent, 6.75, 0, 0);
  duall dl = fwddiff_l((void *)h, enzyme_primal_return, (long double)3, (long double)1);
  check_close("long double primal", (double)dl.value, 9, 0, 0);
  check_close("long double tangent", (double)dl.tangent, 6, 0, 0);
  return check_done();
}
