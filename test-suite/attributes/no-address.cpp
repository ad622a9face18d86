// A deleted or consteval function has no address to register: an error at
// the attribute, found once the declaration is complete.
// RUN: not %clangxx_enzyme -std=c++20 -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

// CHECK: no-address.cpp:[[@LINE+1]]:16: error: 'deleted' is deleted and has no address to register
__attribute__((enzyme_inactive)) double deleted(double) = delete;

// CHECK: no-address.cpp:[[@LINE+1]]:16: error: 'immediate' is consteval and has no address to register
__attribute__((enzyme_function_like("sin"))) consteval double immediate(double x) {
  return x;
}
