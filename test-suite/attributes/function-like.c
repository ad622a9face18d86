// enzyme_function_like("name") registers
// `static void *__enzyme_function_like_*[2] = {f, "name"}`, the second
// element a pointer to a NUL-terminated string constant.
// RUN: %clang_enzyme -Werror -Wall -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s

__attribute__((enzyme_function_like("sin"))) double my_sin(double);
[[enzyme::enzyme_function_like("malloc")]] void *my_alloc(unsigned long);

double use(double x) { return my_sin(x) + (my_alloc(8) != 0); }

// CHECK-DAG: @[[SIN:[^ ]+]] = private unnamed_addr constant [4 x i8] c"sin\00"
// CHECK-DAG: @[[MALLOC:[^ ]+]] = private unnamed_addr constant [7 x i8] c"malloc\00"
// CHECK-DAG: @__enzyme_function_like_my_sin_{{[0-9]+}} = internal global [2 x ptr] [ptr @my_sin, ptr @[[SIN]]]
// CHECK-DAG: @__enzyme_function_like_my_alloc_{{[0-9]+}} = internal global [2 x ptr] [ptr @my_alloc, ptr @[[MALLOC]]]
// CHECK-DAG: @llvm.compiler.used = appending global [2 x ptr]
