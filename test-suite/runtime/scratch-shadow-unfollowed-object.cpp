// Pointers to enzyme_const data kept in objects that the engine cannot
// follow at -O0: a constructor that reads the pointer through a pointer it
// loaded first, and a memcpy of the object that holds it. The object has a
// shadow (it also holds a pointer to duplicated data), so the pointer to
// the constant data is stored there with a scratch shadow: zeroed memory at
// the same offsets, as enzyme_dup with a zeroed shadow would give. Before,
// the object's shadow held a null pointer and the gradient program died
// reading derivatives through it (a segmentation fault at -O0). Reverse and
// forward mode, and a function that returns such a pointer (at -O0 it
// gets a scratch shadow to return instead of a compile-time error).
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Source {
  const double *Data;
  long Size;
};

struct View {
  const double *Data;
  long Size;
  double Scale;
  // Reads the pointer through a pointer loaded first.
  View(const Source *const *From)
      : Data((*From)->Data), Size((*From)->Size), Scale(1) {}
  double at(long I) const { return Data[I] * Scale; }
};

struct Pair {
  View Weights;
  const double *X;
};

__attribute__((noinline)) static double weightedSquares(const Pair &P) {
  double S = 0;
  for (long I = 0; I < P.Weights.Size; ++I)
    S += P.Weights.at(I) * P.X[I] * P.X[I];
  return S;
}

// sum_i c_i x_i^2, with c reached through a view copied by memcpy.
static double objective(const double *C, const double *X, long N) {
  Source S{C, N};
  const Source *PS = &S;
  View V(&PS);
  Pair Q{V, X};
  alignas(Pair) unsigned char Bytes[sizeof(Pair)];
  memcpy(Bytes, &Q, sizeof(Pair));
  return weightedSquares(*reinterpret_cast<Pair *>(Bytes));
}

// A function that returns a pointer to the constant data it was given.
__attribute__((noinline)) static const double *
pick(const double *C, const double *X, long K) {
  return K > 0 ? C : X;
}

// c_0 * x_0 + x_1 * x_1, with c chosen and returned by pick.
static double chosen(const double *C, const double *X) {
  const double *P = pick(C, X, 1);
  return P[0] * X[0] + X[1] * X[1];
}

int main() {
  enum { N = 3 };
  double C[N] = {1.5, -2, 3}, X[N] = {0.5, -1, 2};
  double DX[N] = {0};
  __enzyme_autodiff((void *)objective, enzyme_const, C, enzyme_dup, X, DX,
                    enzyme_const, (long)N);
  for (int I = 0; I < N; ++I)
    check_close("d objective / dx", DX[I], 2 * C[I] * X[I], RTOL_EXACT,
                ATOL_EXACT);
  for (int I = 0; I < N; ++I) {
    double T[N] = {0};
    T[I] = 1;
    double D = __enzyme_fwddiff((void *)objective, enzyme_const, C, enzyme_dup,
                                X, T, enzyme_const, (long)N);
    check_close("tangent of objective", D, 2 * C[I] * X[I], RTOL_EXACT,
                ATOL_EXACT);
  }

  double DY[2] = {0};
  __enzyme_autodiff((void *)chosen, enzyme_const, C, enzyme_dup, X, DY);
  check_close("d chosen / dx0", DY[0], C[0], RTOL_EXACT, ATOL_EXACT);
  check_close("d chosen / dx1", DY[1], 2 * X[1], RTOL_EXACT, ATOL_EXACT);
  double T1[2] = {0, 1};
  double D1 = __enzyme_fwddiff((void *)chosen, enzyme_const, C, enzyme_dup, X,
                               T1);
  check_close("tangent of chosen", D1, 2 * X[1], RTOL_EXACT, ATOL_EXACT);

  return check_done();
}
