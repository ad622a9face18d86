// Markers of other modes (the split-mode markers, enzyme_primal_return),
// a result declared too small for vector mode's gradients, and unknown
// enzyme_* globals are errors at the call naming the marker, not silently
// taken as values.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DMARKER=enzyme_primal_return -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RETURN %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DMARKER=enzyme_allocated -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ALLOCATED %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -DMARKER=enzyme_tape -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TAPE %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -DMARKER=enzyme_vectorized -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_width, enzyme_primal_return, enzyme_allocated, enzyme_tape;
extern int enzyme_vectorized;
double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

#ifndef MARKER
double vector_mode(double x, double dx1, double dx2) {
  // CHECK: {{.*}}unsupported-markers.c:[[@LINE+1]]:10: error: __enzyme_autodiff is declared to return 'double', which cannot hold the gradients of 'square' with 'enzyme_width, 2': 2 values (double, double); declare a struct with one field per value, in order (e.g. struct { double d[2]; })
  return __enzyme_autodiff((void *)square, enzyme_width, 2, x);
}
#else
double other_marker(double x) {
  // RETURN: {{.*}}unsupported-markers.c:[[@LINE+4]]:10: error: __enzyme_autodiff: 'enzyme_primal_return' is only meaningful in __enzyme_fwddiff and __enzyme_augmentfwd
  // ALLOCATED: {{.*}}unsupported-markers.c:[[@LINE+3]]:10: error: __enzyme_autodiff: 'enzyme_allocated' is only meaningful in split mode
  // TAPE: {{.*}}unsupported-markers.c:[[@LINE+2]]:10: error: __enzyme_autodiff: 'enzyme_tape' passes the tape to __enzyme_reverse; it is not meaningful here
  // UNKNOWN: {{.*}}unsupported-markers.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the marker 'enzyme_vectorized' is not supported here
  return __enzyme_autodiff((void *)square, MARKER, x);
}
#endif
