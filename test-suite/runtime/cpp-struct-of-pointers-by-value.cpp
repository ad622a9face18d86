// Small structs of pointers returned and passed by value travel in
// registers as `{ptr, ptr}` (an Eigen expression such as the Product that
// `m * m.transpose()` returns holds references to its operands). Their
// fields need shadows like any other pointer: before, the caller got a null
// shadow and the gradient program died with a segmentation fault. Also a
// struct of a double and a pointer, `{double, ptr}`, whose double carries a
// derivative beside the pointer's shadow, an address stored as an integer
// (`ptrtoint`, as Eigen's evaluators store a Transpose at -O2), and a
// struct copied with memcpy whose layout only the declared type of the
// local shows (-O0). Reverse mode against analytic values and finite
// differences, forward mode against reverse.
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// Under the sanitizers the request is served at the link, where the struct
// holding the address as an integer is copied with a memcpy whose other
// accesses are integer stores of a ptrtoint: those bytes are an address,
// and its shadow is copied along (it was not, and the gradient program read
// through a null shadow).
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 \
// RUN:   -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <Eigen/Dense>
#include <cstdint>

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// An outer product through Eigen's lazy Product expression.
static double outerTrace(double x) {
  Eigen::MatrixXd m(3, 1);
  for (int i = 0; i < 3; ++i)
    m(i, 0) = x * (i + 1);
  return (m * m.transpose()).trace();
}

struct Span {
  double *Begin;
  double *End;
};

__attribute__((noinline)) static Span makeSpan(double *Data, long N) {
  return {Data, Data + N};
}

__attribute__((noinline)) static double sumSquares(Span S) {
  double Total = 0;
  for (double *P = S.Begin; P != S.End; ++P)
    Total += *P * *P;
  return Total;
}

// {ptr, ptr} returned from one call and passed by value to another, over
// a local array.
static double spanEnergy(double *X) {
  double Local[3];
  Span S = makeSpan(Local, 3);
  long I = 0;
  for (double *P = S.Begin; P != S.End; ++P)
    *P = 2.0 * X[I++];
  return sumSquares(S);
}

struct Scaled {
  double Factor;
  double *Data;
};

__attribute__((noinline)) static Scaled scaleOf(double *X) {
  return {X[0] * X[1], X + 1};
}

// {double, ptr}: the double has a derivative, the pointer a shadow.
static double scaledSum(double *X) {
  Scaled S = scaleOf(X);
  return S.Factor * (S.Data[0] + S.Data[1]);
}

struct Holder {
  std::uintptr_t RefBits; // an address kept as an integer
  long Count;
};

__attribute__((noinline)) static void storeAddress(Holder *H, double *P) {
  H->RefBits = reinterpret_cast<std::uintptr_t>(P);
  H->Count = 2;
}

static double throughIntegerAddress(double *X) {
  Holder H;
  storeAddress(&H, X);
  Holder Copy;
  __builtin_memcpy(&Copy, &H, sizeof(Holder));
  const double *Ref = reinterpret_cast<const double *>(Copy.RefBits);
  double T = 0;
  for (long I = 0; I < Copy.Count; ++I)
    T += Ref[I] * Ref[I] * Ref[I];
  return T;
}

// Gradient of a function of an array of three against finite differences
// and analytic values, and forward tangents against the gradient.
static void checkArray(const char *Name, double (*F)(double *), double *X,
                       const double *Analytic) {
  double D[3] = {0, 0, 0};
  double XCopy[3] = {X[0], X[1], X[2]};
  __enzyme_autodiff((void *)F, enzyme_dup, XCopy, D);
  for (int I = 0; I < 3; ++I) {
    double Fd = fd_partial(
        [](const double *P, void *Fn) {
          // fd_partial passes a copy: F may write to it.
          return ((double (*)(double *))Fn)(const_cast<double *>(P));
        },
        X, 3, I, (void *)F);
    check_grad(Name, D[I], Analytic[I], Fd);
    double XT[3] = {X[0], X[1], X[2]};
    double Dir[3] = {0, 0, 0};
    Dir[I] = 1;
    double T = __enzyme_fwddiff((void *)F, enzyme_dup, XT, Dir);
    check_close(Name, T, D[I], RTOL_EXACT, ATOL_EXACT);
  }
}

int main() {
  double X = 2.0;
  double D = __enzyme_autodiff((void *)outerTrace, X);
  check_grad("outerTrace", D, 2 * X * 14, fd_diff1(outerTrace, X));
  check_close("outerTrace fwd", __enzyme_fwddiff((void *)outerTrace, X, 1.0), D,
              RTOL_EXACT, ATOL_EXACT);

  double A[3] = {0.5, -1.5, 2.0};
  double SpanD[3] = {8 * A[0], 8 * A[1], 8 * A[2]};
  checkArray("spanEnergy", spanEnergy, A, SpanD);

  double ScaledD[3] = {A[1] * (A[1] + A[2]), A[0] * (2 * A[1] + A[2]),
                       A[0] * A[1]};
  checkArray("scaledSum", scaledSum, A, ScaledD);

  double CubeD[3] = {3 * A[0] * A[0], 3 * A[1] * A[1], 0};
  checkArray("throughIntegerAddress", throughIntegerAddress, A, CubeD);
  return check_done();
}
