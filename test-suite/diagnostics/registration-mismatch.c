// A registration whose functions do not fit the function it names is an
// error that names both; an unknown registration is an error too. Nothing
// a user writes is silently ignored.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

double __enzyme_autodiff(void *, ...);

double g(double x, double *w);
double aug_g(double x, double *w) { return x; }  // the shadow of w is missing
double rev_g(double x, double *w, double *dw, double dret) { return dret; }
// CHECK-DAG: error: {{.*}}registration-mismatch.c:[[@LINE+1]]: the custom gradient of 'g' (double(double, pointer)) does not fit it: 'aug_g' (double(double, pointer)) must take the parameters of 'g', each pointer followed by its shadow
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)aug_g, (void *)rev_g};

double h(double x, double y);
double aug_h(double x, double y) { return x * y; }
double rev_h(double x, double y, double dret) { return dret * y; } // one gradient, two wanted
// CHECK-DAG: error: {{.*}}registration-mismatch.c:[[@LINE+1]]: the custom gradient of 'h' (double(double, double)) does not fit it: 'rev_h' (double(double, double, double)) must return the gradients of the floating-point parameters (double, double)
void *__enzyme_register_gradient_h[3] = {(void *)h, (void *)aug_h, (void *)rev_h};

double k(double x) { return x; }
// CHECK-DAG: error: {{.*}}registration-mismatch.c:[[@LINE+1]]: '__enzyme_function_like_k': 'not_a_math_function' is not a math function the engine knows
void *__enzyme_function_like_k[2] = {(void *)k, (void *)"not_a_math_function"};

// CHECK-DAG: error: {{.*}}registration-mismatch.c:[[@LINE+1]]: the registration '__enzyme_nofree_k' is not supported by this toolchain
void *__enzyme_nofree_k[1] = {(void *)k};

double f(double x) {
  double w = 0;
  return g(x, &w) + h(x, x) + k(x);
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
