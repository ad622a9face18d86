// Worksharing loops whose reverse adds adjoints without atomics where no
// two iterations read the same element (Analysis/ParallelLoopReads.h):
// reads of x[i] and of pairs x[2i], x[2i+1] under static, chunked static
// and dynamic schedules; a shared scalar whose adjoint each thread sums
// privately and adds once, after a barrier, also when it is one of the
// exclusive elements (*a == x[3]). Next to them, reads that must stay
// atomic: a stencil, two views of one array a row apart (the guard that
// checks two arrays before the loop finds they meet), a gather. Each
// gradient is checked against the analytic one with teams of 1, 2 and 4
// threads, against finite differences, and forward against reverse
// (Inputs/openmp-check.h); ir/openmp-exclusive-adjoints.ll checks which
// additions are plain.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 -g %s -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t2 -lm
// RUN: %t2
// RUN: %clang_enzyme -fenzyme -fopenmp -O3 -march=x86-64-v3 %s -o %t3 -lm
// RUN: %t3
#include "Inputs/openmp-check.h"

#define N 41
#define H 20

static double sum(const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

// y[i] = c sin(x_i) + x_i^2: x[i] is exclusive, c privatized.
double exclusive_loss(const double *x, double *y, double c) {
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    y[i] = c * sin(x[i]) + x[i] * x[i];
  return sum(y, N);
}
void exclusive_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = c * cos(x[i]) + 2 * x[i];
    *gc += sin(x[i]);
  }
}

// Chunks of 3, handed out round-robin.
double chunked_loss(const double *x, double *y, double c) {
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < N; i++)
    y[i] = c * x[i] * x[i] * x[i];
  return sum(y, N);
}
void chunked_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = 3 * c * x[i] * x[i];
    *gc += x[i] * x[i] * x[i];
  }
}

// Chunks of 2, handed out on demand.
double dynamic_loss(const double *x, double *y, double c) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < N; i++)
    y[i] = exp(c * x[i]);
  return sum(y, N);
}
void dynamic_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = c * exp(c * x[i]);
    *gc += x[i] * exp(c * x[i]);
  }
}

// Iteration i reads x[2i] and x[2i+1]: one 16-byte element per iteration.
double pairs_loss(const double *x, double *y, double c) {
#pragma omp parallel for
  for (int i = 0; i < H; i++)
    y[i] = c * x[2 * i] * x[2 * i + 1];
  return sum(y, H);
}
void pairs_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < H; i++) {
    gx[2 * i] = c * x[2 * i + 1];
    gx[2 * i + 1] = c * x[2 * i];
    *gc += x[2 * i] * x[2 * i + 1];
  }
}

// A reduction that reads *a, which is x[3]: x[3]'s adjoint comes from
// iteration 3 (plainly) and from every thread's private sum of *a's.
double aliased_scalar_loss(const double *x, double *y, double c) {
  (void)y;
  const double *a = &x[3];
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++)
    s += c * *a * sin(x[i]);
  return s;
}
void aliased_scalar_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] += c * x[3] * cos(x[i]);
    gx[3] += c * sin(x[i]);
    *gc += x[3] * sin(x[i]);
  }
}

// Neighbours: iterations i-1, i and i+1 all read x[i].
double stencil_loss(const double *x, double *y, double c) {
#pragma omp parallel for
  for (int i = 1; i < N - 1; i++) {
    double d = x[i - 1] - 2 * x[i] + x[i + 1];
    y[i] = c * d * d;
  }
  y[0] = y[N - 1] = 0;
  return sum(y, N);
}
void stencil_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 1; i < N - 1; i++) {
    double d = x[i - 1] - 2 * x[i] + x[i + 1];
    gx[i - 1] += 2 * c * d;
    gx[i] += -4 * c * d;
    gx[i + 1] += 2 * c * d;
    *gc += d * d;
  }
}

// u and v are one array a row apart: u[i + 1] is v[i]. Nothing tells the
// kernel they overlap, so its adjoints stay atomic.
__attribute__((noinline)) void product(const double *u, const double *v,
                                       double *y, int n, double c) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = c * u[i] * v[i];
}
double shifted_loss(const double *x, double *y, double c) {
  product(x, x + 1, y, N - 1, c);
  return sum(y, N - 1);
}
void shifted_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N - 1; i++) {
    gx[i] += c * x[i + 1];
    gx[i + 1] += c * x[i];
    *gc += x[i] * x[i + 1];
  }
}

// The same kernel on one array passed twice (u == v: one element per
// iteration, plain additions) and on its two halves (they do not meet:
// plain additions); the guard computed before the loop decides.
double same_loss(const double *x, double *y, double c) {
  product(x, x, y, N, c);
  return sum(y, N);
}
void same_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] += 2 * c * x[i];
    *gc += x[i] * x[i];
  }
}
double halves_loss(const double *x, double *y, double c) {
  product(x, x + H, y, H, c);
  return sum(y, H);
}
void halves_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < H; i++) {
    gx[i] += c * x[i + H];
    gx[i + H] += c * x[i];
    *gc += x[i] * x[i + H];
  }
}

// A gather: iterations read x[(7i) mod N], each element several times.
double gather_loss(const double *x, double *y, double c) {
#pragma omp parallel for
  for (int i = 0; i < 2 * N; i++)
    y[i] = c * x[(7 * i) % N] * x[i % N];
  return sum(y, 2 * N);
}
void gather_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < 2 * N; i++) {
    gx[(7 * i) % N] += c * x[i % N];
    gx[i % N] += c * x[(7 * i) % N];
    *gc += x[(7 * i) % N] * x[i % N];
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.7 * sin(0.37 * i);
  check_teams("exclusive", exclusive_loss, exclusive_grad, x, N, 1.3);
  check_teams("chunked", chunked_loss, chunked_grad, x, N, 0.7);
  check_teams("dynamic", dynamic_loss, dynamic_grad, x, N, 0.8);
  check_teams("pairs", pairs_loss, pairs_grad, x, 2 * H, 1.1);
  check_teams("aliased scalar", aliased_scalar_loss, aliased_scalar_grad, x, N,
              0.9);
  check_teams("stencil", stencil_loss, stencil_grad, x, N, 0.6);
  check_teams("shifted", shifted_loss, shifted_grad, x, N, 1.2);
  check_teams("same", same_loss, same_grad, x, N, 0.7);
  check_teams("halves", halves_loss, halves_grad, x, N, 0.9);
  check_teams("gather", gather_loss, gather_grad, x, N, 0.5);
  return check_done();
}
