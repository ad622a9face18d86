// An atomic float addition at an address computed from a pointer argument
// (`&acc[k]`): the reverse pass adds the element's adjoint to the added
// value's, so it needs that address's shadow. It did not plan to keep it:
// "internal error: the reverse pass needs a value it did not plan for"
// (found by scripts/fuzz --kind cuda, where clang's -O2 puts CUDA's
// atomicAdd on the element address of a kernel parameter). Reverse and
// forward mode against analytic values, at -O0 and -O2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) void accumulate(const double *x, double *acc,
                                          int k) {
  __atomic_fetch_add(&acc[k], x[0] * x[0], __ATOMIC_RELAXED);
  __atomic_fetch_sub(&acc[k + 1], sin(x[1]), __ATOMIC_RELAXED);
}

int main(void) {
  for (int k = 0; k < 2; ++k) {
    double x[2] = {1.5, 0.25}, dx[2] = {0, 0};
    double acc[3] = {0, 0, 0}, dacc[3] = {0.5, 2, 3};
    __enzyme_autodiff((void *)accumulate, enzyme_dup, x, dx, enzyme_dup, acc,
                      dacc, enzyme_const, k);
    check_close("d/dx0 of acc[k] += x0^2", dx[0], 2 * x[0] * dacc[k], 1e-12,
                1e-12);
    check_close("d/dx1 of acc[k+1] -= sin(x1)", dx[1],
                -cos(x[1]) * dacc[k + 1], 1e-12, 1e-12);

    double tx[2] = {1, -2}, acc2[3] = {0, 0, 0}, tacc[3] = {0, 0, 0};
    __enzyme_fwddiff((void *)accumulate, enzyme_dup, x, tx, enzyme_dup, acc2,
                     tacc, enzyme_const, k);
    check_close("forward: tangent of acc[k]", tacc[k], 2 * x[0] * tx[0],
                1e-12, 1e-12);
    check_close("forward: tangent of acc[k+1]", tacc[k + 1],
                -cos(x[1]) * tx[1], 1e-12, 1e-12);
  }
  return check_done();
}
