// OpenMP parallel regions beyond worksharing loops, differentiated with
// teams of 1, 2 and 4 threads (Inputs/openmp-check.h): work split by
// omp_get_thread_num, private and firstprivate variables, a barrier between
// two phases (the second reads what other threads wrote in the first; the
// reverse pass mirrors the barrier), critical and atomic updates of a
// shared sum, `single`, `master`, `reduction(max:)`, `reduction(min:)` and
// `reduction(*:)`, products under an OpenMP lock in a `nowait` loop of a
// `num_threads(3)` region, firstprivate copies of values with derivatives
// (a double and a float, dropped before: the runtime passes them as
// integers), lastprivate, and calls of differentiated functions inside the
// region.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 -g %s -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t2 -lm
// RUN: %t2
// RUN: %clang_enzyme -fenzyme -O2 -Wno-unknown-pragmas %s -o %t3 -lm
// RUN: %t3
// Sanitized at -O2, the shared sum's load had no known alignment and its
// atomic adjoint addition became a call of libatomic (a link error).
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t4 -lm
// RUN: %t4
#include "Inputs/openmp-check.h"

#define N 29

static inline int thread_id(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
static inline int team_size(void) {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

// Phase 1: t[i] = c x_i^2 (split by thread id); barrier; phase 2:
// u[i] = t[i] t[(i + 1) % N] (a neighbour another thread wrote); a single
// thread sums u. L = c^2 sum x_i^2 x_{i+1}^2.
double phases_loss(const double *x, double *work, double c) {
  double *t = work, *u = work + N;
  double s = 0;
#pragma omp parallel shared(s)
  {
    int id = thread_id(), p = team_size();
    for (int i = id; i < N; i += p)
      t[i] = c * x[i] * x[i];
#pragma omp barrier
    for (int i = id; i < N; i += p)
      u[i] = t[i] * t[(i + 1) % N];
#pragma omp barrier
#pragma omp single
    {
      for (int i = 0; i < N; i++)
        s += u[i];
    }
  }
  return s;
}
void phases_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    gx[i] += 2 * c * c * x[i] * x[j] * x[j];
    gx[j] += 2 * c * c * x[i] * x[i] * x[j];
    *gc += 2 * c * x[i] * x[i] * x[j] * x[j];
  }
}

// L = sum_i c sin(x_i) x_i, accumulated with `critical` (a private partial
// sum per thread) and the same sum with `atomic`, added.
double critical_atomic_loss(const double *x, double *work, double c) {
  (void)work;
  double s = 0, a = 0;
#pragma omp parallel
  {
    double part = 0;
#pragma omp for
    for (int i = 0; i < N; i++)
      part += c * sin(x[i]) * x[i];
#pragma omp critical
    s += part;
#pragma omp for
    for (int i = 0; i < N; i++) {
      double v = c * sin(x[i]) * x[i];
#pragma omp atomic
      a += v;
    }
  }
  return s + a;
}
void critical_atomic_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = 2 * c * (cos(x[i]) * x[i] + sin(x[i]));
    *gc += 2 * sin(x[i]) * x[i];
  }
}

// max and min reductions, and a firstprivate scale: L = c (max_i x_i^2 -
// min_i x_i) + k sum x_i with k = 2 copied into every thread.
double maxmin_loss(const double *x, double *work, double c) {
  (void)work;
  double m = -1e300, n = 1e300, s = 0, k = 2.0;
#pragma omp parallel for reduction(max : m) reduction(min : n)                \
    reduction(+ : s) firstprivate(k)
  for (int i = 0; i < N; i++) {
    double sq = x[i] * x[i];
    m = sq > m ? sq : m;
    n = x[i] < n ? x[i] : n;
    s += k * x[i];
  }
  return c * (m - n) + s;
}
static int argmax_sq(const double *x) {
  int b = 0;
  for (int i = 1; i < N; i++)
    if (x[i] * x[i] > x[b] * x[b])
      b = i;
  return b;
}
static int argmin(const double *x) {
  int b = 0;
  for (int i = 1; i < N; i++)
    if (x[i] < x[b])
      b = i;
  return b;
}
void maxmin_grad(const double *x, double c, double *gx, double *gc) {
  int hi = argmax_sq(x), lo = argmin(x);
  for (int i = 0; i < N; i++)
    gx[i] = 2.0;
  gx[hi] += 2 * c * x[hi];
  gx[lo] -= c;
  *gc = x[hi] * x[hi] - x[lo];
}

// A differentiated function called from inside the region, with a private
// temporary passed by pointer: y_i = f(x_i, c) = c x_i exp(-x_i^2);
// L = sum y_i^2.
__attribute__((noinline)) static void model(const double *xi, double c,
                                            double *out) {
  *out = c * xi[0] * exp(-xi[0] * xi[0]);
}
double nested_loss(const double *x, double *work, double c) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++) {
    double y;
    model(&x[i], c, &y);
    work[i] = y;
    s += y * y;
  }
  return s;
}
void nested_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    double e = exp(-x[i] * x[i]), y = c * x[i] * e;
    gx[i] = 2 * y * c * e * (1 - 2 * x[i] * x[i]);
    *gc += 2 * y * x[i] * e;
  }
}

