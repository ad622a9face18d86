// With several active scalars __enzyme_autodiff returns a struct with one
// field per active argument. Declaring it to return a double, or a struct
// with fewer fields, is an error at the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DSTRUCT -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STRUCT %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DSTRUCT -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STRUCT %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

double product(double x, double y) { return x * y; }
double product3(double x, double y, double z) { return x * y * z; }

#ifndef STRUCT
double __enzyme_autodiff(void *, ...);

double bad(double x, double y) {
  // CHECK: {{.*}}struct-return-too-few-fields.c:[[@LINE+1]]:10: error: __enzyme_autodiff is declared to return 'double', but the gradients of 'product' are 2 values (double, double); declare it to return that type (one value) or a struct with one field per value, in order
  return __enzyme_autodiff((void *)product, x, y);
}
#else
typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

grad2 bad(double x, double y, double z) {
  // STRUCT: {{.*}}struct-return-too-few-fields.c:[[@LINE+1]]:10: error: __enzyme_autodiff is declared to return an aggregate of 2 fields, but the gradients of 'product3' are 3 values
  return __enzyme_autodiff((void *)product3, x, y, z);
}
#endif
