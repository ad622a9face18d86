// A local struct holds a pointer to enzyme_const data beside a pointer to
// duplicated parameters and an active float (a model with its fixed
// training data), and goes by address to helpers that are not inlined.
// The local needs its shadow (the parameters' shadow and the float's
// adjoint live there), but the data pointer's shadow in it is null: the
// helper read it back as a shadow and the gradient program died adding
// into it (forward mode read through it). The callee now learns which of
// its argument's fields hold pointers without a shadow, also through a
// second helper it passes the struct to, and reads the data as constants.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4, D = 2 };

struct model {
  const double *data; /* N x D, enzyme_const */
  const double *w;    /* D weights, duplicated */
  double bias;        /* active */
  int n, d;
};

__attribute__((noinline)) static double predict(const struct model *m,
                                                int i) {
  double s = m->bias;
  for (int j = 0; j < m->d; j++)
    s += m->data[i * m->d + j] * m->w[j];
  return s;
}

__attribute__((noinline)) static double loss(const struct model *m) {
  double l = 0;
  for (int i = 0; i < m->n; i++) {
    double r = predict(m, i) - m->data[i * m->d];
    l += r * r;
  }
  return l;
}

/* w[0..D-1] and the bias w[D]. */
static double objective(const double *w, const double *data) {
  struct model m = {data, w, w[D] * 0.5, N, D};
  return loss(&m);
}

static const double X[N * D] = {0.5, -1.0, 1.5, 0.25, -0.75, 2.0, 1.0, 1.25};
static double objective_of(const double *w, void *ctx) {
  (void)ctx;
  return objective(w, X);
}

int main(void) {
  double w[D + 1] = {0.3, -0.6, 0.8}, dw[D + 1] = {0, 0, 0};
  double analytic[D + 1] = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    double r = 0.5 * w[D] - X[i * D];
    for (int j = 0; j < D; j++)
      r += X[i * D + j] * w[j];
    for (int j = 0; j < D; j++)
      analytic[j] += 2 * r * X[i * D + j];
    analytic[D] += r; /* 2 r * 0.5 */
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, w, dw, enzyme_const, X);
  for (int k = 0; k <= D; k++) {
    double fd = fd_partial(objective_of, w, D + 1, k, 0);
    check_grad("reverse d/dw", dw[k], analytic[k], fd);
    double tw[D + 1] = {0, 0, 0};
    tw[k] = 1;
    double t =
        __enzyme_fwddiff((void *)objective, enzyme_dup, w, tw, enzyme_const, X);
    check_grad("forward d/dw", t, analytic[k], fd);
  }
  return check_done();
}
