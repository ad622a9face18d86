// A float that a parallel region takes by copy (firstprivate) reaches the
// team as an integer of its bits. Without type information
// (-fno-strict-aliasing: no TBAA tags), optimisation reads it from memory
// as an integer, and nothing says it is a float: the engine stops rather
// than lose its derivative. With the tags, the same program differentiates.
// REQUIRES: openmp
// RUN: not %clang_enzyme -fenzyme -fopenmp -O2 -g -fno-strict-aliasing %s -o %t 2>&1 | FileCheck %s %{no-crash}
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t2
// RUN: env OMP_NUM_THREADS=2 %t2 | FileCheck %s --check-prefix=OK
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double scaled_sum(const double *x, const float *cp, int n) {
  float c = *cp;
  double s = 0;
#pragma omp parallel for firstprivate(c) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += c * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  float c = 1.5f, dc = 0;
  // CHECK: error: cannot differentiate 'scaled_sum': cannot differentiate the OpenMP parallel region in 'scaled_sum': a value it takes by copy (firstprivate) carries floating-point bits in a form the engine does not follow; make it shared, or a double or float of its own
  __enzyme_autodiff((void *)scaled_sum, enzyme_dup, x, dx, enzyme_dup, &c, &dc,
                    enzyme_const, 4);
  // OK: dc 10 dx 1.5
  printf("dc %g dx %g\n", dc, dx[0]);
  return 0;
}
