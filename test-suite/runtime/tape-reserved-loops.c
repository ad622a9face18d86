// Loops with a trip count known on entry reserve tape room once and push
// without capacity checks. The room must cover every push of an iteration,
// also those of conditional blocks; pushes of the enclosing loop around it
// and of callees stay checked; a tape that must grow many times (long
// loops, starting from a small buffer, or from the storage a previous
// gradient left) grows at the reservation. Gradient components are checked
// against central finite differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_const;

// One long loop: a loop-carried product, a conditional block that pushes
// more, and a value from before the loop.
double long_loop(const double *x, int n) {
  double s = 0, p = 1, scale = exp(0.01 * x[0]);
  for (int i = 0; i < n; ++i) {
    double v = x[i % 7];
    p = p * (1 + 1e-6 * sin(v * i));
    if ((i & 3) == 1)
      s += tanh(v * p) * scale;
    else
      s += v * p;
  }
  return s;
}

// Checked pushes of an outer loop around an inner loop that reserves; the
// inner trip count depends on the outer counter.
double nested(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double a = sin(x[i % 7] + i);
    for (int j = 0; j <= i % 13; ++j) {
      a = a * cos(x[(i + j) % 7]);
      s += a;
    }
    s += a * a;
  }
  return s;
}

__attribute__((noinline)) static double helper(double v, double w) {
  return sin(v) * exp(w);
}

// A callee pushes on the same tape inside the loop: no reservation.
double with_callee(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += helper(x[i % 7] * s * 1e-3, x[(i + 1) % 7]) * log(2 + x[i % 7]);
  return s;
}

typedef double (*Fn)(const double *, int);
struct Ctx {
  Fn f;
  int n;
};
static double call(const double *x, void *ctx) {
  struct Ctx *c = (struct Ctx *)ctx;
  return c->f(x, c->n);
}

static void check(const char *name, Fn f, const double *x, int n) {
  double g[7] = {0};
  __enzyme_autodiff((void *)f, x, g, enzyme_const, n);
  struct Ctx c = {f, n};
  for (int i = 0; i < 7; ++i) {
    char label[64];
    snprintf(label, sizeof label, "%s(n=%d) d/dx[%d]", name, n, i);
    check_fd(label, g[i], fd_partial(call, x, 7, i, &c));
  }
}

int main(void) {
  double x[7];
  for (int i = 0; i < 7; ++i)
    x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
  // Small, large, and small again (the storage the large tape left).
  int sizes[] = {5, 200000, 3};
  for (int k = 0; k < 3; ++k) {
    check("long_loop", long_loop, x, sizes[k]);
    check("nested", nested, x, sizes[k] / 20 + 1);
    check("with_callee", with_callee, x, sizes[k] / 20 + 1);
  }
  check("long_loop", long_loop, x, 0);
  return check_done();
}
