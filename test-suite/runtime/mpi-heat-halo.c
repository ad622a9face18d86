// A 1-D heat equation split over the ranks, with halo exchanges over many
// steps: blocking MPI_Send/MPI_Recv (even ranks send first), and
// MPI_Isend/MPI_Irecv with MPI_Waitall (MPI_PROC_NULL at the ends); the
// loss is summed onto the root (MPI_Reduce). The gradient with respect to
// the initial field (overwritten in place) and the diffusion coefficient
// (every rank's partial, summed) equals the gradient of the same equation
// in one process (the engine on a serial function, itself checked against
// finite differences), with 1, 2 and 4 processes.
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

#define NG 24
#define STEPS 40

static double weight(int global) { return 0.5 + 0.05 * global; }

static void step(double *u, double *next, double a, int n) {
  for (int i = 1; i <= n; i++)
    next[i] = u[i] + a * (u[i - 1] - 2 * u[i] + u[i + 1]);
  for (int i = 1; i <= n; i++)
    u[i] = next[i];
}

static double finish(const double *u, int n, int first) {
  double mine = 0, all = 0;
  for (int i = 1; i <= n; i++)
    mine += weight(first + i - 1) * u[i] * u[i];
  MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return mpi_rank() == 0 ? all : 0.0;
}

// u[0] and u[n + 1] are ghost cells (zero at the ends of the domain).
double heat_blocking(double *u, double *next, const double *a, int n,
                     int first) {
  int rank = mpi_rank(), size = mpi_size();
  int left = rank - 1, right = rank + 1;
  for (int t = 0; t < STEPS; t++) {
    if (rank % 2 == 0) {
      if (right < size) {
        MPI_Send(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
        MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      }
      if (left >= 0) {
        MPI_Send(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
        MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      }
    } else {
      MPI_Status status;
      MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &status);
      MPI_Send(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
      if (right < size) {
        MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
                 &status);
        MPI_Send(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
      }
    }
    step(u, next, *a, n);
  }
  return finish(u, n, first);
}

double heat_nonblocking(double *u, double *next, const double *a, int n,
                        int first) {
  int rank = mpi_rank(), size = mpi_size();
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  for (int t = 0; t < STEPS; t++) {
    MPI_Request requests[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
              &requests[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    step(u, next, *a, n);
  }
  return finish(u, n, first);
}

// The same equation in one process: u[0] and u[NG + 1] stay zero.
double heat_serial(double *u, double *next, const double *a) {
  for (int t = 0; t < STEPS; t++)
    step(u, next, *a, NG);
  double l = 0;
  for (int i = 1; i <= NG; i++)
    l += weight(i - 1) * u[i] * u[i];
  return l;
}

static double initial(int global) { return sin(0.3 * global) + 0.2; }

static double serial_loss(const double *u0, void *ctx) {
  double u[NG + 2] = {0}, next[NG + 2] = {0};
  for (int i = 0; i < NG; i++)
    u[i + 1] = u0[i];
  return heat_serial(u, next, (const double *)ctx);
}

typedef double (*heat_fn)(double *, double *, const double *, int, int);

static void check(const char *what, heat_fn f, const double *ref_du,
                  double ref_da) {
  int rank = mpi_rank(), size = mpi_size(), first, n;
  local_range(NG, rank, size, &first, &n);
  double u[NG + 2] = {0}, du[NG + 2] = {0}, next[NG + 2] = {0},
         dnext[NG + 2] = {0};
  for (int i = 0; i < n; i++)
    u[i + 1] = initial(first + i);
  double a = 0.21, da = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_dup, next, dnext,
                    enzyme_dup, &a, &da, enzyme_const, n, enzyme_const, first);
  double all[NG], total_da = 0;
  gather_slices(du + 1, n, all, NG);
  MPI_Reduce(&da, &total_da, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0)
    return;
  char name[80];
  for (int i = 0; i < NG; i++) {
    snprintf(name, sizeof name, "%s np=%d d/du0[%d]", what, size, i);
    check_close(name, all[i], ref_du[i], 1e-11, 1e-13);
  }
  snprintf(name, sizeof name, "%s np=%d d/da", what, size);
  check_close(name, total_da, ref_da, 1e-11, 1e-13);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // The single-process reference.
  double u[NG + 2] = {0}, du[NG + 2] = {0}, next[NG + 2] = {0},
         dnext[NG + 2] = {0}, a = 0.21, da = 0, u0[NG];
  for (int i = 0; i < NG; i++)
    u[i + 1] = u0[i] = initial(i);
  __enzyme_autodiff((void *)heat_serial, enzyme_dup, u, du, enzyme_dup, next,
                    dnext, enzyme_dup, &a, &da);
  if (mpi_rank() == 0) {
    for (int i = 0; i < NG; i += 5)
      check_fd("serial d/du0", du[i + 1], fd_partial(serial_loss, u0, NG, i, &a));
  }
  check("blocking", heat_blocking, du + 1, da);
  check("nonblocking", heat_nonblocking, du + 1, da);
  return mpi_check_done();
}
