// Threads of a parallel region pass values through memory without
// derivatives: each writes its partial sum into a slot whose address it
// reads from a table that an inactive function returns (as Kokkos' OpenMP
// backend keeps a reduction's partial sums in per-thread buffers of its
// own), and the master adds the slots after the region. The threads of the region's derivative share one
// scratch shadow of that memory, so the adjoint of the master's sum
// reaches every thread's partial sum. Before, each thread had scratch
// shadows of its own, and with 2 threads or more the gradient silently
// lost the elements of every thread but the master.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 %s -o %t -lm
// RUN: env OMP_NUM_THREADS=1 %t
// RUN: env OMP_NUM_THREADS=2 %t
// RUN: env OMP_NUM_THREADS=3 %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 %s -o %t0 -lm
// RUN: env OMP_NUM_THREADS=2 %t0
#include "Inputs/check.h"
#ifdef _OPENMP
#include <omp.h>
#else /* The self-test builds it without OpenMP: one thread. */
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

#define N 37

static double slots[64 * 8];
static double *slot_table[64];
/* A library's table of per-thread buffers: nothing derivative about it. */
__attribute__((enzyme_inactive, noinline)) double **thread_slots(void) {
  for (int t = 0; t < 64; t++)
    slot_table[t] = &slots[8 * t];
  return slot_table;
}

double sum_sin_sq(const double *x, int n) {
  int threads = 1;
  double **table = thread_slots();
#pragma omp parallel
  {
    double *mine = table[omp_get_thread_num()];
    *mine = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      *mine += sin(x[i]) * x[i];
#pragma omp single
    threads = omp_get_num_threads();
  }
  double s = 0;
  for (int t = 0; t < threads; t++)
    s += *table[t] * *table[t];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.05 * i - 0.4;
  __enzyme_autodiff((void *)sum_sin_sq, enzyme_dup, x, dx, enzyme_const, N);
  /* Each thread's partial sum p_t gives d(p_t^2)/dx_i = 2 p_t d(sin x x)/dx
   * for its own elements: compare against finite differences, which see
   * the same partition. */
  for (int i = 0; i < N; i++) {
    double xi = x[i], h = fd_step(xi);
    x[i] = xi + h;
    double up = sum_sin_sq(x, N);
    x[i] = xi - h;
    double down = sum_sin_sq(x, N);
    x[i] = xi;
    check_fd("d/dx", dx[i], (up - down) / (2 * h));
  }
  return check_done();
}
