// Higher-order derivatives serve the inner request first; a request of f's
// own gradient inside f cannot be served before itself. It used to be put
// off to the link ("it has no definition in this module ... compile the
// file that defines it with -fenzyme"), advice that cannot help; it is an
// error at the request, with that reason.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

double __enzyme_autodiff(void *, ...);

double f(double x) {
  // CHECK: request-inside-differentiated-code.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': cannot differentiate a request ('__enzyme_autodiff') that could not be served before the one around it (it is inside its own code
  return x * x + __enzyme_autodiff((void *)f, x);
}
