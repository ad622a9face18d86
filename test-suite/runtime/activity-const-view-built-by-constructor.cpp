// C++ objects that view enzyme_const memory, built by their constructors.
// At -O0 a constructor is a call that writes the local, so the engine could
// not see what the object holds: it gave the object a shadow, the
// constructor stored the null shadow of the enzyme_const pointer into it,
// and the gradient program died adding into it (segmentation fault, reverse
// and forward mode). What a function stores through a parameter is now
// summarised (Analysis/ParameterWrites.h): a View over enzyme_const data
// holds no derivatives and goes to its methods without a shadow, and a
// Model that mixes such a pointer with duplicated ones tells its callees
// which field has no shadow. -O2 inlines the constructors and was right.
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
  double at(long I) const { return Data[I]; }
};

// sum_i x_i^2 c_i, with c enzyme_const: d/dx_i = 2 x_i c_i.
double weightedSquares(const double *X, const double *C) {
  View Weights(C, 3), Values(X, 3);
  double S = 0;
  for (long I = 0; I < Values.Size; ++I)
    S += Values.at(I) * Values.at(I) * Weights.at(I);
  return S;
}

struct Model {
  const double *Samples; // x then y: fixed data (enzyme_const)
  double *Params;        // slope and intercept (enzyme_dup)
  long Count;
  Model(const double *Samples, double *Params, long Count)
      : Samples(Samples), Params(Params), Count(Count) {}
  double residual(long I) const {
    return Params[0] * Samples[I] + Params[1] - Samples[Count + I];
  }
};

// Least squares of a line through (x_i, y_i).
double lineLoss(double *P, const double *Samples) {
  Model M(Samples, P, 3);
  double S = 0;
  for (long I = 0; I < M.Count; ++I) {
    double R = M.residual(I);
    S += R * R;
  }
  return S;
}

int main() {
  double X[3] = {0.5, -1.25, 2.0}, C[3] = {3.0, 0.5, -2.0};
  double D[3] = {0, 0, 0};
  __enzyme_autodiff((void *)weightedSquares, enzyme_dup, X, D, enzyme_const,
                    C);
  for (int I = 0; I < 3; ++I) {
    check_close("view: d/dx", D[I], 2 * X[I] * C[I], 1e-12, 1e-12);
    double Dir[3] = {0, 0, 0};
    Dir[I] = 1;
    double T = __enzyme_fwddiff((void *)weightedSquares, enzyme_dup, X, Dir,
                                enzyme_const, C);
    check_close("view: tangent", T, 2 * X[I] * C[I], 1e-12, 1e-12);
  }

  double Samples[6] = {1, 2, 3, 2, 3, 5}, P[2] = {0.5, 0.25}, G[2] = {0, 0};
  __enzyme_autodiff((void *)lineLoss, enzyme_dup, P, G, enzyme_const, Samples);
  double GA = 0, GB = 0;
  for (int I = 0; I < 3; ++I) {
    double R = P[0] * Samples[I] + P[1] - Samples[3 + I];
    GA += 2 * R * Samples[I];
    GB += 2 * R;
  }
  check_close("model: d/dslope", G[0], GA, 1e-12, 1e-12);
  check_close("model: d/dintercept", G[1], GB, 1e-12, 1e-12);
  double Dir[2] = {0, 1};
  double T = __enzyme_fwddiff((void *)lineLoss, enzyme_dup, P, Dir,
                              enzyme_const, Samples);
  check_close("model: tangent", T, GB, 1e-12, 1e-12);
  return check_done();
}
