// __enzyme_batch(f, enzyme_width, N, ...) evaluates f on N lanes and returns
// the N results. Per parameter: enzyme_vector and N values (one per lane; the
// default for an unmarked parameter), or enzyme_scalar and one value that all
// lanes share. Scalars, integers, floats, pointers (lane k gets pointer k),
// mixed shared and per-lane parameters, a width of 1, long double lanes,
// structs passed in memory, and a void function that writes through its
// lane pointers; every lane is checked against a direct call of f.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_width, enzyme_vector, enzyme_scalar;

typedef struct { double d[4]; } d4;
typedef struct { double a, b; } d2;
typedef struct { float v[8]; } f8;
d4 __enzyme_batch(void *, ...);
d2 __enzyme_batch_2(void *, ...); /* any name that starts __enzyme_batch */
f8 __enzyme_batch_f8(void *, ...);
double __enzyme_batch_1(void *, ...);
void __enzyme_batch_void(void *, ...);
typedef struct { long double v[2]; } ld2;
ld2 __enzyme_batch_ld(void *, ...);

#ifdef ENZYME_RT_SELFTEST
d2 __enzyme_batch_2(void *f, ...) { d2 r = {0}; (void)f; return r; }
f8 __enzyme_batch_f8(void *f, ...) { f8 r = {{0}}; (void)f; return r; }
double __enzyme_batch_1(void *f, ...) { (void)f; return 0.0; }
void __enzyme_batch_void(void *f, ...) { (void)f; }
ld2 __enzyme_batch_ld(void *f, ...) { ld2 r = {{0}}; (void)f; return r; }
#endif

double square_plus(double x, double a) { return x * x + a; }
double poly(double x, int k, double c) {
  double r = c;
  for (int i = 0; i < k; ++i)
    r = r * x + 1.0;
  return r;
}
double dot3(const double *p, const double *q) {
  return p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
}
float wave(float x, float s) { return sinf(x) * s; }
long double half(long double x) { return x / 3; }
// Passed in memory (byval): lane k gets struct k.
struct S5 { double a, b, c, d, e; };
double ends(struct S5 s) { return s.a * s.e; }
void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

#define CHECK(name, got, want) check_close(name, got, want, 1e-15, 0.0)

int main(void) {
  double x[4] = {0.5, -1.25, 2.0, 3.5};

  // Per-lane x, shared a.
  d4 r = __enzyme_batch((void *)square_plus, enzyme_width, 4, enzyme_vector,
                        x[0], x[1], x[2], x[3], enzyme_scalar, 0.25);
  for (int k = 0; k < 4; ++k)
    CHECK("square_plus vector/scalar", r.d[k], square_plus(x[k], 0.25));

  // Unmarked parameters take one value per lane.
  d4 u = __enzyme_batch((void *)square_plus, enzyme_width, 4, x[0], x[1],
                        x[2], x[3], 1.0, 2.0, 3.0, 4.0);
  for (int k = 0; k < 4; ++k)
    CHECK("square_plus unmarked", u.d[k], square_plus(x[k], 1.0 + k));

  // A shared first parameter, a struct of two fields.
  d2 s = __enzyme_batch_2((void *)square_plus, enzyme_width, 2, enzyme_scalar,
                          1.5, enzyme_vector, -1.0, 10.0);
  CHECK("shared x lane 0", s.a, square_plus(1.5, -1.0));
  CHECK("shared x lane 1", s.b, square_plus(1.5, 10.0));

  // Integers per lane.
  d4 p = __enzyme_batch((void *)poly, enzyme_width, 4, enzyme_scalar, 0.75,
                        enzyme_vector, 0, 1, 2, 5, enzyme_scalar, 2.0);
  for (int k = 0; k < 4; ++k)
    CHECK("poly", p.d[k], poly(0.75, (int[]){0, 1, 2, 5}[k], 2.0));

  // Pointers: lane k reads rows[k].
  double rows[4][3] = {{1, 2, 3}, {-1, 0.5, 4}, {0, 0, 1}, {2.5, -3, 0.125}};
  double q[3] = {0.5, -2.0, 3.0};
  d4 d = __enzyme_batch((void *)dot3, enzyme_width, 4, enzyme_vector, rows[0],
                        rows[1], rows[2], rows[3], enzyme_scalar, q);
  for (int k = 0; k < 4; ++k)
    CHECK("dot3", d.d[k], dot3(rows[k], q));

  // Floats: the variadic call promotes them to double, f takes float.
  float fx[8] = {0.1f, 0.2f, 0.3f, 0.4f, -0.5f, 1.5f, 2.5f, -3.0f};
  f8 w = __enzyme_batch_f8((void *)wave, enzyme_width, 8, enzyme_vector,
                           fx[0], fx[1], fx[2], fx[3], fx[4], fx[5], fx[6],
                           fx[7], enzyme_scalar, 2.0f);
  for (int k = 0; k < 8; ++k)
    CHECK("wave", w.v[k], wave(fx[k], 2.0f));

  // Width 1: one result, declared as a plain double.
  double one = __enzyme_batch_1((void *)square_plus, enzyme_width, 1, 3.0, 0.5);
  CHECK("width 1", one, square_plus(3.0, 0.5));

  // long double lanes travel as an array, not a vector.
  ld2 l = __enzyme_batch_ld((void *)half, enzyme_width, 2, 1.0L, -7.0L);
  check_close("long double 0", (double)l.v[0], (double)half(1.0L), 0.0, 0.0);
  check_close("long double 1", (double)l.v[1], (double)half(-7.0L), 0.0, 0.0);

  // Structs passed in memory.
  struct S5 s5a = {1, 2, 3, 4, 5}, s5b = {-1, 0, 0, 0, 0.5};
  d2 e = __enzyme_batch_2((void *)ends, enzyme_width, 2, s5a, s5b);
  CHECK("struct lane 0", e.a, ends(s5a));
  CHECK("struct lane 1", e.b, ends(s5b));

  // A void function writing through per-lane pointers.
  double ys[4][3] = {{0}}, want[4][3] = {{0}};
  double xs[3] = {1.0, -2.0, 0.5};
  __enzyme_batch_void((void *)axpy, enzyme_width, 4, enzyme_vector, ys[0],
                      ys[1], ys[2], ys[3], enzyme_scalar, xs, enzyme_vector,
                      1.0, 2.0, -0.5, 4.0, enzyme_scalar, 3);
  for (int k = 0; k < 4; ++k) {
    axpy(want[k], xs, (double[]){1.0, 2.0, -0.5, 4.0}[k], 3);
    for (int i = 0; i < 3; ++i)
      CHECK("axpy", ys[k][i], want[k][i]);
  }
  return check_done();
}
