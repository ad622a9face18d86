// Forward mode through mutable globals with declared shadows (the
// enzyme_shadow attribute, or the registration __enzyme_shadow_global): the
// tangents flow through them and are left in the shadows.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);

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
  (void)energy_value;
  check_close("forward", __enzyme_fwddiff((void *)energy, x, 1.0), want,
              RTOL_EXACT, ATOL_EXACT);
  // Forward mode leaves the tangents of the globals in their shadows.
  check_close("tangent of state[2]", state_shadow[2], 2 * x, RTOL_EXACT,
              ATOL_EXACT);
  check_close("tangent of scale", scale_shadow, 2.0, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
