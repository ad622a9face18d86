// enzyme_inactive on a global or static variable registers its address in
// `static void *__enzyme_inactive_global_*[1]`.
// RUN: %clang_enzyme -Werror -Wall -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -O2 -S -emit-llvm -o - %s | grep llvm.compiler.used \
// RUN:   | tr ',' '\n' | FileCheck %s --check-prefix=USED
// RUN: %clang_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s

__attribute__((enzyme_inactive)) int calls;
extern double table[16] __attribute__((enzyme_inactive));
static const double scale __attribute__((enzyme_inactive)) = 2.0;

double next(double x) {
  // A function-local static is a global too.
  static double last __attribute__((enzyme_inactive));
  double previous = last;
  last = x;
  ++calls;
  return previous + table[calls & 15] * scale * x;
}

// CHECK-DAG: @__enzyme_inactive_global_calls_{{[0-9]+}} = internal global [1 x ptr] [ptr @calls]
// CHECK-DAG: @__enzyme_inactive_global_table_{{[0-9]+}} = internal global [1 x ptr] [ptr @table]
// CHECK-DAG: @__enzyme_inactive_global_scale_{{[0-9]+}} = internal global [1 x ptr] [ptr @scale]
// CHECK-DAG: @__enzyme_inactive_global_last_{{[0-9]+}} = internal global [1 x ptr] [ptr @next.last]

// USED: @llvm.compiler.used = appending global [4 x ptr]
// USED-DAG: @__enzyme_inactive_global_calls_
// USED-DAG: @__enzyme_inactive_global_table_
// USED-DAG: @__enzyme_inactive_global_scale_
// USED-DAG: @__enzyme_inactive_global_last_
