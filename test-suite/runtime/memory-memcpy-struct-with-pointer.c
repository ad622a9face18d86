// Copying a struct that holds a double, a pointer and an int (memcpy at -O0,
// a memcpy or field copies when optimised) must take the pointer's shadow
// along, and return the double's adjoint to the source, without treating
// the shadow pointer's bits as a derivative.
//   f = dst.w * 2 + sum_i dst.data[i]^2   after   *dst = *src
// so d/dsrc.w = 2 and d/ddata[i] = 2 data[i].
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

struct item {
  double w;
  double *data;
  int n;
};

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double f(struct item *dst, const struct item *src) {
  memcpy(dst, src, sizeof *dst);
  double s = dst->w * 2.0;
  for (int i = 0; i < dst->n; i++)
    s += dst->data[i] * dst->data[i];
  return s;
}

int main(void) {
  double data[3] = {0.5, -1.5, 2.0}, ddata[3] = {0, 0, 0};
  struct item src = {1.25, data, 3}, dsrc = {0.0, ddata, 0};
  struct item dst, ddst = {0.0, NULL, 0};
  memset(&dst, 0, sizeof dst);
  __enzyme_autodiff((void *)f, enzyme_dup, &dst, &ddst, enzyme_dup, &src,
                    &dsrc);
  check_close("d/dsrc.w", dsrc.w, 2.0, RTOL_EXACT, ATOL_EXACT);
  for (int i = 0; i < 3; i++)
    check_close("d/ddata[i]", ddata[i], 2 * data[i], RTOL_EXACT, ATOL_EXACT);
  check_close("shadow pointer untouched", (double)(dsrc.data == ddata), 1.0,
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
