// Member functions of a class whose data members are the parameters: the
// object is dup and its shadow receives the gradient of the loss.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup, enzyme_const;

class quadratic_model {
public:
  double w[3];
  double eval(double x) const { return w[0] + w[1] * x + w[2] * x * x; }
  double loss(const double *xs, const double *ys, int n) const {
    double s = 0;
    for (int i = 0; i < n; i++) {
      double r = eval(xs[i]) - ys[i];
      s += r * r;
    }
    return s;
  }
};

double loss(const quadratic_model *m, const double *xs, const double *ys, int n) {
  return m->loss(xs, ys, n);
}

struct data {
  const double *xs, *ys;
  int n;
};
static double loss_w(const double *w, void *ctx) {
  const data *d = static_cast<const data *>(ctx);
  quadratic_model m = {{w[0], w[1], w[2]}};
  return loss(&m, d->xs, d->ys, d->n);
}

int main() {
  const int n = 4;
  double xs[n] = {-1.0, 0.0, 0.5, 2.0}, ys[n] = {1.0, 0.5, -0.25, 3.0};
  quadratic_model m = {{0.1, -0.7, 1.2}}, dm = {{0, 0, 0}};
  __enzyme_autodiff<void>(loss, enzyme_dup, &m, &dm, enzyme_const, xs, enzyme_const, ys,
                          enzyme_const, n);
  double e[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    double r = m.eval(xs[i]) - ys[i];
    e[0] += 2 * r;
    e[1] += 2 * r * xs[i];
    e[2] += 2 * r * xs[i] * xs[i];
  }
  data d = {xs, ys, n};
  for (int k = 0; k < 3; k++)
    check_grad("d/dw_k", dm.w[k], e[k], fd_partial(loss_w, m.w, 3, k, &d));
  return check_done();
}
