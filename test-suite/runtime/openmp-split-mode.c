// Split mode across an OpenMP region: __enzyme_augmentfwd records the
// region (every thread's tape, kept in the region's record on the tape),
// other code runs, and __enzyme_reverse later forks a team of the same size
// that reverses it; the record is freed by the reverse. Dynamic schedule,
// teams of 1, 3 and 4 threads, -O0 and -O2.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 -g %s -o %t -lm
// RUN: env OMP_NUM_THREADS=1 %t
// RUN: env OMP_NUM_THREADS=3 %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t2 -lm
// RUN: env OMP_NUM_THREADS=4 %t2
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define N 23

void sin_times(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * x[i];
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.1 * i - 0.7;
    dy[i] = 1.0 + 0.5 * i;
  }
  void *tape = __enzyme_augmentfwd((void *)sin_times, enzyme_dup, x, dx,
                                   enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("primal", y[i], sin(x[i]) * x[i], 1e-15, 1e-15);
  __enzyme_reverse((void *)sin_times, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, N, tape);
  char name[32];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "d/dx[%d]", i);
    check_close(name, dx[i], (1.0 + 0.5 * i) * (cos(x[i]) * x[i] + sin(x[i])),
                1e-13, 1e-14);
    check_close("dy cleared", dy[i], 0.0, 0, 0);
  }
  return check_done();
}
