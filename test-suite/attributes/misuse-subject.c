// Each attribute on something it cannot register is a clang error at the
// attribute, never a silently dropped registration.
// RUN: not %clang_enzyme -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

double g;

// CHECK: misuse-subject.c:[[@LINE+1]]:27: error: 'enzyme_inactive' attribute only applies to functions and global variables
void param(__attribute__((enzyme_inactive)) double p) {
  // CHECK: misuse-subject.c:[[@LINE+1]]:18: error: 'enzyme_inactive' attribute only applies to functions and global variables
  __attribute__((enzyme_inactive)) double local = p;
  (void)local;
}

// CHECK: misuse-subject.c:[[@LINE+1]]:23: error: 'enzyme_inactive' attribute only applies to functions and global variables
struct __attribute__((enzyme_inactive)) point {
  // CHECK: misuse-subject.c:[[@LINE+1]]:27: error: 'enzyme_inactive' attribute only applies to functions and global variables
  double x __attribute__((enzyme_inactive));
};

// CHECK: misuse-subject.c:[[@LINE+1]]:41: error: 'enzyme_inactive' cannot be applied to the thread-local variable 'tls'
_Thread_local double tls __attribute__((enzyme_inactive));

// CHECK: misuse-subject.c:[[@LINE+1]]:16: error: 'enzyme_shadow' attribute only applies to global and static variables
__attribute__((enzyme_shadow(g))) double not_a_variable(double);

// CHECK: misuse-subject.c:[[@LINE+1]]:38: error: 'enzyme_function_like' attribute only applies to functions
double not_a_function __attribute__((enzyme_function_like("sin")));

// CHECK: misuse-subject.c:[[@LINE+1]]:39: error: 'enzyme' attribute only applies to functions
double not_a_function2 __attribute__((enzyme("forward", param)));

// CHECK: misuse-subject.c:[[@LINE+1]]:16: error: 'enzyme_inactive' attribute takes no arguments
__attribute__((enzyme_inactive(1))) double with_argument(double);
