// enzyme_shadow(shadow) on a global registers
// `static void *__enzyme_shadow_global_*[2] = {&global, &shadow}`.
// RUN: %clang_enzyme -Werror -Wall -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clang_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s

double weights_shadow[8];
double weights[8] __attribute__((enzyme_shadow(weights_shadow)));

// Qualifiers may differ; the type may not.
static double bias_shadow;
const double bias __attribute__((enzyme_shadow(bias_shadow))) = 1.0;

double predict(const double *x) {
  double sum = bias;
  for (int i = 0; i < 8; ++i)
    sum += weights[i] * x[i];
  return sum;
}

// CHECK-DAG: @__enzyme_shadow_global_weights_{{[0-9]+}} = internal global [2 x ptr] [ptr @weights, ptr @weights_shadow]
// CHECK-DAG: @__enzyme_shadow_global_bias_{{[0-9]+}} = internal global [2 x ptr] [ptr @bias, ptr @bias_shadow]
// CHECK-DAG: @llvm.compiler.used = appending global [2 x ptr]
