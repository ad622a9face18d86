// OpenMP constructs the engine does not differentiate stop with an error at
// the call in the region that names the construct; a gradient that ignored
// them would be wrong (a task's work is not seen at its call). The same
// regions compile and run without -fenzyme's requests.
// REQUIRES: openmp
// RUN: not %clang_enzyme -fenzyme -fopenmp -O0 -g %s -o %t 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -fopenmp -O2 -g %s -o %t 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -fopenmp -O2 -g -DFORWARD %s -o %t 2>&1 | FileCheck %s %{no-crash}
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

void tasks(double *x, int n) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // CHECK: error: cannot differentiate 'tasks': cannot differentiate the OpenMP runtime call '__kmpc_omp_task{{[_a-z]*}}' (OpenMP tasks): not supported, docs/parallel.md lists what is
    // CHECK-SAME: (the operation is at {{.*}}openmp-unsupported.c:[[@LINE+1]]:
#pragma omp task firstprivate(i)
    x[i] = x[i] * x[i];
  }
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1};
#ifdef FORWARD
  __enzyme_fwddiff((void *)tasks, enzyme_dup, x, dx, 4);
#else
  __enzyme_autodiff((void *)tasks, enzyme_dup, x, dx, 4);
#endif
  return 0;
}
