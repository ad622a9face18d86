// Wrong arguments to the attributes are clang errors at the argument (or
// the attribute), with the accepted forms in the message.
// RUN: not %clangxx_enzyme -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

double aug(double);
double rev(double);
double overloaded(double);
float overloaded(float);
template <class T> T generic(T);
double variable;
struct Solver {
  double step(double);
  static double fwd(double, double);
};

// CHECK: misuse-arguments.cpp:[[@LINE+1]]:23: error: the first argument of 'enzyme' must be "augment", "gradient" or "forward", not "reverse"
__attribute__((enzyme("reverse", rev))) double f1(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:23: error: the first argument of 'enzyme' must be "augment", "gradient" or "forward"{{$}}
__attribute__((enzyme(1, rev))) double f2(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:16: error: 'enzyme' attribute requires exactly 2 arguments
__attribute__((enzyme("forward"))) double f3(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:34: error: 'overloaded' does not name exactly one function; declare a function with its own name for 'enzyme'
__attribute__((enzyme("forward", overloaded))) double f4(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:34: error: 'generic' does not name exactly one function; declare a function with its own name for 'enzyme'
__attribute__((enzyme("forward", generic))) double f5(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:34: error: argument 2 of 'enzyme' must name a function
__attribute__((enzyme("forward", variable))) double f6(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:35: error: enzyme attributes on non-static member functions are not supported
__attribute__((enzyme("forward", &Solver::step))) double f7(double);

struct Model {
  // CHECK: misuse-arguments.cpp:[[@LINE+1]]:18: error: enzyme attributes on non-static member functions are not supported
  __attribute__((enzyme("forward", Solver::fwd))) double step(double);
  // CHECK: misuse-arguments.cpp:[[@LINE+1]]:18: error: enzyme attributes on non-static member functions are not supported
  __attribute__((enzyme_inactive)) void log();
};

template <class T> struct Box {
  // CHECK: misuse-arguments.cpp:[[@LINE+1]]:18: error: enzyme attributes on members of class templates are not supported; write 'enzyme_inactive' on a namespace-scope function or variable
  __attribute__((enzyme_inactive)) static T get();
};

// CHECK: misuse-arguments.cpp:[[@LINE+1]]:16: error: the argument of 'enzyme_function_like' must be a string literal naming a function, such as "sin"
__attribute__((enzyme_function_like(sin))) double f8(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:16: error: the argument of 'enzyme_function_like' must be a string literal naming a function, such as "sin"
__attribute__((enzyme_function_like(""))) double f9(double);
// CHECK: misuse-arguments.cpp:[[@LINE+1]]:40: error: the argument of 'enzyme_shadow' must name a global variable
double g1 __attribute__((enzyme_shadow(aug)));
