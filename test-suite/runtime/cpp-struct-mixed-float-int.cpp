// Structs that mix floats and integers, passed and returned by value: on
// x86-64 a float shares an integer register with an int ({float, int} is
// one i64; {float, int, double} comes back as { i64, double }). The engine
// calls a copy of the callee that takes and returns such eightbytes as a
// float and an int, so the derivative goes with the float: parameters and
// results, either lane, with a double or a second eightbyte beside them,
// structs loaded from memory and results stored to memory, recursion. In
// reverse and forward mode, against analytic derivatives and central
// differences, at -O0 and -O2. Before, the float's derivative was silently
// lost (or an error, for the cases that the check saw).
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Sample { // one i64, the float in its low lane
  float value;
  int count;
};
struct Reversed { // one i64, the float in its high lane
  int count;
  float value;
};
struct Tagged { // one i64: a char, padding, the float
  char tag;
  float value;
};
struct Wide { // an i64 and a float
  float a;
  int n;
  float b;
};
struct Mixed { // an i64 and a double
  float a;
  int n;
  double d;
};
struct Twice { // two i64s
  float a;
  int n;
  float b;
  int m;
};

template <class S> __attribute__((noinline)) double weigh(S s) {
  return double(s.value) * s.value * s.count;
}
__attribute__((noinline)) double weighTagged(Tagged t) {
  return t.tag == 'x' ? double(t.value) * t.value * 2 : 0;
}
__attribute__((noinline)) double spread(Wide w) {
  return double(w.a) * w.n + w.b;
}
__attribute__((noinline)) Sample square(double x) {
  return {float(x * x), 1};
}
__attribute__((noinline)) Mixed mixed(double x) { return {float(x), 2, x * x}; }
__attribute__((noinline)) Twice twice(double x) {
  return {float(x), 1, float(2 * x), 2};
}
__attribute__((noinline)) void fill(Sample *p, double x) {
  p[1] = square(1.5 * x);
}
__attribute__((noinline)) double recurse(Sample s, int depth) {
  return depth ? recurse({s.value * 1.5f, s.count}, depth - 1)
               : double(s.value) * s.count;
}

double param(double x) { return weigh(Sample{float(x), 3}); }      // 3x^2
double high(double x) { return weigh(Reversed{3, float(x)}); }     // 3x^2
double tagged(double x) { return weighTagged(Tagged{'x', float(x)}); } // 2x^2
double wide(double x) { return spread(Wide{float(x), 2, float(x * x)}); }
double result(double x) { return square(x).value * 3.0; } // 3x^2
double resultPair(double x) {                              // 2x^3
  Mixed m = mixed(x);
  return double(m.a) * m.d * m.n;
}
double resultTwo(double x) { // 5x
  Twice t = twice(x);
  return double(t.a) * t.n + double(t.b) * t.m;
}
double stored(double x) { // 3 (1.5x)^2
  Sample local[2];
  fill(local, x);
  return local[1].value * 3.0;
}
double loaded(double x) { // 3x^4, the struct read from an array
  Sample arr[2] = {{float(x), 2}, {float(x * x), 3}};
  volatile int i = 1;
  return weigh(arr[i]);
}
double recursive(double x) { return recurse(Sample{float(x), 2}, 3); }

// The gradient at X against DF (an expression in X) and a central
// difference, and the tangent against the gradient.
#define CHECK_CASE(NAME, F, DF)                                                \
  for (double X : Points) {                                                    \
    double Got = __enzyme_autodiff((void *)F, X);                              \
    check_close(NAME, Got, DF, 1e-5, 1e-5);                                    \
    double H = 1e-3;                                                           \
    check_close(NAME, Got, (F(X + H) - F(X - H)) / (2 * H), 1e-3, 1e-3);       \
    check_close(NAME, __enzyme_fwddiff((void *)F, X, 1.0), Got, 1e-12,         \
                1e-12);                                                        \
  }

int main() {
  const double Points[] = {0.75, -1.25};
  CHECK_CASE("float in the low lane", param, 6 * X);
  CHECK_CASE("float in the high lane", high, 6 * X);
  CHECK_CASE("char and float", tagged, 4 * X);
  CHECK_CASE("i64 and float", wide, 2 + 2 * X);
  CHECK_CASE("returned i64", result, 6 * X);
  CHECK_CASE("returned { i64, double }", resultPair, 6 * X * X);
  CHECK_CASE("returned { i64, i64 }", resultTwo, 5.0);
  CHECK_CASE("result stored to memory", stored, 3 * 2 * 1.5 * 1.5 * X);
  CHECK_CASE("struct loaded from memory", loaded, 12 * X * X * X);
  CHECK_CASE("recursion", recursive, 1.5 * 1.5 * 1.5 * 2);
  return check_done();
}
