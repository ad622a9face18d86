// A float's bits changed as an integer in memory: `bits |= SIGN` on a
// variable whose address escapes (here to a function marked inactive), so
// that it stays in memory at -O0. The integer operation has no derivative;
// before, the derivative through it was silently lost (-0.7 where -1.4 is
// right). Now it is an error at the store; at -O2 the variable is a
// register and the operation the float negation it is.
// RUN: not %clang_enzyme -fenzyme -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t && %t | FileCheck %s --check-prefix=OPTIMISED
// CHECK: float-bits-changed-in-memory.c:[[#@LINE+26]]:{{[0-9]+}}: error: cannot differentiate 'g': cannot differentiate floats whose bits carry a derivative but are moved as integers with operations that split or mix them; move them as floating-point values, or give the function a custom derivative (the operation is at {{.*}}float-bits-changed-in-memory.c:[[#@LINE+17]]:5)
// OPTIMISED: -1.4
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) void observe(const void *p) {
  __asm__ volatile("" ::"r"(p) : "memory");
}
void *__enzyme_inactivefn[] = {(void *)observe};

float negativeMagnitude(float magnitude) {
  uint32_t m;
  memcpy(&m, &magnitude, sizeof m);
  observe(&m);
  m = m | 0x80000000u;
  float r;
  memcpy(&r, &m, sizeof r);
  return r;
}

double g(double x) { return x * negativeMagnitude((float)x); }

int main(void) {
  printf("%g\n", __enzyme_autodiff((void *)g, 0.7));
  return 0;
}
