// Memory the function allocates gets zeroed shadow memory in forward mode:
// malloc, calloc and realloc inside the function, values stored to and read
// back from it, pointers stored in it (a linked list: the shadow list has
// the same links), and free, which frees the shadow too.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);

struct node {
  double value;
  struct node *next;
};

static double f(const double *x, int n) {
  double *squares = malloc(n * sizeof(double));
  double *acc = calloc(n, sizeof(double));
  struct node *list = 0;
  for (int i = 0; i < n; ++i) {
    squares[i] = x[i] * x[i];
    acc[i] = (i ? acc[i - 1] : 0) + sin(x[i]);
    struct node *nd = malloc(sizeof *nd);
    nd->value = squares[i] * acc[i];
    nd->next = list;
    list = nd;
  }
  squares = realloc(squares, 2 * n * sizeof(double));
  for (int i = n; i < 2 * n; ++i)
    squares[i] = squares[i - n] * 2;
  double s = 0;
  for (int i = 0; i < 2 * n; ++i)
    s += squares[i];
  while (list) {
    struct node *next = list->next;
    s += list->value;
    free(list);
    list = next;
  }
  free(squares);
  free(acc);
  return s;
}

enum { N = 4 };
static double f_ctx(const double *x, void *ctx) { (void)ctx; return f(x, N); }

int main(void) {
  double x[N] = {0.5, -1.0, 1.5, 0.25};
  double v[N] = {1.0, -0.5, 0.25, 2.0};
  double t = __enzyme_fwddiff((void *)f, x, v, N);
  double expect = 0, fd = 0;
  for (int i = 0; i < N; ++i) {
    /* d/dx_i: squares (x2 copies: 3 * 2x), list values x_j^2 * acc_j. */
    double d = 6 * x[i];
    double acc_i = 0;
    for (int j = 0; j <= i; ++j)
      acc_i += sin(x[j]);
    d += 2 * x[i] * acc_i;
    for (int j = i; j < N; ++j)
      d += x[j] * x[j] * cos(x[i]);
    expect += d * v[i];
    fd += fd_partial(f_ctx, x, N, i, 0) * v[i];
  }
  check_grad("heap", t, expect, fd);
  return check_done();
}
