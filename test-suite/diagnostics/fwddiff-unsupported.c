// Forward and split modes are not implemented yet: each is an error at the
// call that names the entry point and says to use __enzyme_autodiff, never a
// crash or a call left for the linker.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DSPLIT -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SPLIT %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DSPLIT -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SPLIT %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_dup, enzyme_tape;
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double square(double x) { return x * x; }
void scale(double *x) { x[0] *= 3.0; }

#ifndef SPLIT
double tangent(double x, double dx) {
  // CHECK: {{.*}}fwddiff-unsupported.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: this mode is not supported yet; use __enzyme_autodiff
  return __enzyme_fwddiff((void *)square, x, dx);
}
#else
void split(double *x, double *dx) {
  // SPLIT: {{.*}}fwddiff-unsupported.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: this mode is not supported yet; use __enzyme_autodiff
  void *tape = __enzyme_augmentfwd((void *)scale, enzyme_dup, x, dx);
  // SPLIT: {{.*}}fwddiff-unsupported.c:[[@LINE+1]]:3: error: __enzyme_reverse: this mode is not supported yet; use __enzyme_autodiff
  __enzyme_reverse((void *)scale, enzyme_dup, x, dx, enzyme_tape, tape);
}
#endif
