// The gradient of a distributed dot product (MPI_Allreduce), counted once
// on rank 0: d/dx_i (x . y) = y_i on every rank's slice.
#include <mpi.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double dot(const double *x, const double *y, int n) {
  double mine = 0, all = 0;
  for (int i = 0; i < n; i++)
    mine += x[i] * y[i];
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0 ? all : 0.0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[4], y[4], dx[4] = {0};
  for (int i = 0; i < 4; i++) {
    x[i] = rank + 0.5 * i;
    y[i] = 1 + rank * 4 + i;
  }
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_const, y,
                    enzyme_const, 4);
  int wrong = 0, total;
  for (int i = 0; i < 4; i++)
    wrong += dx[i] != y[i];
  MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("ranks %d wrong %d\n", size, total);
  MPI_Finalize();
  return total != 0;
}
