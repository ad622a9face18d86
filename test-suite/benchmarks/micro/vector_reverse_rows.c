/*===- vector_reverse_rows.c - Jacobian rows: width 8 against 8 sweeps ----===*
 *
 * Part of the Enzyme toolchain.
 *
 * g: R^4096 -> R^8, a loop of sin/exp/division per input feeding all eight
 * outputs. Times the primal, eight scalar reverse sweeps (one row each) and
 * one vector reverse sweep with 'enzyme_width, 8' (all rows), each the
 * minimum over 25 trials of 20 calls, and checks that both give the same
 * rows. Not part of scripts/bench (its objectives have one output):
 *
 *   build/bin/enzyme-clang -fenzyme -O2 test-suite/benchmarks/micro/vector_reverse_rows.c -lm
 *===----------------------------------------------------------------------===*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern int enzyme_width, enzyme_dup, enzyme_dupnoneed, enzyme_dupv,
    enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { M = 8, N = 4096, REPS = 20, TRIALS = 25 };

__attribute__((noinline)) void g(const double *x, int n, double *y) {
  for (int k = 0; k < M; ++k)
    y[k] = 0;
  for (int i = 0; i < n; ++i) {
    double s = sin(x[i]) * x[i] + exp(-x[i] * x[i]) / (1 + x[i] * x[i]);
    for (int k = 0; k < M; ++k)
      y[k] += s * (k + 1) * x[(i + k) % n];
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double *rows_scalar, *rows_vector;

static void primal(const double *x) {
  double y[M];
  g(x, N, y);
  __asm__ volatile("" : : "r"(y) : "memory");
}

static void eight_sweeps(const double *x) {
  double y[M];
  for (int k = 0; k < M; ++k) {
    double dy[M] = {0};
    dy[k] = 1;
    for (int i = 0; i < N; ++i)
      rows_scalar[(size_t)k * N + i] = 0;
    __enzyme_autodiff((void *)g, enzyme_dup, x, rows_scalar + (size_t)k * N,
                      enzyme_const, N, enzyme_dupnoneed, y, dy);
  }
}

static void one_sweep(const double *x) {
  double y[M], dy[M][M];
  for (int k = 0; k < M; ++k)
    for (int j = 0; j < M; ++j)
      dy[k][j] = k == j;
  for (size_t i = 0; i < (size_t)M * N; ++i)
    rows_vector[i] = 0;
  __enzyme_autodiff((void *)g, enzyme_width, M, enzyme_dupv, N * sizeof(double),
                    x, rows_vector, enzyme_const, N, enzyme_dupv, sizeof dy[0],
                    y, dy);
}

static double best(void (*f)(const double *), const double *x) {
  double t = 1e30;
  for (int trial = 0; trial < TRIALS; ++trial) {
    double t0 = now();
    for (int r = 0; r < REPS; ++r)
      f(x);
    double dt = (now() - t0) / REPS;
    t = dt < t ? dt : t;
  }
  return t;
}

int main(void) {
  double *x = malloc(N * sizeof *x);
  rows_scalar = malloc((size_t)M * N * sizeof(double));
  rows_vector = malloc((size_t)M * N * sizeof(double));
  for (int i = 0; i < N; ++i)
    x[i] = sin(0.37 * i);
  double tp = best(primal, x), t1 = best(eight_sweeps, x),
         t8 = best(one_sweep, x);
  double worst = 0;
  for (size_t i = 0; i < (size_t)M * N; ++i) {
    double d = fabs(rows_scalar[i] - rows_vector[i]);
    worst = d > worst ? d : worst;
  }
  printf("primal %.1f us; 8 scalar sweeps %.2f x primal; one width-8 sweep "
         "%.2f x primal = %.2f of the 8 sweeps; largest row difference %.1e\n",
         tp * 1e6, t1 / tp, t8 / tp, t8 / t1, worst);
  return worst > 1e-9;
}
