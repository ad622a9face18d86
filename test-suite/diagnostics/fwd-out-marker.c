// enzyme_out is a reverse-mode activity: in __enzyme_fwddiff it is an error
// at the call that says to pass the scalar with enzyme_dup and a tangent.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);

double square(double x) { return x * x; }

double tangent(double x) {
  // CHECK: {{.*}}fwd-out-marker.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: enzyme_out {{.*}}enzyme_dup{{.*}}tangent
  return __enzyme_fwddiff((void *)square, enzyme_out, x);
}
