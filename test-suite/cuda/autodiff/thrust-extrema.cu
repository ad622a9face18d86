// Thrust's max_element, min_element and minmax_element in differentiated
// host code, over one tile (300 elements) and over many blocks (5000, the
// path with a drain kernel and per-block partial results). Thrust carves
// its temporary storage into pieces with CUB's AliasTemporaries, which
// rounds the block's address up to 256 bytes as an integer; the pointers
// into it (the partial results, the grid queue the drain kernel resets)
// were taken for addresses the engine cannot follow, and the link failed
// ("a call that moves derivatives is passed a pointer to memory at an
// address computed from an integer"). They are arithmetic on the block's
// address, whose shadow the engine computes the same way.
// At -O0 the (value, index) tuple that Thrust copies back to the host with
// cudaMemcpyAsync was untyped (the derivative stopped: "nothing in the
// program says ..."): the copy's pointer reaches it through variables and
// raw_pointer_cast, and only the `getelementptr` of the tuple type on
// another load of the same variable says what it points to.
// The gradient of the loss goes to the argmax and the argmin only, with
// the analytic values there; the tangent is its dot product with the
// direction; a float max_element as well.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/device_vector.h>
#include <thrust/extrema.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_float(void *, ...) asm("__enzyme_autodiff");
int enzyme_dup, enzyme_const;

constexpr int N = 5000;

// max^2 + 3 min + 0.5 max + 0.25 min (the last two through minmax_element).
double loss(const double *X, int Count) {
  thrust::device_vector<double> D(X, X + Count);
  double Max = *thrust::max_element(D.begin(), D.end());
  double Min = *thrust::min_element(D.begin(), D.end());
  auto Both = thrust::minmax_element(D.begin(), D.end());
  return Max * Max + 3 * Min + 0.5 * *Both.second + 0.25 * *Both.first;
}

float lossFloat(const float *X, int Count) {
  thrust::device_vector<float> D(X, X + Count);
  float Max = *thrust::max_element(D.begin(), D.end());
  return Max * Max * Max;
}

static void checkExtrema(const char *Name, const double *X, int Count) {
  static double G[N], T[N];
  int ArgMax = 0, ArgMin = 0;
  for (int I = 0; I < Count; ++I) {
    G[I] = 0;
    ArgMax = X[I] > X[ArgMax] ? I : ArgMax;
    ArgMin = X[I] < X[ArgMin] ? I : ArgMin;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, Count);
  bool Ok = true;
  for (int I = 0; I < Count; ++I) {
    double Want = (I == ArgMax ? 2 * X[I] + 0.5 : 0) +
                  (I == ArgMin ? 3 + 0.25 : 0);
    if (std::fabs(G[I] - Want) > 1e-12 * (1 + std::fabs(Want))) {
      std::printf("%s: G[%d] = %g, expected %g\n", Name, I, G[I], Want);
      Ok = false;
    }
  }
  char Label[96];
  std::snprintf(Label, sizeof Label, "%s gradient", Name);
  check(Label, Ok);
  double Dot = 0;
  for (int I = 0; I < Count; ++I) {
    T[I] = std::cos(0.1 * I);
    Dot += G[I] * T[I];
  }
  double Tangent =
      __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, Count);
  std::snprintf(Label, sizeof Label, "%s tangent", Name);
  checkClose(Label, Tangent, Dot, 1e-12);
}

int main() {
  static double X[N];
  for (int I = 0; I < N; ++I)
    X[I] = std::sin(0.37 * I) + 0.0001 * I;
  checkExtrema("one tile", X, 300);
  checkExtrema("many blocks", X, N);

  static float F[N], GF[N];
  int ArgMax = 0;
  for (int I = 0; I < N; ++I) {
    F[I] = float(std::cos(0.21 * I) + 0.0002 * I);
    ArgMax = F[I] > F[ArgMax] ? I : ArgMax;
  }
  __enzyme_autodiff_float((void *)lossFloat, enzyme_dup, F, GF, enzyme_const,
                          N);
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= GF[I] == (I == ArgMax ? 3 * F[I] * F[I] : 0.0f);
  check("float gradient", Ok);
  return finish();
}
