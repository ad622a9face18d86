// A request whose callee lives in another file is served at the -fenzyme
// link, on the bitcode the compilations embedded. That bitcode comes after
// the whole compile-time pipeline (vectorised; with sanitizers,
// instrumented), so each compilation also keeps the bodies as the engine
// saw them at compile time, and the link differentiates those. Under
// AddressSanitizer the locals of the instrumented callee live at addresses
// computed from integers, where derivatives cannot go: this request was an
// error before.
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -c %S/Inputs/link-body-helper.c -o %t/h0.o
// RUN: %clang_enzyme -fenzyme -O0 %s %t/h0.o -o %t/O0 -lm && %t/O0
// RUN: %clang_enzyme -fenzyme -O2 -c %S/Inputs/link-body-helper.c -o %t/h2.o
// RUN: %clang_enzyme -fenzyme -O2 %s %t/h2.o -o %t/O2 -lm && %t/O2
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all -c %S/Inputs/link-body-helper.c -o %t/a0.o
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s %t/a0.o -o %t/asan0 -lm && %t/asan0
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all -c %S/Inputs/link-body-helper.c -o %t/a2.o
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s %t/a2.o -o %t/asan2 -lm && %t/asan2
// The kept bodies are in the embedded bitcode, not in the native code that
// a link without -fenzyme uses.
// RUN: %llvm_bin/llvm-objcopy --dump-section=.llvm.lto=%t/a2.bc %t/a2.o
// RUN: %llvm_bin/llvm-dis %t/a2.bc -o - | FileCheck %s --check-prefix=BITCODE
// RUN: %llvm_bin/llvm-objdump -t %t/a2.o | FileCheck %s --check-prefix=NATIVE
// BITCODE: define {{.*}} @weighted_squares.enzyme.body({{.*}} #[[ATTRS:[0-9]+]]
// BITCODE: attributes #[[ATTRS]] = { {{.*}}noinline{{.*}}optnone
// BITCODE-NOT: sanitize_address{{.*}}optnone
// NATIVE: weighted_squares
// NATIVE-NOT: enzyme.body
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double weighted_squares(const double *x, int n); // in the other file

int main(void) {
  enum { N = 11 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.17 * i;
  __enzyme_autodiff((void *)weighted_squares, enzyme_dup, x, dx, enzyme_const,
                    (int)N);
  for (int i = 0; i < N; ++i)
    check_close("gradient", dx[i], (1 + 0.25 * i) * (2 * x[i] + 0.5),
                RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
