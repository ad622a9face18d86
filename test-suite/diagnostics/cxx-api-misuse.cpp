// <enzyme/enzyme> turns misuses it can see at compile time into one
// static_assert each, with a message that says what to write instead (and
// no cascade of further errors), rather than a request the engine would
// reject or, worse, a silently wrong derivative.
//
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=1 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=UNWRAPPED %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=2 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ACTIVE-INT %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=3 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DUP-SCALAR %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=4 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DUP-COPY %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=5 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ARITY %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=6 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ACTIVE-FWD %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=7 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MEMBER %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=8 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CONST-RESULT %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=9 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ACTIVE-PTR %{no-crash} --implicit-check-not=error:
// RUN: not %clangxx_enzyme -fenzyme -O0 -c -DCASE=10 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOT-CALLABLE %{no-crash} --implicit-check-not=error:
// The correct spellings compile:
// RUN: %clangxx_enzyme -fenzyme -O0 -c -DCASE=0 %s -o %t.o

#include <enzyme/enzyme>

double f(double x, double *p, int n) { return x * p[0] * n; }
double byref(const double &x, double &out) { return out = x * x; }
struct Body {
  double mass;
  double energy(double v) const { return 0.5 * mass * v * v; }
};

double use(double x, double *p, double *dp, int n) {
  double out = 0, dx = 0, dout = 0;
  (void)out; (void)dx; (void)dout;
#if CASE == 0
  auto r = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp},
                                             enzyme::Const{n});
  enzyme::autodiff<enzyme::Reverse>(byref, enzyme::Duplicated<const double &>(x, dx),
                                    enzyme::Duplicated<double &>(out, dout));
  Body b{2.0};
  enzyme::autodiff<enzyme::Reverse>([](const Body *o, double v) { return o->energy(v); },
                                    enzyme::Const<const Body *>{&b}, enzyme::Active{x});
  return enzyme::get<0>(enzyme::get<0>(r));
#elif CASE == 1
  // UNWRAPPED: error: static assertion failed {{.*}}wrap every argument in enzyme::Active, enzyme::Duplicated, enzyme::DuplicatedNoNeed or enzyme::Const
  // UNWRAPPED: cxx-api-misuse.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in instantiation of
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp}, n);
#elif CASE == 2
  // ACTIVE-INT: error: static assertion failed {{.*}}enzyme::Active needs a floating-point parameter taken by value
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp},
                                    enzyme::Active{n});
#elif CASE == 3
  // DUP-SCALAR: error: static assertion failed {{.*}}enzyme::Duplicated needs a pointer or reference parameter (or, in forward mode, a floating-point one)
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Duplicated{x, dx}, enzyme::Duplicated<double *>{p, dp},
                                    enzyme::Const{n});
#elif CASE == 4
  // A shadow held by value would take the derivative to a copy.
  // DUP-COPY: error: static assertion failed {{.*}}must hold pointers (Duplicated<T*>{p, dp}) or references (Duplicated<T&>(x, dx))
  enzyme::autodiff<enzyme::Reverse>(byref, enzyme::Duplicated{x, dx}, enzyme::Duplicated<double &>(out, dout));
#elif CASE == 5
  // ARITY: error: static assertion failed {{.*}}pass one wrapped argument per parameter of the function
  // ARITY: cxx-api-misuse.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in instantiation of
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp});
#elif CASE == 6
  // ACTIVE-FWD: error: static assertion failed {{.*}}enzyme::Active is a reverse-mode activity; in forward mode pass enzyme::Duplicated{x, dx}
  enzyme::autodiff<enzyme::Forward>(f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp},
                                    enzyme::Const{n});
#elif CASE == 7
  // MEMBER: error: static assertion failed {{.*}}pointers to member functions are not supported; differentiate a lambda
  Body b{2.0};
  enzyme::autodiff<enzyme::Reverse>(&Body::energy, enzyme::Const<Body *>{&b}, enzyme::Active{x});
#elif CASE == 8
  // CONST-RESULT: error: static assertion failed {{.*}}enzyme::Const<T> as the activity of a floating-point result is not supported
  enzyme::autodiff<enzyme::Reverse, enzyme::Const<double>>(f, enzyme::Active{x},
                                                           enzyme::Duplicated<double *>{p, dp}, enzyme::Const{n});
#elif CASE == 9
  // ACTIVE-PTR: error: static assertion failed {{.*}}enzyme::Active takes a floating-point value; pass pointers and references with enzyme::Duplicated
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x}, enzyme::Active{p}, enzyme::Const{n});
#elif CASE == 10
  // NOT-CALLABLE: error: static assertion failed {{.*}}the first argument must be a function, a pointer to a function known at compile time, or a function object callable with the wrapped arguments
  enzyme::autodiff<enzyme::Reverse>(42, enzyme::Active{x});
#endif
  return 0;
}
