// std::cin >> d into doubles (and a float and a long double) inside the
// differentiated function: the values read are constants, so what they
// overwrite loses its derivative, while an extraction that cannot run (the
// stream is exhausted, so its sentry fails) leaves the variable and its
// derivative alone, as libstdc++ does. Reverse and forward mode; stdin holds
// eight values (three per call), so the last calls find it at its end.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t < %S/Inputs/istream-doubles.txt
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t < %S/Inputs/istream-doubles.txt
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t && %t < %S/Inputs/istream-doubles.txt
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t < %S/Inputs/istream-doubles.txt
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && echo "0.5 2" | %t
#include "Inputs/check.h"

#include <iostream>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

static double model(double x, double a, double b, double c) {
  return a * x + b * sin(x) + c * x * x;
}

/* a (double) starts as x^2, b (long double) as 2x, c (float) as 0; each is
 * replaced by the value read, if any. seen[0..2] records a, b, c, and
 * seen[3..5] whether each read ran. */
double f(double x, double *seen) {
  double a = x * x;
  long double b = 2 * x;
  float c = 0;
  std::cin >> a;
  seen[3] = std::cin.fail() ? 0 : 1;
  std::cin >> b;
  seen[4] = std::cin.fail() ? 0 : 1;
  std::cin >> c;
  seen[5] = std::cin.fail() ? 0 : 1;
  seen[0] = a;
  seen[1] = (double)b;
  seen[2] = c;
  return model(x, a, (double)b, c);
}

int main() {
  char name[64];
  for (int call = 0; call < 6; ++call) {
    double x = 0.7 + 0.3 * call;
    double seen[6] = {0}, dseen[6] = {0};
    int rev = call % 2 == 0;
    double got;
    if (rev)
      got = __enzyme_autodiff<double>(f, x, enzyme_dup, seen, dseen);
    else
      got = __enzyme_fwddiff<double>(f, x, 1.0, enzyme_dup, seen, dseen);
    int readA = seen[3] != 0, readB = seen[4] != 0, readC = seen[5] != 0;
    /* a is x^2 unless read, b is 2x unless read, c is a constant. */
    double a = readA ? seen[0] : x * x, b = readB ? seen[1] : 2 * x;
    double c = seen[2];
    double expect = a + (readA ? 0 : 2 * x) * x + b * cos(x) +
                    (readB ? 0 : 2) * sin(x) + 2 * c * x;
    volatile double xp = x + fd_step(x), xm = x - fd_step(x);
    double fp = model(xp, readA ? a : xp * xp, readB ? b : 2 * xp, c);
    double fm = model(xm, readA ? a : xm * xm, readB ? b : 2 * xm, c);
    snprintf(name, sizeof name, "%s call %d (read a %d, b %d, c %d)",
             rev ? "rev" : "fwd", call, readA, readB, readC);
    check_grad(name, got, expect, (fp - fm) / (xp - xm));
  }
  return check_done();
}