// Products: under an OpenMP lock (a `nowait` loop in a region of 3
// threads), and with reduction(*:); the master thread writes a copy of c.
// L = prod_i (1 + 0.1 c x_i) + prod_i (1 + 0.05 x_i) + work[0]^2.
double product_loss(const double *x, double *work, double c) {
  double p = 1, q = 1;
#ifdef _OPENMP
  omp_lock_t lock;
  omp_init_lock(&lock);
#endif
#pragma omp parallel num_threads(3)
  {
#pragma omp for nowait schedule(dynamic, 2)
    for (int i = 0; i < N; i++) {
      double v = 1 + 0.1 * c * x[i];
#ifdef _OPENMP
      omp_set_lock(&lock);
#endif
      p *= v;
#ifdef _OPENMP
      omp_unset_lock(&lock);
#endif
    }
#pragma omp master
    work[0] = c;
  }
#ifdef _OPENMP
  omp_destroy_lock(&lock);
#endif
#pragma omp parallel for reduction(* : q)
  for (int i = 0; i < N; i++)
    q *= 1 + 0.05 * x[i];
  return p + q + work[0] * work[0];
}
void product_grad(const double *x, double c, double *gx, double *gc) {
  double p = 1, q = 1;
  for (int i = 0; i < N; i++) {
    p *= 1 + 0.1 * c * x[i];
    q *= 1 + 0.05 * x[i];
  }
  for (int i = 0; i < N; i++) {
    gx[i] = 0.1 * c * p / (1 + 0.1 * c * x[i]) + 0.05 * q / (1 + 0.05 * x[i]);
    *gc += p * 0.1 * x[i] / (1 + 0.1 * c * x[i]);
  }
  *gc += 2 * c;
}

// A value with a derivative that the region takes by copy (firstprivate;
// the runtime passes a double as an integer of the same bits, and its
// derivative was dropped before), each thread writing its own copy:
// L = sum_i (2c + 1) x_i.
double firstprivate_loss(const double *x, double *work, double c) {
  (void)work;
  double k = 2 * c, s = 0;
#pragma omp parallel for firstprivate(k) reduction(+ : s)
  for (int i = 0; i < N; i++) {
    s += (k + 1) * x[i];
    k = 2 * k - k;
  }
  return s;
}
void firstprivate_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = 2 * c + 1;
    *gc += 2 * x[i];
  }
}

// lastprivate: the thread that ran the last iteration writes its copy
// back. L = sum_i x_i + 3 c x_{N-1}^2.
double lastprivate_loss(const double *x, double *work, double c) {
  (void)work;
  double last = 0, s = 0;
#pragma omp parallel for lastprivate(last) reduction(+ : s)
  for (int i = 0; i < N; i++) {
    last = c * x[i] * x[i];
    s += x[i];
  }
  return s + 3 * last;
}
void lastprivate_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++)
    gx[i] = 1;
  gx[N - 1] += 6 * c * x[N - 1];
  *gc = 3 * x[N - 1] * x[N - 1];
}

// A float firstprivate travels as `zext (bitcast float to i32)` at -O2:
// L = sum_i c x_i with c a float; dL/dc = sum x_i (exact here).
double float_copy_loss(const double *x, const float *cp) {
  float c = *cp;
  double s = 0;
#pragma omp parallel for firstprivate(c) reduction(+ : s)
  for (int i = 0; i < N; i++)
    s += c * x[i];
  return s;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.2 + 0.9 * sin(0.61 * i + 0.3);
  check_teams("phases", phases_loss, phases_grad, x, N, 1.2);
  check_teams("critical+atomic", critical_atomic_loss, critical_atomic_grad, x,
              N, 0.7);
  check_teams("max+min", maxmin_loss, maxmin_grad, x, N, 1.5);
  check_teams("nested call", nested_loss, nested_grad, x, N, 0.9);
  check_teams("products", product_loss, product_grad, x, N, 1.1);
  check_teams("firstprivate", firstprivate_loss, firstprivate_grad, x, N, 0.75);
  check_teams("lastprivate", lastprivate_loss, lastprivate_grad, x, N, 1.25);
  double ints[N], dints[N] = {0};
  for (int i = 0; i < N; i++)
    ints[i] = i % 5;
  float c = 1.5f, dc = 0;
  __enzyme_autodiff((void *)float_copy_loss, enzyme_dup, ints, dints,
                    enzyme_dup, &c, &dc);
  double sum = 0;
  for (int i = 0; i < N; i++) {
    sum += ints[i];
    check_close("float firstprivate d/dx", dints[i], 1.5, 0, 0);
  }
  check_close("float firstprivate d/dc", dc, sum, 0, 0);
  return check_done();
}
