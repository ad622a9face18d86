// Forward mode of a function that calls one without a body and without a
// derivative rule: at compile time with -fenzyme the request waits for the
// link (the definition may come from another -fenzyme object); an -fenzyme
// link without it is an error at the __enzyme_fwddiff call that names both
// functions and says what to do, with the offending call located.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -g -c %s -o %t/O0.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// RUN: %clang_enzyme -fenzyme -O2 -g -c %s -o %t/O2.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// COMPILE-NOT: error
// RUN: not %clang_enzyme -fenzyme -O0 -g %t/O0.o -o %t/O0.exe -lm 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g %t/O2.o -o %t/O2.exe -lm 2>&1 | FileCheck %s %{no-crash}

double __enzyme_fwddiff(void *, ...);

double model(double); // no definition anywhere

double f(double x) {
  return model(x) * x; // the offending call (line 19, column 10)
}

int main(void) {
  // CHECK: ld.lld: error: {{.*}}fwd-undefined-callee.c:[[@LINE+3]]:10: {{(in function .*: )?}}cannot differentiate 'f':
  // CHECK-SAME: cannot differentiate a call to 'model': it has no definition in this module and no derivative rule; compile the file that defines it with -fenzyme and link with -fenzyme, or mark it inactive (__enzyme_inactivefn)
  // CHECK-SAME: (the operation is at {{.*}}fwd-undefined-callee.c:19:10)
  return __enzyme_fwddiff((void *)f, 2.0, 1.0) > 0;
}
// CHECK: linker command failed
