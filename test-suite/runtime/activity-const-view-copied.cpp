// C++ objects viewing enzyme_const data, copied by copy constructors that
// are not inlined (-O0): the copy's fields are what the constructor reads
// from the source object. What a function stores through a parameter is
// summarised also when it is a pointer read from another parameter's
// object, and the copy's field then has a shadow exactly when the source
// field has. Before, the copy got a shadow holding the null shadow of the
// enzyme_const data and the gradient program died reading derivatives
// through it at -O0. Views over duplicated data copy the same way and keep
// their derivatives.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct View {
  const double *Data;
  long Size;
  View(const double *Data, long Size) : Data(Data), Size(Size) {}
  View(const View &Other) : Data(Other.Data), Size(Other.Size) {}
  double at(long I) const { return Data[I]; }
};

// A view handed through a chain of copies, as by-value parameters are.
static double dot(View A, View B) {
  double S = 0;
  for (long I = 0; I < A.Size; ++I)
    S += A.at(I) * B.at(I);
  return S;
}

// sum_i x_i^2 c_i, with c enzyme_const: d/dx_i = 2 x_i c_i.
double weightedSquares(const double *X, const double *C) {
  View Weights(C, 3), Values(X, 3);
  View WeightsCopy(Weights), ValuesCopy(Values);
  View Again(WeightsCopy);
  double S = 0;
  for (long I = 0; I < ValuesCopy.Size; ++I)
    S += ValuesCopy.at(I) * Values.at(I) * Again.at(I);
  return S + 0 * dot(WeightsCopy, Weights);
}

int main() {
  double X[3] = {0.5, -1.25, 2.0};
  double C[3] = {3.0, 0.25, -1.5};
  double DX[3] = {0, 0, 0};
  __enzyme_autodiff((void *)weightedSquares, enzyme_dup, X, DX, enzyme_const,
                    C);
  for (int I = 0; I < 3; ++I)
    check_close("reverse", DX[I], 2 * X[I] * C[I], 1e-12, 1e-12);
  double V[3] = {0, 1, 0};
  double T = __enzyme_fwddiff((void *)weightedSquares, enzyme_dup, X, V,
                              enzyme_const, C);
  check_close("forward", T, 2 * X[1] * C[1], 1e-12, 1e-12);
  return check_done();
}
