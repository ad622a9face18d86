// A struct with double, int, pointer and array fields passed as dup: the
// shadow struct's pointer field points to the shadow of the pointee.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct particle {
  double mass;
  int id;
  double *pos;
  double vel[2];
  long flags;
};

double energy(const struct particle *p) {
  double kinetic = 0.5 * p->mass * (p->vel[0] * p->vel[0] + p->vel[1] * p->vel[1]);
  double potential = p->mass * 9.81 * p->pos[1];
  return kinetic + potential + p->id * p->mass + (p->flags & 1);
}

int main(void) {
  double pos[2] = {3.0, 1.5}, dpos[2] = {0, 0};
  struct particle p = {2.0, 4, pos, {0.5, -1.5}, 3};
  struct particle dp = {0, 0, dpos, {0, 0}, 0};
  __enzyme_autodiff((void *)energy, enzyme_dup, &p, &dp);
  double v2 = p.vel[0] * p.vel[0] + p.vel[1] * p.vel[1];
  check_close("d/dmass", dp.mass, 0.5 * v2 + 9.81 * pos[1] + p.id, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dvel0", dp.vel[0], p.mass * p.vel[0], RTOL_EXACT, ATOL_EXACT);
  check_close("d/dvel1", dp.vel[1], p.mass * p.vel[1], RTOL_EXACT, ATOL_EXACT);
  check_close("d/dpos0", dpos[0], 0.0, 0.0, 0.0);
  check_close("d/dpos1", dpos[1], p.mass * 9.81, RTOL_EXACT, ATOL_EXACT);
  check_close("shadow pointer kept", (double)(dp.pos == dpos), 1.0, 0.0, 0.0);
  return check_done();
}
