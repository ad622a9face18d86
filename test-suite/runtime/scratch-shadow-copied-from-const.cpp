// An enzyme_const struct holding a pointer to constant data, copied into a
// local that also holds an active value: with memcpy of the whole struct
// (kept as a memcpy at every level), and with a memcpy of the pointer
// field alone (an i64 load and store at -O1 and up). The local has a
// shadow, and the helper it is passed to reads derivatives through the
// copied pointer, so the copied pointer gets a scratch shadow there. Before,
// the local's shadow held a null pointer (nothing was copied into it from
// memory without a shadow) and the gradient program died at every level.
// Reverse mode against the analytic gradient, forward mode against reverse.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O1 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Weighted {
  const double *Weights;
  double Scale;
  long Size;
};

__attribute__((noinline)) static double weightedSum(const Weighted *W,
                                                    const double *X) {
  double R = 0;
  for (long I = 0; I < W->Size; ++I)
    R += W->Weights[I] * X[I] * W->Scale;
  return R;
}

// x0 * (c . x), the whole struct copied.
static double wholeCopy(const Weighted *Given, const double *X) {
  Weighted Local;
  memcpy(&Local, Given, sizeof Local);
  Local.Scale = X[0];
  return weightedSum(&Local, X);
}

// The same, the pointer field copied on its own.
static double fieldCopy(const Weighted *Given, const double *X) {
  Weighted Local;
  memcpy(&Local.Weights, &Given->Weights, sizeof(Local.Weights));
  Local.Size = Given->Size;
  Local.Scale = X[0];
  return weightedSum(&Local, X);
}

static void check(double (*F)(const Weighted *, const double *),
                  const char *Name) {
  enum { N = 3 };
  double C[N] = {2, 3, -1}, X[N] = {0.5, 1.5, 2}, DX[N] = {0};
  Weighted Given{C, 1.0, N};
  __enzyme_autodiff((void *)F, enzyme_const, &Given, enzyme_dup, X, DX);
  double Dot = 0;
  for (int I = 0; I < N; ++I)
    Dot += C[I] * X[I];
  for (int I = 0; I < N; ++I) {
    double Expected = C[I] * X[0] + (I == 0 ? Dot : 0);
    check_close(Name, DX[I], Expected, RTOL_EXACT, ATOL_EXACT);
    double T[N] = {0};
    T[I] = 1;
    double D = __enzyme_fwddiff((void *)F, enzyme_const, &Given, enzyme_dup,
                                X, T);
    check_close(Name, D, Expected, RTOL_EXACT, ATOL_EXACT);
  }
}

int main() {
  check(wholeCopy, "whole struct copied");
  check(fieldCopy, "pointer field copied");
  return check_done();
}
