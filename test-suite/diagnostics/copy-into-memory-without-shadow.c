// A copy (memcpy, or the memcpy that -O2 makes of a copying loop) of values
// that carry derivatives into memory without derivatives: a static array,
// or an enzyme_const argument's memory. The program reads the values back,
// and their derivatives were dropped without a word (0 instead of 2x): a
// store of such a value was an error, but a copy was not. Now both modes
// stop at the copy, as for the store; a copy of integers stays allowed.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DFORWARD -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FWD %{no-crash} --implicit-check-not=error:
// RUN: %clang_enzyme -fenzyme -O2 -DINTEGERS %s -o %t && %t | FileCheck %s --check-prefix=INTEGERS

#include <stdio.h>
#include <string.h>

extern int enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifndef INTEGERS
double staticCopy(const double *X, int N) {
  static double Back[16];
  memcpy(Back, X, N * sizeof(double));
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Back[I] * Back[I];
  return S;
}

double constCopy(const double *X, double *Scratch, int N) {
  memcpy(Scratch, X, N * sizeof(double));
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Scratch[I] * X[I];
  return S;
}

#ifdef FORWARD
double tangents(double *X, double *DX, double *Scratch) {
  // FWD: copy-into-memory-without-shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'staticCopy': a value that carries a derivative is stored to the global 'staticCopy.Back', which has no shadow
  return __enzyme_fwddiff((void *)staticCopy, enzyme_dup, X, DX, 4) +
         // FWD: copy-into-memory-without-shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'constCopy': a value that carries a derivative is stored into the memory that argument 2{{.*}} of 'constCopy' points to, which has no shadow
         __enzyme_fwddiff((void *)constCopy, enzyme_dup, X, DX, enzyme_const,
                          Scratch, 4);
}
#else
void gradients(double *X, double *DX, double *Scratch) {
  // CHECK: copy-into-memory-without-shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'staticCopy': a value that carries a derivative is stored to the global 'staticCopy.Back', which has no shadow
  __enzyme_autodiff((void *)staticCopy, enzyme_dup, X, DX, 4);
  // CHECK: copy-into-memory-without-shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'constCopy': a value that carries a derivative is stored into the memory that argument 2{{.*}} of 'constCopy' points to, which has no shadow
  __enzyme_autodiff((void *)constCopy, enzyme_dup, X, DX, enzyme_const,
                    Scratch, 4);
}
#endif
#else
// Integers copied from memory with derivatives carry none.
double countedCopy(const double *X, const int *Counts, int N) {
  static int Back[16];
  memcpy(Back, Counts, N * sizeof(int));
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Back[I] * X[I] * X[I];
  return S;
}

int main(void) {
  double X[4] = {1, 2, 3, 4}, DX[4] = {0};
  int Counts[4] = {1, 2, 3, 4}, DCounts[4] = {0};
  __enzyme_autodiff((void *)countedCopy, enzyme_dup, X, DX, enzyme_dup,
                    Counts, DCounts, 4);
  // INTEGERS: 2 8 18 32
  printf("%g %g %g %g\n", DX[0], DX[1], DX[2], DX[3]);
  return 0;
}
#endif
