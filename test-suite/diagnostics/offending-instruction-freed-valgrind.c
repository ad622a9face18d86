// REQUIRES: valgrind
// Regression test: errors that locate the offending instruction ("(the operation is at
// FILE:LINE:COL)") read it after it was freed: FunctionDifferentiator records
// Failure.Offending in the prepared copy of the function, which
// ReverseModeGenerator::generate() erases (discard(Prepared)) before
// lowerReverseRequest calls reportError(..., Failure.Offending). Under
// valgrind: "Invalid read of size 8 at enzyme::describeLocation". The message
// itself usually comes out right, by luck; offending-instruction-freed.c is
// an input where the same read crashes ld.lld.
//
// RUN: not valgrind -q --trace-children=yes %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="Invalid read" --implicit-check-not="Invalid write" --implicit-check-not="Invalid free"

double __enzyme_autodiff(void *, ...);

double last_input;

double remember(double x) {
  last_input = x;
  return x * x;
}

double bad(double x) {
  // CHECK: {{.*}}offending-instruction-freed-valgrind.c:[[@LINE+1]]:10: error: cannot differentiate 'remember': a value that carries a derivative is stored to the global 'last_input'
  return __enzyme_autodiff((void *)remember, x);
}
