// The float forms atan2f powf hypotf fminf fmaxf fmaf copysignf, each with
// one argument active and the other(s) enzyme_const. The variadic template
// keeps float arguments float (a C `...` would promote them to double).
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_const, enzyme_out;

static float f_atan2f(float y, float x) { return atan2f(y, x); }
static float f_powf(float x, float y) { return powf(x, y); }
static float f_hypotf(float x, float y) { return hypotf(x, y); }
static float f_fminf(float x, float y) { return fminf(x, y); }
static float f_fmaxf(float x, float y) { return fmaxf(x, y); }
static float f_copysignf(float x, float y) { return copysignf(x, y); }
static float f_fmaf(float x, float y, float z) { return fmaf(x, y, z); }

/* d/d(first) with the second const, and d/d(second) with the first const. */
template <typename F>
static void check2(const char *name, F fn, float a, float b, double da, double db) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s d/d1", name);
  check_close(buf, __enzyme_autodiff<float>(fn, enzyme_out, a, enzyme_const, b), da, 1e-5, 1e-6);
  snprintf(buf, sizeof buf, "%s d/d2", name);
  check_close(buf, __enzyme_autodiff<float>(fn, enzyme_const, a, enzyme_out, b), db, 1e-5, 1e-6);
}

int main() {
  float a = 1.5f, b = -0.75f;
  double x = a, y = b, r2 = x * x + y * y;
  check2("atan2f", f_atan2f, a, b, y / r2, -x / r2);
  check2("powf", f_powf, a, b, y * pow(x, y - 1), pow(x, y) * log(x));
  check2("hypotf", f_hypotf, a, b, x / sqrt(r2), y / sqrt(r2));
  check2("fminf", f_fminf, a, b, x < y ? 1.0 : 0.0, x < y ? 0.0 : 1.0);
  check2("fmaxf", f_fmaxf, a, b, x > y ? 1.0 : 0.0, x > y ? 0.0 : 1.0);
  check2("copysignf", f_copysignf, a, b, (x > 0) == (y > 0) ? 1.0 : -1.0, 0.0);

  float c = 2.25f;
  check_close("fmaf d/dx", __enzyme_autodiff<float>(f_fmaf, enzyme_out, a, enzyme_const, b,
                                                    enzyme_const, c), y, 1e-6, 1e-6);
  check_close("fmaf d/dz", __enzyme_autodiff<float>(f_fmaf, enzyme_const, a, enzyme_const, b,
                                                    enzyme_out, c), 1.0, 1e-6, 1e-6);
  return check_done();
}
