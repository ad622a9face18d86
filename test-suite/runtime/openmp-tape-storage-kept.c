// Each thread keeps the storage of the parallel regions' tapes it destroys
// for its next tapes (runtime/TapeStorage.c). Gradients of a time-stepping
// loop of parallel regions, repeated with sizes that shrink and grow (a kept
// buffer too small for its next tape grows), and from threads that exit
// afterwards (what they kept is freed: the leak checker sees it). Checked
// against the analytic gradient every time, with 1 and 3 OpenMP threads,
// and under AddressSanitizer with leak checks.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 %s -o %t -lm -lpthread
// RUN: env OMP_NUM_THREADS=1 %t
// RUN: env OMP_NUM_THREADS=3 %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 %s -o %t0 -lm -lpthread
// RUN: env OMP_NUM_THREADS=3 %t0
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g -fsanitize=address %s -o %t1 -lm -lpthread
// RUN: env OMP_NUM_THREADS=3 ASAN_OPTIONS=detect_leaks=1 %t1
#include "Inputs/check.h"

#include <pthread.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// Steps times: u[i] <- u[i] + c * sin(u[i]) in a parallel loop (each
// region's tape records the sines' arguments); the result is sum u[i]^2.
static void relax(double *u, double *out, const double *c, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      u[i] = u[i] + *c * sin(u[i]);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += u[i] * u[i];
  *out = sum;
}

// d/dc and d/du0 by forward accumulation along each cell's trajectory.
static void expected(const double *u0, double c, int n, int steps,
                     double *du0, double *dc) {
  *dc = 0;
  for (int i = 0; i < n; ++i) {
    double u = u0[i], du = 1, duc = 0;
    for (int s = 0; s < steps; ++s) {
      double next = u + c * sin(u);
      double d = 1 + c * cos(u);
      duc = d * duc + sin(u);
      du = d * du;
      u = next;
    }
    du0[i] = 2 * u * du;
    *dc += 2 * u * duc;
  }
}

// The loss as a function of c, and (cells are independent) of one cell's
// start, for central differences.
static const double *fd_u0;
static double fd_c;
static int fd_n, fd_steps;
static double cell_loss(double u) {
  for (int s = 0; s < fd_steps; ++s)
    u = u + fd_c * sin(u);
  return u * u;
}
static double loss_of_c(double c) {
  double saved = fd_c, sum = 0;
  fd_c = c;
  for (int i = 0; i < fd_n; ++i)
    sum += cell_loss(fd_u0[i]);
  fd_c = saved;
  return sum;
}

static void check_size(int n, int steps) {
  double *u = malloc(n * sizeof(double)), *du = calloc(n, sizeof(double));
  double *u0 = malloc(n * sizeof(double)), *want = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    u[i] = u0[i] = 0.3 + 0.5 * sin(0.1 * i);
  double c = 0.2, dc = 0, out = 0, dout = 1, want_c;
  __enzyme_autodiff((void *)relax, enzyme_dup, u, du, enzyme_dup, &out, &dout,
                    enzyme_dup, &c, &dc, enzyme_const, n, enzyme_const, steps);
  expected(u0, c, n, steps, want, &want_c);
  fd_u0 = u0, fd_c = c, fd_n = n, fd_steps = steps;
  char name[64];
  snprintf(name, sizeof name, "d/dc, n=%d steps=%d", n, steps);
  check_grad_tol(name, dc, want_c, fd_diff1(loss_of_c, c), 1e-9);
  for (int i = 0; i < n; ++i) {
    snprintf(name, sizeof name, "d/du[%d], n=%d steps=%d", i, n, steps);
    if (i == 0 || i == n / 2 || i == n - 1)
      check_grad_tol(name, du[i], want[i], fd_diff1(cell_loss, u0[i]), 1e-9);
    else if (!check_close(name, du[i], want[i], 1e-9, 1e-12))
      break;
  }
  free(u), free(du), free(u0), free(want);
}

static void all_sizes(void) {
  static const int sizes[][2] = {{2000, 12}, {200, 30}, {20000, 6},
                                 {7, 50},    {2000, 12}, {20000, 6}};
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
    check_size(sizes[k][0], sizes[k][1]);
}

static void *in_thread(void *unused) {
  (void)unused;
  all_sizes();
  return 0;
}

int main(void) {
  all_sizes();
  // One thread after the other (the checks' counter is not shared).
  for (int t = 0; t < 2; ++t) {
    pthread_t thread;
    pthread_create(&thread, 0, in_thread, 0);
    pthread_join(thread, 0);
  }
  return check_done();
}
