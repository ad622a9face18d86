// A value that carries a derivative stored into memory without derivatives
// (an enzyme_const argument, or memory reached through a struct that points
// to one) is an error: the program reads the value back, and its derivative
// was dropped without a word (d/dx0 came out 25 instead of 55 for
// `scratch`; the helper's store was dropped the same way, or the program
// died on a null shadow).
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DFORWARD -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FWD %{no-crash} --implicit-check-not=error:

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double staged(const double *a, double *scratch, int n) {
  for (int i = 0; i < n; i++)
    scratch[i] = a[i] * a[i]; // line 18
  double s = 0;
  for (int i = 0; i < n; i++)
    s += scratch[n - 1 - i] * a[i];
  return s;
}

struct view {
  double *p;
  int n;
};

__attribute__((noinline)) static void put(struct view *v, int i, double x) {
  v->p[i] = x; // line 31
}

double through_view(const double *a, double *scratch) {
  struct view v = {scratch, 2};
  put(&v, 0, a[0] * a[0]);
  return scratch[0] * a[1];
}

void grads(double *a, double *da, double *scratch) {
#ifndef FORWARD
  // CHECK: active-store-into-const-memory.c:[[@LINE+2]]:3: error: cannot differentiate 'staged': a value that carries a derivative is stored into the memory that argument 2 of 'staged' points to, which has no shadow (an enzyme_const argument, or memory its caller passes without derivatives); its derivative would be lost when the program reads it back. Pass that memory with enzyme_dup and a zeroed shadow
  // CHECK-SAME: (the operation is at {{.*}}active-store-into-const-memory.c:18:16)
  __enzyme_autodiff((void *)staged, enzyme_dup, a, da, enzyme_const, scratch,
                    enzyme_const, 3);
  // CHECK: active-store-into-const-memory.c:[[@LINE+2]]:3: error: cannot differentiate 'through_view': a value that carries a derivative is stored into memory through a pointer read from memory without derivatives (such as a field of a struct that holds a pointer to enzyme_const memory); its derivative would be lost
  // CHECK-SAME: (the operation is at {{.*}}active-store-into-const-memory.c:31:11)
  __enzyme_autodiff((void *)through_view, enzyme_dup, a, da, enzyme_const,
                    scratch);
#else
  // FWD: active-store-into-const-memory.c:[[@LINE+2]]:11: error: cannot differentiate 'staged': a value that carries a derivative is stored into the memory that argument 2 of 'staged' points to
  // FWD-SAME: (the operation is at {{.*}}active-store-into-const-memory.c:18:16)
  da[0] = __enzyme_fwddiff((void *)staged, enzyme_dup, a, da, enzyme_const,
                           scratch, enzyme_const, 3);
#endif
}
