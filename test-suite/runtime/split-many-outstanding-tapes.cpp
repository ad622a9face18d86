// Several tapes alive at once, as when a program records one per time step
// (or per GPU thread) and reverses them later in the opposite order: each
// tape holds its own call's values. C++ declarations as variadic templates;
// the tape is passed with enzyme_tape.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename... T> void *__enzyme_augmentfwd(void *, T...);
template <typename... T> void __enzyme_reverse(void *, T...);
extern int enzyme_dup, enzyme_const, enzyme_tape;

// One explicit Euler step of u' = -u^3 + c * sin(u), in place.
__attribute__((noinline)) void step(double *u, double c) {
  *u = *u + 0.1 * (-(*u) * (*u) * (*u) + c * sin(*u));
}

static double run(double u0, int steps) {
  double u = u0;
  for (int s = 0; s < steps; ++s)
    step(&u, 0.8);
  return u;
}

int main() {
  const int Steps = 6;
  double u0 = 0.9, u = u0, du = 0;
  void *tapes[Steps];
  for (int s = 0; s < Steps; ++s)
    tapes[s] = __enzyme_augmentfwd((void *)step, enzyme_dup, &u, &du,
                                   enzyme_const, 0.8);
  check_close("primal", u, run(u0, Steps), RTOL_EXACT, ATOL_EXACT);
  du = 1.0;
  for (int s = Steps - 1; s >= 0; --s)
    __enzyme_reverse((void *)step, enzyme_tape, tapes[s], enzyme_dup, &u, &du,
                     enzyme_const, 0.8);
  double h = fd_step(u0);
  double fd = (run(u0 + h, Steps) - run(u0 - h, Steps)) / (2 * h);
  check_fd("d u_T / d u_0", du, fd);
  return check_done();
}
