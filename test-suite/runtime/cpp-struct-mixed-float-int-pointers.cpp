// Structs that mix a float and an int (x86-64 packs them into one i64),
// passed to and returned from functions called through pointers: a
// function pointer that the program changes between calls, and a virtual
// method. The engine makes each such call a choice among the functions the
// pointer may name, each called through its copy that takes and returns the
// packed eightbytes as lanes (PackedFloatLanes.h), so the derivative goes
// with the float. In reverse and forward mode, against analytic derivatives
// and central differences, at -O0 and -O2. Before, each was an error
// ("... the function it calls through a pointer ..."). Possible targets
// marked inactive are called as they are, the lanes packed again (also an
// error before); those with a custom derivative are errors
// (diagnostics/struct-float-int-by-value.cpp). With -fsanitize=undefined
// at -O0 the struct stays in memory (the checks take its fields'
// addresses) and was read back there: the result's derivative was lost
// with no error (0). With -fsanitize=address, which pads the inactive
// registrations, the link (where these requests are served) refused them.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=undefined %s -o %t.ubsan && %t.ubsan
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address %s -o %t.asan && %t.asan
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
struct Mixed { // an i64 and a double
  float a;
  int n;
  double d;
};

__attribute__((noinline)) double weigh(Sample s) {
  return double(s.value) * s.value * s.count;
}
__attribute__((noinline)) double weighCube(Sample s) {
  return double(s.value) * s.value * s.value * s.count;
}
__attribute__((noinline)) Sample square(double x) {
  return {float(x * x), 1};
}
__attribute__((noinline)) Sample scale(double x) { return {float(3 * x), 2}; }
__attribute__((noinline)) Mixed mixed(double x) { return {float(x), 2, x * x}; }
__attribute__((noinline)) Mixed mixedHalf(double x) {
  return {float(x / 2), 4, x};
}

// Marked inactive (their results do not depend on the float anyway).
__attribute__((noinline)) double counted(Sample s) { return s.count; }
void *__enzyme_inactivefn_counted = (void *)counted;
__attribute__((noinline)) Sample unit(double) { return {1.5f, 2}; }
void *__enzyme_inactivefn_unit = (void *)unit;

double (*volatile Weigh)(Sample) = weigh;
Sample (*volatile Make)(double) = square;
Mixed (*volatile MakeMixed)(double) = mixed;

struct Shape {
  virtual double area(Sample s) const = 0;
  virtual ~Shape() = default;
};
struct Square : Shape {
  double area(Sample s) const override {
    return double(s.value) * s.value * s.count;
  }
};
struct Disc : Shape {
  double area(Sample s) const override {
    return 3.0 * s.value * s.value * s.count;
  }
};
Square TheSquare;
Disc TheDisc;
Shape *volatile Current = &TheSquare;

double passed(double x) { return Weigh(Sample{float(x), 3}); }
double returned(double x) { // the lanes of the struct the pointer returns
  Sample s = Make(x);
  return s.value * 3.0 * s.count;
}
double returnedPair(double x) {
  Mixed m = MakeMixed(x);
  return double(m.a) * m.d * m.n;
}
double virtualCall(double x) { return Current->area(Sample{float(x), 2}); }

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
  CHECK_CASE("argument through a pointer", passed, 6 * X);
  CHECK_CASE("result through a pointer", returned, 6 * X);
  CHECK_CASE("{ i64, double } through a pointer", returnedPair, 6 * X * X);
  CHECK_CASE("argument of a virtual method", virtualCall, 4 * X);
  // The same calls, the pointers now naming the other functions.
  Weigh = weighCube;
  Make = scale;
  MakeMixed = mixedHalf;
  Current = &TheDisc;
  CHECK_CASE("argument through the changed pointer", passed, 9 * X * X);
  CHECK_CASE("result through the changed pointer", returned, 18.0);
  CHECK_CASE("{ i64, double } through the changed pointer", returnedPair,
             4 * X);
  CHECK_CASE("argument of the other override", virtualCall, 12 * X);
  // The pointers now naming functions marked inactive.
  Weigh = counted;
  Make = unit;
  CHECK_CASE("argument through a pointer to an inactive function", passed,
             0.0);
  CHECK_CASE("result through a pointer to an inactive function", returned,
             0.0);
  return check_done();
}
