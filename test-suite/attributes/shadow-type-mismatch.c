// A shadow must have the type of its global; the error names both types.
// RUN: not %clang_enzyme -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

float single_shadow;
double values[4];
double values_shadow[3];

// CHECK: shadow-type-mismatch.c:[[@LINE+1]]:39: error: the shadow 'single_shadow' has type 'float', but 'x' has type 'double'; a shadow must have the type of its variable
double x __attribute__((enzyme_shadow(single_shadow)));

// CHECK: shadow-type-mismatch.c:[[@LINE+1]]:42: error: the shadow 'values_shadow' has type 'double[3]', but 'y' has type 'double[4]'; a shadow must have the type of its variable
double y[4] __attribute__((enzyme_shadow(values_shadow)));
