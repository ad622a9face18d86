// MPI calls that carry derivatives without a rule stop the compilation at
// the call, naming it: one-sided communication, a user-defined reduction
// operator, a predefined operator without a rule, a datatype made at run
// time. Forward mode of MPI calls is an error too.
// REQUIRES: mpi
// RUN: not %clang_enzyme -fenzyme -O0 -g %s -o %t %mpi_flags 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g %s -o %t %mpi_flags 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g -DFORWARD %s -o %t %mpi_flags 2>&1 | FileCheck %s --check-prefix=FWD %{no-crash}
#include <mpi.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

void put(double *x, MPI_Win win) {
  // CHECK-DAG: cannot differentiate the MPI call 'MPI_Put' (one-sided communication): it has no derivative rule; docs/parallel.md lists the MPI calls that have one (the operation is at {{.*}}mpi-unsupported.c:[[@LINE+1]]:
  MPI_Put(x, 2, MPI_DOUBLE, 1, 0, 2, MPI_DOUBLE, win);
}

static void user_sum(void *in, void *inout, int *n, MPI_Datatype *t) {
  (void)t;
  for (int i = 0; i < *n; i++)
    ((double *)inout)[i] += ((double *)in)[i];
}

double custom_op(double *x) {
  MPI_Op op;
  MPI_Op_create(user_sum, 1, &op);
  double y;
  // CHECK-DAG: cannot differentiate the MPI call 'MPI_Allreduce': a user-defined reduction operator has no derivative rule; only MPI_SUM, MPI_MAX and MPI_MIN have one (the operation is at {{.*}}mpi-unsupported.c:[[@LINE+1]]:
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return y;
}

double product(double *x) {
  double y;
  // CHECK-DAG: cannot differentiate the MPI call 'MPI_Reduce': the reduction operator MPI_PROD has no derivative rule; only MPI_SUM, MPI_MAX and MPI_MIN have one (the operation is at {{.*}}mpi-unsupported.c:[[@LINE+1]]:
  MPI_Reduce(x, &y, 1, MPI_DOUBLE, MPI_PROD, 0, MPI_COMM_WORLD);
  return y;
}

double derived(double *x, MPI_Datatype pair) {
  double y[2];
  // CHECK-DAG: cannot differentiate the MPI call 'MPI_Bcast': its datatype is made at run time (derived datatypes are not supported); send MPI_DOUBLE or MPI_FLOAT elements (the operation is at {{.*}}mpi-unsupported.c:[[@LINE+1]]:
  MPI_Bcast(x, 1, pair, 0, MPI_COMM_WORLD);
  y[0] = x[0] * x[1];
  return y[0];
}

double sent(double *x) {
  // FWD: cannot differentiate the MPI call 'MPI_Send' in forward mode: MPI calls have reverse-mode rules only (docs/parallel.md)
  MPI_Send(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  return x[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[2] = {1, 2}, dx[2] = {0};
#ifdef FORWARD
  __enzyme_fwddiff((void *)sent, enzyme_dup, x, dx);
#else
  MPI_Win win;
  MPI_Win_create(x, sizeof x, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  __enzyme_autodiff((void *)put, enzyme_dup, x, dx, enzyme_const, win);
  __enzyme_autodiff((void *)custom_op, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  __enzyme_autodiff((void *)derived, enzyme_dup, x, dx, enzyme_const, pair);
#endif
  MPI_Finalize();
  return 0;
}
