// Two dup arrays: dot(a, b) gives da = b and db = a.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 37 };

double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

int main(void) {
  double a[N], b[N], da[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) {
    a[i] = sin(i + 0.5);
    b[i] = 0.1 * i - 1.0;
  }
  __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check_close("d/da_i", da[i], b[i], RTOL_EXACT, ATOL_EXACT);
    check_close("d/db_i", db[i], a[i], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
