/* The callee of link-request-sees-compile-time-body.c, in a file of its own
 * so that the request waits for the link. Its locals live on the stack, and
 * AddressSanitizer would move them to addresses computed from integers; its
 * loop is one the vectoriser takes. */
#include <string.h>

static void fill(double *t, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i] + 0.5 * x[i];
}

double weighted_squares(const double *x, int n) {
  double t[16];
  memset(t, 0, sizeof t);
  fill(t, x, n < 16 ? n : 16);
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += (1 + 0.25 * i) * t[i];
  return s;
}
