// What a copy or an integer store of memory with derivatives means in
// reverse mode depends on what the bytes hold; the engine does not guess
// (docs/reverse-mode.md, "Memory copied without a type"):
//  - integer bits stored over a double end its derivative, whether or not
//    anything says the memory is a double (at -O0 the store's own integer
//    arithmetic was taken as proof that the bytes were integers, and the
//    derivative of the overwritten double went on to x*x: 7 instead of 1);
//  - a copy of byte buffers (char arrays say nothing about what they
//    hold) compiles, costs nothing while it does not run, moves nothing
//    when it runs with zero shadows at both ends (whatever the bytes hold,
//    there is nothing to move), and stops the program with a message
//    naming the function and the copy when it runs with shadows that are
//    not zero (a seeded output);
//  - annotated with __enzyme_double (where the buffers are made), the same
//    copy moves the derivatives of the doubles it copies.
// The pointer-cast store is a strict-aliasing violation, so the optimised
// build that checks it has -fno-strict-aliasing.
// RUN: %clang_enzyme -fenzyme -O0 -g %s -o %t -lm && %t && not --crash %t copy 2>&1 | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 -g -fno-strict-aliasing %s -o %t -lm && %t && not --crash %t copy 2>&1 | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 -g -DSTRICT_ALIASING %s -o %t -lm && %t && not --crash %t copy 2>&1 | FileCheck %s
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void __enzyme_double(void *, unsigned long);

/* The double *p is overwritten with integer bits computed here. */
__attribute__((noinline)) static void overwrite(void *p, long k) { *(long *)p = 3 * k; }

double overwritten(double x) {
  double d = x * x;
  overwrite(&d, 14);
  return d + x; /* d no longer depends on x: d/dx = 1 */
}

/* Byte buffers in, byte buffers out. */
void move_bytes(unsigned char *out, const unsigned char *in, int copy) {
  if (copy)
    // CHECK: enzyme: the derivative of 'move_bytes' copied 16 bytes of memory with derivatives whose shadow is not zero at {{.*}}memory-untyped-bytes.c:[[@LINE+1]]:{{[0-9]+}}, and nothing in the program says whether they hold floating-point values
    memcpy(out, in, 16);
}

/* The same, for buffers the caller says hold doubles. */
void move_doubles(unsigned char *out, const unsigned char *in) { memcpy(out, in, 16); }

int main(int argc, char **argv) {
  if (argc > 1) {
    _Alignas(8) unsigned char in[16], out[16], din[16], dout[16];
    double one = 1.0;
    memset(in, 0, sizeof in);
    memset(din, 0, sizeof din);
    memcpy(dout, &one, sizeof one);
    memcpy(dout + 8, &one, sizeof one);
    __enzyme_autodiff((void *)move_bytes, enzyme_dup, out, dout, enzyme_dup, in, din,
                      enzyme_const, 1);
    return 0; /* not reached: the copy stops the program */
  }
#ifndef STRICT_ALIASING
  double x = 3.0;
  check_grad("integer bits over a double", __enzyme_autodiff((void *)overwritten, x), 1.0,
             fd_diff1(overwritten, x));
#endif
  /* The copy does not run: its derivative is computed, and is zero. */
  _Alignas(8) unsigned char in[16] = {0}, out[16] = {0}, din[16] = {0}, dout[16] = {0};
  __enzyme_autodiff((void *)move_bytes, enzyme_dup, out, dout, enzyme_dup, in, din,
                    enzyme_const, 0);
  double d0;
  memcpy(&d0, din, sizeof d0);
  check_close("copy not taken", d0, 0.0, RTOL_EXACT, ATOL_EXACT);

  /* The copy runs with zero shadows: nothing to move, whatever it holds. */
  __enzyme_autodiff((void *)move_bytes, enzyme_dup, out, dout, enzyme_dup, in, din,
                    enzyme_const, 1);
  memcpy(&d0, din, sizeof d0);
  check_close("copy taken, zero shadows", d0, 0.0, RTOL_EXACT, ATOL_EXACT);

  /* Annotated: the adjoints of out move back to in, and out's are used up. */
  _Alignas(8) unsigned char ain[16] = {0}, aout[16], dain[16] = {0}, daout[16];
  __enzyme_double(ain, sizeof ain);
  __enzyme_double(aout, sizeof aout);
  double seed[2] = {2.0, 3.0}, moved[2], left[2];
  memcpy(daout, seed, sizeof seed);
  __enzyme_autodiff((void *)move_doubles, enzyme_dup, aout, daout, enzyme_dup, ain, dain);
  memcpy(moved, dain, sizeof moved);
  memcpy(left, daout, sizeof left);
  check_close("annotated copy: d in[0]", moved[0], 2.0, RTOL_EXACT, ATOL_EXACT);
  check_close("annotated copy: d in[1]", moved[1], 3.0, RTOL_EXACT, ATOL_EXACT);
  check_close("annotated copy: d out[0] used up", left[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
