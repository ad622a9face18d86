// Regression test: __enzyme_autodiff declared to return a struct
// whose first field is an int, for a function with two active doubles. The
// conversion stops at the first field it cannot convert and returns all
// zeros (both gradients lost, no diagnostic). Expected: an error at the call
// naming the field/type that cannot hold a gradient.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

struct grads { int dx; double dy; };
struct grads __enzyme_autodiff(void *, ...);

double product(double x, double y) { return x * y; }

struct grads bad(double x, double y) {
  // CHECK: {{.*}}return-struct-int-field.c:[[@LINE+1]]:10: error: {{.*}}__enzyme_autodiff{{.*}}'product'
  return __enzyme_autodiff((void *)product, x, y);
}
