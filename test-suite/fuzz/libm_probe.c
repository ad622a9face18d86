/* The C fuzzer's libm probe, linked (as a native object, outside LTO) into
 * every program the oracle checks. It stands in for some of libm's
 * functions, forwards each call to libm, and records two things the finite
 * differences cannot see (docs/reliability.md, "The oracle"):
 *
 * fz_trig_max, the largest argument of sin, cos, tan and sincos. sin(X) of
 * a huge X (X = 1e15 is common after a few squarings) oscillates far
 * faster than the steps can follow, and its term in J is bounded, so finite
 * differences do not see it while its derivative (cos(X) dX/dv, exact for
 * the real function) is huge.
 *
 * fz_singular, the number of calls at a point where the function's
 * derivative is infinite although its value is finite: pow(0, y) with
 * 0 < y < 1, cbrt(0), asin and acos at -1 or 1. The chain rule breaks
 * there: an infinite partial times a zero one is NaN, as in Enzyme, even
 * where the composition is flat. (sqrt is compiled inline and not seen.)
 *
 * The program under test is not changed: its calls still call libm's
 * names, and the engine still differentiates them by name. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

double fz_trig_max;
long fz_singular;

static void fz_note_trig(long double x) {
  if (x < 0)
    x = -x;
  if (x > fz_trig_max) /* false for NaN */
    fz_trig_max = (double)x;
}

static void *fz_libm(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f)
    abort();
  return f;
}

#define FZ_WRAP1(T, NAME, NOTE)                                                \
  T NAME(T x) {                                                                \
    static T (*real)(T);                                                       \
    if (!real)                                                                 \
      real = (T(*)(T))fz_libm(#NAME);                                          \
    NOTE;                                                                      \
    return real(x);                                                            \
  }

#define FZ_WRAP_SINCOS(T, NAME)                                                \
  void NAME(T x, T *s, T *c) {                                                 \
    static void (*real)(T, T *, T *);                                          \
    if (!real)                                                                 \
      real = (void (*)(T, T *, T *))fz_libm(#NAME);                            \
    fz_note_trig(x);                                                           \
    real(x, s, c);                                                             \
  }

#define FZ_WRAP_POW(T, NAME)                                                   \
  T NAME(T x, T y) {                                                           \
    static T (*real)(T, T);                                                    \
    if (!real)                                                                 \
      real = (T(*)(T, T))fz_libm(#NAME);                                       \
    if (x == 0 && y > 0 && y < 1)                                              \
      fz_singular++;                                                           \
    return real(x, y);                                                         \
  }

#define FZ_TRIG fz_note_trig(x)
#define FZ_AT_ZERO                                                             \
  if (x == 0)                                                                  \
  fz_singular++
#define FZ_AT_ONE                                                              \
  if (x == 1 || x == -1)                                                       \
  fz_singular++

#define FZ_WRAP_ALL(T, S)                                                      \
  FZ_WRAP1(T, sin##S, FZ_TRIG)                                                 \
  FZ_WRAP1(T, cos##S, FZ_TRIG)                                                 \
  FZ_WRAP1(T, tan##S, FZ_TRIG)                                                 \
  FZ_WRAP1(T, cbrt##S, FZ_AT_ZERO)                                             \
  FZ_WRAP1(T, asin##S, FZ_AT_ONE)                                              \
  FZ_WRAP1(T, acos##S, FZ_AT_ONE)                                              \
  FZ_WRAP_SINCOS(T, sincos##S)                                                 \
  FZ_WRAP_POW(T, pow##S)

FZ_WRAP_ALL(double, )
FZ_WRAP_ALL(float, f)
FZ_WRAP_ALL(long double, l)
