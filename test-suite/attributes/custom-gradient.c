// enzyme("augment", aug) with enzyme("gradient", grad) on one function, on
// the same or on different redeclarations, registers
// `static void *__enzyme_register_gradient_*[3] = {f, aug, grad}`;
// enzyme("forward", fwd) registers
// `static void *__enzyme_register_derivative_*[2] = {f, fwd}`.
// RUN: %clang_enzyme -Werror -Wall -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -Werror -Wall -O0 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -O2 -S -emit-llvm -o - %s | grep llvm.compiler.used \
// RUN:   | tr ',' '\n' | FileCheck %s --check-prefix=USED
// RUN: %clang_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s

typedef struct {
  double value;
} tape_t;

tape_t aug_f(double x);
double rev_f(double x, double dret, tape_t tape);
double fwd_f(double x, double dx);

// One declaration carries both halves...
__attribute__((enzyme("augment", aug_f))) __attribute__((enzyme("gradient", rev_f)))
double f(double);
__attribute__((enzyme("forward", fwd_f))) double f(double);

// ... or each redeclaration one of them; the definition follows.
__attribute__((enzyme("augment", aug_f))) double g(double);
__attribute__((enzyme("gradient", &rev_f))) double g(double x) { return x; }

// The same pair again on a redeclaration registers once.
__attribute__((enzyme("augment", aug_f), enzyme("gradient", rev_f)))
double f(double);

double use(double x) { return f(x) + g(x); }

// CHECK-DAG: @__enzyme_register_gradient_f_{{[0-9]+}} = internal global [3 x ptr] [ptr @f, ptr @aug_f, ptr @rev_f]
// CHECK-DAG: @__enzyme_register_derivative_f_{{[0-9]+}} = internal global [2 x ptr] [ptr @f, ptr @fwd_f]
// CHECK-DAG: @__enzyme_register_gradient_g_{{[0-9]+}} = internal global [3 x ptr] [ptr @g, ptr @aug_f, ptr @rev_f]
// CHECK-NOT: @__enzyme_register_gradient_f_{{[0-9]+}} =

// USED: @llvm.compiler.used = appending global [3 x ptr]
// USED-DAG: @__enzyme_register_gradient_f_
// USED-DAG: @__enzyme_register_derivative_f_
// USED-DAG: @__enzyme_register_gradient_g_
