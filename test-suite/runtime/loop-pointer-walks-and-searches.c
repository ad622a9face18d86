// Loops whose reverse needs nothing recorded per iteration: pointers that
// walk memory by a constant step (forwards, backwards, by whole records, in
// nests) are stepped back like integer counters, and their shadows follow
// them; a loop nothing of which the reverse pass needs (a binary search for
// an interval, alone or inside a loop that carries derivatives) is skipped
// by the reverse pass. Every gradient component is checked against central
// finite differences, and forward mode against reverse mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
// The O2 derivative of `records` walks its pointer back and reloads the
// records: it records nothing.
// (Not under `scripts/test --sanitize`, whose instrumented loads are
// recorded.)
// RUN: %if !sanitize %{ %clang_enzyme -fenzyme -O2 -S -emit-llvm %s -o - | FileCheck %s %}
// CHECK-LABEL: define internal {{.*}} @records.grad(
// CHECK-NOT:     tape.grow
// CHECK:       ret
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup;

#define N 24

// Records of three fields: a pointer walks them three doubles at a time.
__attribute__((noinline)) double records(const double *x, int n) {
  double s = 0;
  for (const double *p = x; p < x + n; p += 3)
    s += p[0] * p[1] + p[2] * p[2] * p[0];
  return s;
}

// Backwards by two, and a nest whose inner pointer starts at the outer one.
double backwards_nest(const double *x, int n) {
  double s = 0;
  for (const double *p = x + n - 1; p > x; p -= 2)
    s += exp(0.1 * p[0]) * p[-1];
  for (const double *row = x; row < x + n; row += 6)
    for (const double *q = row + 1; q < row + 6; ++q)
      s += row[0] * cos(q[0]);
  return s;
}

// A binary search of a grid (no derivative flows through it), then an
// interpolation of the values there.
static int interval(const double *grid, int n, double e) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (grid[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

static double grid[N];

double lookup(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 5; ++k) {
    double e = 0.13 + 0.17 * k;
    int lo = interval(grid, n, e);
    double f = (e - grid[lo]) / (grid[lo + 1] - grid[lo]);
    s += x[lo] * x[lo] * (1 - f) + f * sin(x[lo + 1]) * x[k];
  }
  return s;
}

// A search loop whose result picks the branch the derivative takes.
double search_then_branch(const double *x, int n) {
  int i = 0;
  while (i < n - 1 && grid[i] < 0.6)
    ++i;
  return i % 2 ? x[i] * x[i] * x[0] : cos(x[i]) * x[1];
}

typedef double (*Fn)(const double *, int);
static double call(const double *x, void *ctx) { return ((Fn)ctx)(x, N); }

static void check(const char *name, Fn f, const double *x) {
  double g[N] = {0};
  __enzyme_autodiff((void *)f, x, g, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    char label[64];
    snprintf(label, sizeof label, "%s d/dx[%d]", name, i);
    check_fd(label, g[i], fd_partial(call, x, N, i, (void *)f));
    double dx[N] = {0};
    dx[i] = 1;
    snprintf(label, sizeof label, "%s forward d/dx[%d]", name, i);
    check_close(label,
                __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, N),
                g[i], RTOL_EXACT, ATOL_EXACT);
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
    grid[i] = (double)i * i / ((N - 1) * (N - 1));
  }
  check("records", records, x);
  check("backwards_nest", backwards_nest, x);
  check("lookup", lookup, x);
  check("search_then_branch", search_then_branch, x);
  return check_done();
}
