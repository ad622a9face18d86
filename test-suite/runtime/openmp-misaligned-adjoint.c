// Adjoints added atomically into floats whose natural alignment the engine
// cannot prove (members of a packed struct that every thread reads): the
// additions go through the run-time (runtime/MisalignedAtomics.c) instead of
// libatomic's generic compare-exchange, which the program would not link.
// Checked with teams of 1, 2 and 4 threads against the analytic gradient,
// finite differences and forward mode (Inputs/openmp-check.h).
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 %s -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 %s -o %t2 -lm
// RUN: %t2
#include "Inputs/openmp-check.h"

#define N 31

struct __attribute__((packed)) Weights {
  char tag;
  double w[3];
};

// y[i] = w[i mod 3] x_i with w = (c, 2c, 3c), read from a packed struct.
double packed_loss(const double *x, double *y, double c) {
  struct Weights p = {1, {c, 2 * c, 3 * c}};
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    y[i] = p.w[i % 3] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  return s;
}
void packed_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = (i % 3 + 1) * c;
    *gc += (i % 3 + 1) * x[i];
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.7 * sin(0.37 * i);
  check_teams("packed", packed_loss, packed_grad, x, N, 1.3);
  return check_done();
}
