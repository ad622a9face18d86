// Regression test: a helper whose request takes the function from a parameter,
// called through a cast (or an unprototyped declaration) with fewer
// arguments than it has parameters. enzyme::specializeFunctionArguments
// reads the call's argument at the parameter's index without checking
// arg_size(): it reads past the arguments (the callee operand: `helper`
// itself), clones `helper` with the parameter replaced by `helper`, and
// leaves IR that crashes the bitcode writer ("Running pass embed-bitcode",
// segfault in ValueEnumerator::getValueID). On the way it reports errors
// about differentiating 'helper', which the user never asked for.
// -DSINGLE (one request) crashes at -O0 and gives the bogus "too few
// arguments: no value for parameter 2 of 'helper'" error otherwise.
// Expected: no crash; the request in the helper is an error because its
// function is a run-time value, and nothing mentions 'helper' as the
// function to differentiate.
//
// RUN: not %clang_enzyme -fenzyme -O0 -fno-crash-diagnostics -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="of 'helper'"
// RUN: not %clang_enzyme -fenzyme -O2 -fno-crash-diagnostics -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="of 'helper'"
// RUN: not %clang_enzyme -fenzyme -O0 -fno-crash-diagnostics -DSINGLE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SINGLE %{no-crash} --implicit-check-not="of 'helper'"

double __enzyme_autodiff(void *, ...);

#ifndef SINGLE
static void helper(void *f, void *g, int n) {
  // CHECK: {{.*}}helper-called-with-too-few-arguments.c:[[@LINE+1]]:14: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  double a = __enzyme_autodiff(f, 1.0);
  double b = __enzyme_autodiff(g, 2.0);
  (void)a;
  (void)b;
}
void call(int n) { ((void (*)(int))helper)(n); }
#else
double helper(double x, void *f) {
  // SINGLE: {{.*}}helper-called-with-too-few-arguments.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  return __enzyme_autodiff(f, x);
}
double call(double x) { return ((double (*)(double))helper)(x); }
#endif
