// C++: a context gives shadows to a global struct and to a static data
// member read by a member function and a template.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan -lm && %t.asan
#include "Inputs/check.h"

#include <enzyme/enzyme.h>

extern "C" double __enzyme_autodiff(void *, ...);

struct Params {
  double a, b;
};
Params params = {1.25, -0.5};

struct Model {
  static double gain;
  double eval(double x) const { return gain * (params.a * x * x + params.b * x); }
};
double Model::gain = 3.0;

template <typename T> T run(T x) { return Model().eval(x); }

static double run_value(double x) { return run(x); }

int main() {
  void *ctx = __enzyme_context();
  double x = 0.9;
  Params *dp = static_cast<Params *>(__enzyme_shadow(ctx, &params, 0));
  double *dgain = static_cast<double *>(__enzyme_shadow(ctx, &Model::gain, 0));
  double g = __enzyme_autodiff((void *)run<double>, enzyme_context, ctx, x);
  double gain = Model::gain;
  check_grad("d/dx", g, gain * (2 * params.a * x + params.b),
             fd_diff1(run_value, x));
  check_close("d/da", dp->a, gain * x * x, RTOL_EXACT, ATOL_EXACT);
  check_close("d/db", dp->b, gain * x, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dgain", *dgain, params.a * x * x + params.b * x, RTOL_EXACT,
              ATOL_EXACT);
  __enzyme_free_context(ctx);
  return check_done();
}
