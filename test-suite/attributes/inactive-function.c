// enzyme_inactive on a function (declaration or definition) registers it in
// a `static void *__enzyme_inactivefn_*[1]`, kept in @llvm.compiler.used at
// every -O level and written to the object file.
// RUN: %clang_enzyme -Werror -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -Werror -O0 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -O2 -S -emit-llvm -o - %s | grep llvm.compiler.used \
// RUN:   | tr ',' '\n' | FileCheck %s --check-prefix=USED
// The attribute is known with and without -fenzyme: no unknown-attribute
// warning either way.
// RUN: %clang_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s
// RUN: %clang_enzyme -Werror -Wall -O2 -c -o %t.o %s
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJECT

__attribute__((enzyme_inactive)) void log_value(double);

// A static function that nothing calls is still emitted, without an
// unused-function warning: the registration takes its address.
static __attribute__((enzyme_inactive)) double helper(double x) { return x; }

// The C23 spelling.
[[enzyme::enzyme_inactive]] int counter(void);

double square(double x) {
  log_value(x);
  return x * x;
}

// CHECK-DAG: @__enzyme_inactivefn_log_value_{{[0-9]+}} = internal global [1 x ptr] [ptr @log_value]
// CHECK-DAG: @__enzyme_inactivefn_helper_{{[0-9]+}} = internal global [1 x ptr] [ptr @helper]
// CHECK-DAG: @__enzyme_inactivefn_counter_{{[0-9]+}} = internal global [1 x ptr] [ptr @counter]
// CHECK-DAG: define internal {{.*}}double @helper(

// USED: @llvm.compiler.used = appending global [3 x ptr]
// USED-DAG: @__enzyme_inactivefn_log_value_
// USED-DAG: @__enzyme_inactivefn_helper_
// USED-DAG: @__enzyme_inactivefn_counter_

// OBJECT-DAG: d __enzyme_inactivefn_log_value_
// OBJECT-DAG: d __enzyme_inactivefn_helper_
// OBJECT-DAG: t helper
