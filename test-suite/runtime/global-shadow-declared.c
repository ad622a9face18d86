// A mutable global that carries derivatives, with the shadow the user
// declared for it (the enzyme_shadow attribute, or the registration
// __enzyme_shadow_global): the derivative flows through the global, and the
// adjoints of what was read from it are consumed by the stores. The callee
// that writes the globals takes no pointer: it carries derivatives through
// them. (Forward mode: global-shadow-declared-forward.c.)
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double state_shadow[3];
__attribute__((enzyme_shadow(state_shadow))) double state[3];

double scale, scale_shadow;
void *__enzyme_shadow_global_scale[2] = {(void *)&scale, (void *)&scale_shadow};

__attribute__((noinline)) void store_state(double x) {
  state[0] = x;
  state[1] = sin(x);
  state[2] = x * x;
  scale = 2 * x;
}

double energy(double x) {
  store_state(x);
  return (state[0] * state[1] + state[2]) * scale;
}

static double energy_value(double x) { return energy(x); }

int main(void) {
  double x = 0.7;
  double e = x * sin(x) + x * x;
  double de = sin(x) + x * cos(x) + 2 * x;
  double want = de * 2 * x + e * 2;
  check_grad("reverse", __enzyme_autodiff((void *)energy, x), want,
             fd_diff1(energy_value, x));
  // The adjoints of the globals were consumed by the store.
  for (int i = 0; i < 3; ++i)
    check_close("state shadow consumed", state_shadow[i], 0.0, 0.0, 0.0);
  return check_done();
}
