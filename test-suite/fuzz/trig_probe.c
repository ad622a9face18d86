/* The C fuzzer's trigonometry probe, linked (as a native object, outside
 * LTO) into every program the oracle checks. It stands in for libm's sin,
 * cos, tan and sincos in all precisions, forwards each call to libm and
 * remembers the largest argument it saw in fz_trig_max.
 *
 * Why: sin(X) of a huge X (X = 1e15 is common after a few squarings)
 * oscillates far faster than the finite-difference steps can follow, and
 * its term in J is bounded, so finite differences do not see it while its
 * derivative (cos(X) dX/dv, exact for the real function) is huge. The
 * oracle reads fz_trig_max around a primal run and classifies such a
 * program as unreliable instead of reporting the disagreement
 * (docs/reliability.md). The program under test is not changed: its calls
 * of sin still call sin; the engine still differentiates them by name. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

double fz_trig_max;

static void fz_note(long double x) {
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

#define FZ_WRAP(T, NAME)                                                       \
  T NAME(T x) {                                                                \
    static T (*real)(T);                                                       \
    if (!real)                                                                 \
      real = (T(*)(T))fz_libm(#NAME);                                          \
    fz_note(x);                                                                \
    return real(x);                                                            \
  }

#define FZ_WRAP_SINCOS(T, NAME)                                                \
  void NAME(T x, T *s, T *c) {                                                 \
    static void (*real)(T, T *, T *);                                          \
    if (!real)                                                                 \
      real = (void (*)(T, T *, T *))fz_libm(#NAME);                            \
    fz_note(x);                                                                \
    real(x, s, c);                                                             \
  }

FZ_WRAP(double, sin)
FZ_WRAP(double, cos)
FZ_WRAP(double, tan)
FZ_WRAP(float, sinf)
FZ_WRAP(float, cosf)
FZ_WRAP(float, tanf)
FZ_WRAP(long double, sinl)
FZ_WRAP(long double, cosl)
FZ_WRAP(long double, tanl)
FZ_WRAP_SINCOS(double, sincos)
FZ_WRAP_SINCOS(float, sincosf)
FZ_WRAP_SINCOS(long double, sincosl)
