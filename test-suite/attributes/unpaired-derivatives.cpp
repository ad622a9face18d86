// enzyme("augment") and enzyme("gradient") come in pairs per function (on
// any of its declarations); a missing half, or two different functions for
// one key, is an error at the end of the translation unit, at the attribute.
// RUN: not %clangxx_enzyme -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// Without -fsyntax-only no code is generated either.
// RUN: not %clangxx_enzyme -c -o %t.o %s

double aug(double);
double rev(double);
double other(double);

// CHECK-DAG: unpaired-derivatives.cpp:[[@LINE+1]]:16: error: enzyme("augment") needs a matching enzyme("gradient") on 'only_augment'
__attribute__((enzyme("augment", aug))) double only_augment(double);

// CHECK-DAG: unpaired-derivatives.cpp:[[@LINE+1]]:16: error: enzyme("gradient") needs a matching enzyme("augment") on 'only_gradient'
__attribute__((enzyme("gradient", rev))) double only_gradient(double);
double only_gradient(double x) { return x; }

// The pair may be split over redeclarations: no error here.
__attribute__((enzyme("augment", aug))) double split(double);
__attribute__((enzyme("gradient", rev))) double split(double);

__attribute__((enzyme("forward", aug))) double twice(double);
// CHECK-DAG: unpaired-derivatives.cpp:[[@LINE+2]]:16: error: conflicting enzyme("forward") attributes on 'twice': 'other' here, 'aug' before
// CHECK-DAG: unpaired-derivatives.cpp:[[@LINE-2]]:16: note: previous enzyme("forward") attribute is here
__attribute__((enzyme("forward", other))) double twice(double);

// CHECK-DAG: unpaired-derivatives.cpp:[[@LINE+1]]:35: error: enzyme("forward") on a function template is not supported; write it on an explicit specialization
template <class T> __attribute__((enzyme("forward", aug))) T generic(T);
