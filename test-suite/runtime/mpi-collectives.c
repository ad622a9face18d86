// A distributed least-squares objective (rows split over the ranks, the
// parameters replicated, the sum of squares combined with MPI_Allreduce),
// and data scattered from the root, squared, gathered everywhere and
// reduced back (MPI_Scatter, MPI_Allgather, MPI_Gather). Each rank's
// gradient, summed over the ranks where the input is replicated, equals
// the single-process gradient, with 1, 2, 3 and 4 processes. Also built
// with mpicc over the driver (OMPI_CC).
// REQUIRES: mpi
// RUN: %clang_enzyme -fenzyme -O0 -g %s -o %t %mpi_flags -lm
// RUN: %mpirun -np 1 %t
// RUN: %mpirun -np 2 %t
// RUN: %mpirun -np 4 %t
// RUN: env OMPI_CC=%clang_enzyme mpicc -fenzyme -O2 -g %s -o %t2 -lm
// RUN: %mpirun -np 1 %t2
// RUN: %mpirun -np 3 %t2
// RUN: %mpirun -np 4 %t2
#include "Inputs/mpi-check.h"

#define ROWS 30
#define P 3
#define NG 24

static void row(int global, double *a, double *b) {
  for (int k = 0; k < P; k++)
    a[k] = cos(0.3 * global + k);
  *b = 0.1 * global - 0.5;
}

// 0.5 sum_rows (a.w - b)^2, on rank 0.
double least_squares(const double *w, int first, int count) {
  double mine = 0, all = 0;
  for (int i = 0; i < count; i++) {
    double a[P], b;
    row(first + i, a, &b);
    double r = -b;
    for (int k = 0; k < P; k++)
      r += a[k] * w[k];
    mine += 0.5 * r * r;
  }
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return mpi_rank() == 0 ? all : 0.0;
}

// The root scatters x; each rank squares its slice; everyone gathers the
// squares; rank r weighs them by (j + 1 + r); the root sums the results:
// L = sum_r sum_j (j + 1 + r) x_j^2.
double scatter_gather(const double *x, double *work, int chunk) {
  int rank = mpi_rank(), size = mpi_size();
  double *mine = work, *squares = work + NG, *sums = work + 2 * NG;
  MPI_Scatter(x, chunk, MPI_DOUBLE, mine, chunk, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  for (int i = 0; i < chunk; i++)
    mine[i] = mine[i] * mine[i];
  MPI_Allgather(mine, chunk, MPI_DOUBLE, squares, chunk, MPI_DOUBLE,
                MPI_COMM_WORLD);
  double s = 0;
  for (int j = 0; j < NG; j++)
    s += (j + 1 + rank) * squares[j];
  MPI_Gather(&s, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double l = 0;
  if (rank == 0)
    for (int r = 0; r < size; r++)
      l += sums[r];
  return l;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size(), first, count;
  local_range(ROWS, rank, size, &first, &count);

  double w[P] = {0.3, -0.2, 0.7}, dw[P] = {0}, total[P];
  __enzyme_autodiff((void *)least_squares, enzyme_dup, w, dw, enzyme_const,
                    first, enzyme_const, count);
  MPI_Reduce(dw, total, P, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double want[P] = {0};
    for (int i = 0; i < ROWS; i++) {
      double a[P], b, r;
      row(i, a, &b);
      r = -b;
      for (int k = 0; k < P; k++)
        r += a[k] * w[k];
      for (int k = 0; k < P; k++)
        want[k] += r * a[k];
    }
    char name[64];
    for (int k = 0; k < P; k++) {
      snprintf(name, sizeof name, "least squares np=%d d/dw[%d]", size, k);
      check_close(name, total[k], want[k], 1e-12, 1e-13);
    }
  }

  if (NG % size == 0) {
    double x[NG], dx[NG] = {0}, work[3 * NG], dwork[3 * NG] = {0};
    for (int j = 0; j < NG; j++)
      x[j] = 0.5 + 0.1 * j;
    __enzyme_autodiff((void *)scatter_gather, enzyme_dup, x, dx, enzyme_dup,
                      work, dwork, enzyme_const, NG / size);
    if (rank == 0) {
      char name[64];
      for (int j = 0; j < NG; j++) {
        double want = 2 * x[j] * (size * (j + 1) + size * (size - 1) / 2.0);
        snprintf(name, sizeof name, "scatter/gather np=%d d/dx[%d]", size, j);
        check_close(name, dx[j], want, 1e-12, 1e-13);
      }
    }
  }
  return mpi_check_done();
}
