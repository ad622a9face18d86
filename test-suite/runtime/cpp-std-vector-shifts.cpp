// std::vector erasing and inserting in the middle, which shifts the
// elements after the place by a memmove of overlapping ranges, and growing,
// which moves the elements into a new block: of doubles, of pointers to
// doubles, and of structs of a pointer beside a double.
// Two bugs this checks. The reverse of a memmove of doubles moved the
// adjoints element by element from the first, so a shift down by one
// (erase) moved each adjoint again as the next element's: the whole
// gradient piled up on the last element, without a word. And a copy of
// structs of a pointer and a double whose length is known at run time
// only (the vector's growth and shifts) was an error ("cannot
// differentiate a copy of memory holding both pointers and floating-point
// values whose size is not a compile-time constant"); it now copies the
// pointers' shadows and moves the doubles' adjoints record by record.
// (At -O2, moving a single struct, as erasing the last but one or
// inserting into a full vector does, still stops at run time: the
// optimised code moves it as 16 bytes that nothing types; and under
// AddressSanitizer a vector of pointers' out-of-line erase does the same;
// docs/reverse-mode.md.)
// Reverse and forward mode against a dual-number evaluation of the same
// code and central differences.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// Under scripts/test --sanitize, -O2 keeps the pointer vector's erase out of
// line, where the copy is untyped (the run-time stop named above).
// RUN: %if !sanitize %{ %clangxx_enzyme -fenzyme -O2 %s -o %t && %t %}
#include "Inputs/check.h"

#include <type_traits>
#include <vector>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

/* A value and its derivative, for the expected gradient. */
struct Dual {
  double v, d;
};
static Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
static Dual operator*(Dual a, Dual b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d};
}
template <typename T> static T constant(double c) {
  if constexpr (std::is_same_v<T, Dual>)
    return Dual{c, 0};
  else
    return c;
}

template <typename T> struct Term {
  const T *P;
  T W;
};

template <typename T> T shifts(const T *X, int N) {
  std::vector<T> V(X, X + N);
  V.erase(V.begin());                       // down by one
  V.insert(V.begin() + 2, X[0] * X[1]);     // up by one
  V.erase(V.begin() + 3, V.begin() + 5);    // down by two
  std::vector<const T *> P;
  for (int I = 0; I < N; ++I)
    P.push_back(X + I);                     // growth
  P.erase(P.begin() + 1);
  P.insert(P.begin(), X + N - 1);
  std::vector<Term<T>> R;
  for (int I = 0; I < N; ++I)
    R.push_back({X + I, X[I] * constant<T>(I + 1)});
  R.erase(R.begin());
  T S = constant<T>(0);
  for (size_t I = 0; I < V.size(); ++I)
    S = S + constant<T>(I + 1) * V[I] * V[I];
  for (size_t I = 0; I < P.size(); ++I)
    S = S + constant<T>(I + 2) * *P[I] * *P[I];
  for (size_t I = 0; I < R.size(); ++I)
    S = S + constant<T>(0.5 * I + 1) * R[I].W * *R[I].P;
  return S;
}

static double f(const double *X, void *N) {
  return shifts(X, *static_cast<int *>(N));
}

int main() {
  char name[64];
  for (int n : {6, 11}) {
    double x[11], g[11] = {0}, t[11];
    for (int i = 0; i < n; ++i)
      x[i] = 0.3 * i - 1.1, t[i] = 0.5 - 0.1 * i;
    __enzyme_autodiff<void>(f, enzyme_dup, x, g, enzyme_const, &n);
    double dot = 0;
    for (int i = 0; i < n; ++i) {
      Dual xd[11];
      for (int k = 0; k < n; ++k)
        xd[k] = Dual{x[k], k == i ? 1.0 : 0.0};
      double expected = shifts(xd, n).d;
      snprintf(name, sizeof name, "vector shifts rev, n %d, x[%d]", n, i);
      check_grad(name, g[i], expected, fd_partial(f, x, n, i, &n));
      dot += expected * t[i];
    }
    snprintf(name, sizeof name, "vector shifts fwd, n %d", n);
    check_close(name,
                __enzyme_fwddiff<double>(f, enzyme_dup, x, t, enzyme_const, &n),
                dot, RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
