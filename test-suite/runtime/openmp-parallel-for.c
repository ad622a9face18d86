// Worksharing loops in OpenMP parallel regions: static, dynamic and guided
// schedules and collapse(2), differentiated in reverse and forward mode
// with teams of 1, 2 and 4 threads (Inputs/openmp-check.h): each gradient
// equals the analytic one, the 1-thread one, and (once) finite
// differences. The derivative runs in parallel: every thread reverses the
// iterations it ran. A build without -fopenmp runs the same checks.
// REQUIRES: openmp
// RUN: %clang_enzyme -fenzyme -fopenmp -O0 -g %s -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t2 -lm
// RUN: %t2
// RUN: %clang_enzyme -fenzyme -fopenmp -O3 -march=x86-64-v3 %s -o %t3 -lm
// RUN: %t3
// RUN: %clang_enzyme -fenzyme -O2 -Wno-unknown-pragmas %s -o %t4 -lm
// RUN: %t4
#include "Inputs/openmp-check.h"

#define N 37
#define R 5
#define C 7

// L = c * sum x^3 (static schedule; y is shared, c a shared scalar).
double static_loss(const double *x, double *y, double c) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++) {
    y[i] = c * x[i] * x[i];
    s += y[i] * x[i];
  }
  return s;
}
void static_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = 3 * c * x[i] * x[i];
    *gc += x[i] * x[i] * x[i];
  }
}

// L = sum_i c sin(x_i) x_{i+1}: iterations read their neighbour, so the
// adjoints of x meet in the reverse pass (dynamic schedule, chunks of 3).
double dynamic_loss(const double *x, double *y, double c) {
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < N - 1; i++)
    y[i] = c * sin(x[i]) * x[i + 1];
  double s = 0;
  for (int i = 0; i < N - 1; i++)
    s += y[i];
  return s;
}
void dynamic_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N - 1; i++) {
    gx[i] += c * cos(x[i]) * x[i + 1];
    gx[i + 1] += c * sin(x[i]);
    *gc += sin(x[i]) * x[i + 1];
  }
}

// L = sum_i (i + 1) exp(c x_i) (guided schedule, writes y).
double guided_loss(const double *x, double *y, double c) {
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < N; i++)
    y[i] = (i + 1) * exp(c * x[i]);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  return s;
}
void guided_grad(const double *x, double c, double *gx, double *gc) {
  for (int i = 0; i < N; i++) {
    gx[i] = (i + 1) * c * exp(c * x[i]);
    *gc += (i + 1) * x[i] * exp(c * x[i]);
  }
}

// M[r][k] = c x_r x_{R+k}, L = sum M^2 (collapse(2), then a reduction).
double collapse_loss(const double *x, double *m, double c) {
#pragma omp parallel for collapse(2) schedule(static, 2)
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++)
      m[r * C + k] = c * x[r] * x[R + k];
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < R * C; i++)
    s += m[i] * m[i];
  return s;
}
void collapse_grad(const double *x, double c, double *gx, double *gc) {
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++) {
      double v = c * x[r] * x[R + k];
      gx[r] += 2 * v * c * x[R + k];
      gx[R + k] += 2 * v * c * x[r];
      *gc += 2 * v * x[r] * x[R + k];
    }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.7 * sin(0.37 * i);
  check_teams("static", static_loss, static_grad, x, N, 1.3);
  check_teams("dynamic", dynamic_loss, dynamic_grad, x, N, 0.8);
  check_teams("guided", guided_loss, guided_grad, x, N, 0.4);
  check_teams("collapse", collapse_loss, collapse_grad, x, R + C, 1.1);
  return check_done();
}
