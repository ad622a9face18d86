// A distributed dot product and norm (MPI_Allreduce with MPI_SUM), a
// maximum norm (MPI_Allreduce with MPI_MAX), and a norm reduced onto the
// root and broadcast back (MPI_Reduce, MPI_Bcast), differentiated on every
// rank with 1, 2 and 4 processes. The objective is counted once: rank 0
// returns it, the others return 0. The slices of the gradient, gathered on
// rank 0, equal the analytic gradient of the single-process objective.
// REQUIRES: mpi
// RUN: %clang_enzyme -fenzyme -O0 -g %s -o %t %mpi_flags -lm
// RUN: %mpirun -np 1 %t
// RUN: %mpirun -np 2 %t
// RUN: %mpirun -np 4 %t
// RUN: %clang_enzyme -fenzyme -O2 -g %s -o %t2 %mpi_flags -lm
// RUN: %mpirun -np 1 %t2
// RUN: %mpirun -np 3 %t2
// RUN: %mpirun -np 4 %t2
#include "Inputs/mpi-check.h"

#define NG 26

// L = x.y + 0.5 |x| + 2 max_i |x_i|   (on rank 0)
double dot_norm(const double *x, const double *y, int n) {
  double local[2] = {0, 0}, global[2];
  double big = 0, biggest;
  for (int i = 0; i < n; i++) {
    local[0] += x[i] * y[i];
    local[1] += x[i] * x[i];
    double a = fabs(x[i]);
    big = a > big ? a : big;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&big, &biggest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double l = global[0] + 0.5 * sqrt(global[1]) + 2 * biggest;
  return mpi_rank() == 0 ? l : 0.0;
}

// L = c * |x|^3 where |x| = sqrt(sum x^2) is computed on the root and
// broadcast, and c x_i^2 summed onto the root again:
// L = sum_i |x| x_i^2 = |x|^3.
double reduce_bcast(const double *x, double *work, int n) {
  double sq = 0, total = 0;
  for (int i = 0; i < n; i++)
    sq += x[i] * x[i];
  MPI_Reduce(&sq, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  work[0] = mpi_rank() == 0 ? sqrt(total) : -1.0;
  MPI_Bcast(work, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double mine = 0, all = 0;
  for (int i = 0; i < n; i++)
    mine += work[0] * x[i] * x[i];
  MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return mpi_rank() == 0 ? all : 0.0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size(), first, n;
  local_range(NG, rank, size, &first, &n);
  double gx[NG], gy[NG], x[NG], y[NG], dx[NG] = {0}, dy[NG] = {0};
  for (int i = 0; i < NG; i++) {
    gx[i] = 0.4 * sin(0.7 * i + 0.2) + (i == 11 ? -1.5 : 0);
    gy[i] = 0.3 + 0.1 * i;
  }
  for (int i = 0; i < n; i++) {
    x[i] = gx[first + i];
    y[i] = gy[first + i];
  }

  __enzyme_autodiff((void *)dot_norm, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
  double ax[NG], ay[NG];
  gather_slices(dx, n, ax, NG);
  gather_slices(dy, n, ay, NG);
  if (rank == 0) {
    double norm = 0;
    int top = 0;
    for (int i = 0; i < NG; i++) {
      norm += gx[i] * gx[i];
      top = fabs(gx[i]) > fabs(gx[top]) ? i : top;
    }
    norm = sqrt(norm);
    char name[64];
    for (int i = 0; i < NG; i++) {
      double want = gy[i] + 0.5 * gx[i] / norm +
                    (i == top ? 2 * (gx[i] < 0 ? -1 : 1) : 0);
      snprintf(name, sizeof name, "dot_norm np=%d d/dx[%d]", size, i);
      check_close(name, ax[i], want, 1e-12, 1e-13);
      snprintf(name, sizeof name, "dot_norm np=%d d/dy[%d]", size, i);
      check_close(name, ay[i], gx[i], 1e-12, 1e-13);
    }
  }

  double work[1] = {0}, dwork[1] = {0}, dx2[NG] = {0}, bx[NG];
  __enzyme_autodiff((void *)reduce_bcast, enzyme_dup, x, dx2, enzyme_dup,
                    work, dwork, enzyme_const, n);
  gather_slices(dx2, n, bx, NG);
  if (rank == 0) {
    double norm = 0;
    for (int i = 0; i < NG; i++)
      norm += gx[i] * gx[i];
    norm = sqrt(norm);
    char name[64];
    for (int i = 0; i < NG; i++) {
      snprintf(name, sizeof name, "reduce_bcast np=%d d/dx[%d]", size, i);
      check_close(name, bx[i], 3 * norm * gx[i], 1e-12, 1e-13);
    }
  }
  return mpi_check_done();
}
