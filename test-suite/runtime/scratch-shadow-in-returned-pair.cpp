// A pair of pointers returned in registers ({ptr, ptr}), one to enzyme_const
// data and one to duplicated data, built by a function that is not
// inlined: the pointer to the constant data is put into the aggregate
// with a scratch shadow, so the caller that reads derivatives through it
// finds one (before: the aggregate's shadow held a null pointer there).
// Reverse and forward mode.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Operands {
  const double *Weights;
  const double *Values;
};

__attribute__((noinline)) static Operands pair(const double *W,
                                               const double *V) {
  return Operands{W, V};
}

// A reader that takes the pair by value and reads through both pointers.
__attribute__((noinline)) static double weighted(Operands O, long N) {
  double S = 0;
  for (long I = 0; I < N; ++I)
    S += O.Weights[I] * O.Values[I] * O.Values[I];
  return S;
}

static double objective(const double *W, const double *V, long N) {
  return weighted(pair(W, V), N);
}

int main() {
  enum { N = 4 };
  double W[N] = {1, -2, 0.5, 3}, V[N] = {0.5, 1.5, -1, 2}, DV[N] = {0};
  __enzyme_autodiff((void *)objective, enzyme_const, W, enzyme_dup, V, DV,
                    enzyme_const, (long)N);
  for (int I = 0; I < N; ++I) {
    check_close("d/dv", DV[I], 2 * W[I] * V[I], RTOL_EXACT, ATOL_EXACT);
    double T[N] = {0};
    T[I] = 1;
    double D = __enzyme_fwddiff((void *)objective, enzyme_const, W, enzyme_dup,
                                V, T, enzyme_const, (long)N);
    check_close("tangent", D, 2 * W[I] * V[I], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
