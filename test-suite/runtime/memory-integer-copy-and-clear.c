// Optimised code moves one double, one pointer or one int as an integer:
// memcpy(y, x, 8) becomes `store i64 (load i64 x), y` and memset(y, 0, 8)
// becomes `store i64 0, y`. Each must keep the meaning of the copy it came
// from (found by the C fuzzer, seeds 82, 85, 1340, 1589):
//  - a copied double moves its adjoint back to the source;
//  - a cleared double passes no adjoint to what was stored there before;
//  - a copied pointer takes its shadow along, also where only a callee or a
//    caller of the copying function reads it;
//  - an int is neither an adjoint nor cleared: the caller's shadow keeps it.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* y[0] = x[0]: dy[0] goes to dx[0] and is consumed. */
void copy_one(double *y, double *x) { memcpy(y, x, sizeof(double)); }

/* y[0] = flag ? sin(x0) : x0, copied with memcpy: at -O2 the copy stores a
 * phi of i64 (the loaded bits, or the stored double forwarded as a bitcast;
 * seed 1340). dy/dx0 = cos(x0) or 1. */
void cond_copy(double *y, double *x, int flag) {
  if (flag)
    x[0] = sin(x[0]);
  memcpy(y, x, sizeof(double));
}

/* y[0] = x0 x1, then cleared: no adjoint reaches x, dy[0] is consumed. */
void clear_one(double *y, double *x) {
  y[0] = x[0] * x[1];
  memset(y, 0, sizeof(double));
}

/* L[i] = x[i]^2; L[0] cleared; y = sum L: dy/dx = (0, 2 x1). */
void clear_local(double *x, double *y, int n) {
  double L[2];
  for (int i = 0; i < n; i++)
    L[i] = x[i] * x[i];
  memset(L, 0, sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += L[i];
  *y = s;
}

/* A struct of one pointer copied by memcpy: at -O1 and up the pointer moves
 * as an i64 (load, inttoptr; store to the destination), and the shadow side
 * must move the shadow pointer the same way. */
struct box {
  double *p;
};
double through_box(struct box *dst, const struct box *src) {
  memcpy(dst, src, sizeof *dst);
  return dst->p[0] * dst->p[1];
}
__attribute__((noinline)) double read_box(const struct box *b) {
  return b->p[0] + b->p[1];
}
double copy_then_call(struct box *dst, const struct box *src) {
  memcpy(dst, src, sizeof *dst);
  return read_box(dst);
}
/* Only the caller of the copying helper reads the pointer. */
__attribute__((noinline)) void copy_box(struct box *dst,
                                        const struct box *src) {
  memcpy(dst, src, sizeof *dst);
}
double call_then_read(const struct box *src) {
  struct box b;
  copy_box(&b, src);
  return b.p[0] * b.p[1] * b.p[1];
}

/* An int beside the float, reset in a helper: not an adjoint, and the
 * caller's shadow keeps its value. */
struct counted {
  int uses;
  float w;
};
__attribute__((noinline)) void reset(struct counted *c) { c->uses = 0; }
double use_counted(struct counted *c, double *x) {
  reset(c);
  c->uses++;
  return c->w * x[0];
}

int main(void) {
  double x[2] = {3, 5}, dx[2] = {0, 0}, y[2] = {0, 0}, dy[2] = {1, 1};
  __enzyme_autodiff((void *)copy_one, enzyme_dup, y, dy, enzyme_dup, x, dx);
  check_close("copy: dx[0]", dx[0], 1.0, RTOL_EXACT, ATOL_EXACT);
  check_close("copy: dy[0] consumed", dy[0], 0.0, RTOL_EXACT, ATOL_EXACT);

  for (int flag = 0; flag < 2; flag++) {
    double xc[1] = {0.5}, dxc[1] = {0}, yc[1] = {0}, dyc[1] = {1};
    __enzyme_autodiff((void *)cond_copy, enzyme_dup, yc, dyc, enzyme_dup, xc,
                      dxc, enzyme_const, flag);
    check_close("cond copy: dx", dxc[0], flag ? cos(0.5) : 1.0, RTOL_EXACT,
                ATOL_EXACT);
    check_close("cond copy: dy consumed", dyc[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  }

  dx[0] = dx[1] = 0;
  dy[0] = dy[1] = 1;
  __enzyme_autodiff((void *)clear_one, enzyme_dup, y, dy, enzyme_dup, x, dx);
  check_close("clear: dy[0] consumed", dy[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  check_close("clear: dx[0]", dx[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  check_close("clear: dx[1]", dx[1], 0.0, RTOL_EXACT, ATOL_EXACT);

  dx[0] = dx[1] = 0;
  dy[0] = 1;
  __enzyme_autodiff((void *)clear_local, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, 2);
  check_close("local: dx[0]", dx[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  check_close("local: dx[1]", dx[1], 2 * x[1], RTOL_EXACT, ATOL_EXACT);

  dx[0] = dx[1] = 0;
  struct box src = {x}, dsrc = {dx}, dst = {NULL}, ddst = {NULL};
  __enzyme_autodiff((void *)through_box, enzyme_dup, &dst, &ddst, enzyme_dup,
                    &src, &dsrc);
  check_close("box: dx[0]", dx[0], x[1], RTOL_EXACT, ATOL_EXACT);
  check_close("box: dx[1]", dx[1], x[0], RTOL_EXACT, ATOL_EXACT);
  check_close("box: dsrc.p kept", (double)(dsrc.p == dx), 1.0, RTOL_EXACT,
              ATOL_EXACT);

  dx[0] = dx[1] = 0;
  dst.p = ddst.p = NULL;
  __enzyme_autodiff((void *)copy_then_call, enzyme_dup, &dst, &ddst,
                    enzyme_dup, &src, &dsrc);
  check_close("box call: dx[0]", dx[0], 1.0, RTOL_EXACT, ATOL_EXACT);
  check_close("box call: dx[1]", dx[1], 1.0, RTOL_EXACT, ATOL_EXACT);
  check_close("box call: shadow copied", (double)(ddst.p == dx), 1.0,
              RTOL_EXACT, ATOL_EXACT);

  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)call_then_read, enzyme_dup, &src, &dsrc);
  check_close("box helper: dx[0]", dx[0], x[1] * x[1], RTOL_EXACT,
              ATOL_EXACT);
  check_close("box helper: dx[1]", dx[1], 2 * x[0] * x[1], RTOL_EXACT,
              ATOL_EXACT);

  dx[0] = 0;
  struct counted c = {7, 1.5f}, dc = {7, 0.0f};
  __enzyme_autodiff((void *)use_counted, enzyme_dup, &c, &dc, enzyme_dup, x,
                    dx);
  check_close("counted: dx[0]", dx[0], 1.5, RTOL_EXACT, ATOL_EXACT);
  check_close("counted: dc.w", dc.w, x[0], RTOL_EXACT, ATOL_EXACT);
  check_close("counted: shadow int kept", dc.uses, 7, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
