// Optimised code copies a double or a pointer with an integer load and
// store (a one-element memcpy); forward mode mirrors such copies on the
// shadows, so the tangent of a copied double and the shadow of a copied
// pointer travel with them.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup;
void __enzyme_fwddiff(void *, ...);

struct cell {
  double *data;
  double value;
};

static void f(const struct cell *in, struct cell *out, double *y) {
  double v;
  memcpy(&v, &in->value, sizeof v);      /* a double, as 8 bytes */
  memcpy(&out->data, &in->data, sizeof(double *)); /* a pointer, as 8 bytes */
  out->value = v * v;
  y[0] = out->data[0] * v;
  y[1] = out->data[1] + out->value;
}

int main(void) {
  double data[2] = {2.0, -1.0}, ddata[2] = {0.5, 3.0};
  struct cell in = {data, 1.5}, din = {ddata, 0.25};
  struct cell out = {0, 0}, dout = {0, 0};
  double y[2], dy[2] = {9, 9};
  __enzyme_fwddiff((void *)f, enzyme_dup, &in, &din, enzyme_dup, &out, &dout, enzyme_dup, y, dy);
  check_close("dout.value", dout.value, 2 * 1.5 * 0.25, 1e-15, 0);
  check_close("dout.data is the shadow", dout.data == ddata, 1, 0, 0);
  check_close("dy0", dy[0], 0.5 * 1.5 + 2.0 * 0.25, 1e-15, 0);
  check_close("dy1", dy[1], 3.0 + 2 * 1.5 * 0.25, 1e-15, 0);
  return check_done();
}
