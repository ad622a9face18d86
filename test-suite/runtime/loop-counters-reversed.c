// Loops whose reverse steps counters back instead of reading them from the
// tape: counting down, strides, triangular nests whose inner start depends on
// the outer counter, a break out of two loops at once, a data-dependent
// while loop, values from before a loop used inside it, and inputs reloaded
// in the reverse pass next to scratch memory that the function overwrites.
// Every gradient component is checked against central finite differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_const;

#define N 9

// Counting down with stride 2, then a triangular nest whose inner loop
// starts at the outer counter + 1, reading the input (never written) and a
// scratch buffer (rewritten every outer iteration).
double triangular(const double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  double s = 0;
  for (int i = n - 1; i >= 0; i -= 2)
    s += sin(x[i]) * x[(i + 3) % n];
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < n; ++i)
      t[i] = x[i] * (r + 1) - 0.5 * x[(i + r) % n];
    int k = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j, ++k)
        s += t[i] * x[j] * cos(0.1 * k);
  }
  free(t);
  return s;
}

// A search that leaves both loops at once, and a while loop that runs until
// a data-dependent condition holds.
double early_exit(const double *x, int n) {
  double s = 0, scale = exp(0.1 * x[0]);
  int found = 0;
  for (int i = 0; i < n && !found; ++i) {
    for (int j = 0; j < n; ++j) {
      s += scale * x[i] * x[j];
      if (i * n + j == 2 * n + 4) {
        found = 1;
        break;
      }
    }
  }
  double y = x[1];
  int steps = 0;
  while (y * y < 40.0 && steps < 1000) {
    y = y * 1.25 + 0.1 * x[2];
    ++steps;
  }
  return s + y;
}

// An unsigned 8-bit counter that wraps: it cannot tell the first iteration
// from the others, so the reverse pass records the loop's path instead.
double wrapping(const double *x, int n) {
  double s = 0;
  unsigned char c = 250;
  for (int i = 0; i < 12; ++i, ++c)
    s += x[c % n] * x[i % n] * (c < 128 ? 1.0 : 2.0);
  return s;
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
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
  check("triangular", triangular, x);
  check("early_exit", early_exit, x);
  check("wrapping", wrapping, x);
  return check_done();
}
