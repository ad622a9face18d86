/*===- mpi-check.h - Distributed gradients against a single process ------===*\
|*                                                                            *|
|* An MPI runtime test splits a global vector of NG values into contiguous    *|
|* slices, one per rank (local_range), differentiates its distributed         *|
|* function on every rank, gathers the slices of the gradient on rank 0       *|
|* (gather_slices, outside the differentiated code) and checks them there     *|
|* against the single-process reference (the same engine on a serial          *|
|* function, and analytic values or finite differences). Every rank exits     *|
|* with rank 0's verdict.                                                     *|
\*===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_MPI_CHECK_H
#define ENZYME_RUNTIME_MPI_CHECK_H

#include "check.h"
#include <mpi.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

static int mpi_rank(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

static int mpi_size(void) {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/* The slice [*first, *first + *count) of NG values that RANK owns. */
static void local_range(int ng, int rank, int size, int *first, int *count) {
  int base = ng / size, extra = ng % size;
  *first = rank * base + (rank < extra ? rank : extra);
  *count = base + (rank < extra);
}

/* Rank 0 receives every rank's slice of a distributed vector into ALL. */
static void gather_slices(const double *mine, int count, double *all, int ng) {
  int size = mpi_size();
  int *counts = (int *)malloc(sizeof(int) * (size_t)size);
  int *firsts = (int *)malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; r++)
    local_range(ng, r, size, &firsts[r], &counts[r]);
  MPI_Gatherv(mine, count, MPI_DOUBLE, all, counts, firsts, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  free(counts);
  free(firsts);
}

/* Every rank returns rank 0's verdict. */
static int mpi_check_done(void) {
  int failed = check_failures_;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  if (failed)
    fprintf(stderr, "%d check(s) failed\n", failed);
  return failed != 0;
}

#endif /* ENZYME_RUNTIME_MPI_CHECK_H */
