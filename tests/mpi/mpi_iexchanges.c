/* Derivatives through MPI_Iscan, MPI_Ireduce_scatter_block and
 * MPI_Ireduce_scatter (MPI_SUM; in place too), started together with
 * other work between the start and the wait, waited for in different
 * orders on even and odd ranks, and MPI_Alltoallv with blocks of several
 * sizes, overlapping send blocks (one element sent to several ranks) and
 * gaps between the received blocks (in place too); forward and reverse mode
 * on every rank, checked against central differences of the whole program
 * and against each other (mpi_check.h). Run with 2 to 8 ranks. */
#include "mpi_check.h"

enum { N = 4, MAXP = 8 };

static int rank_of(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

static int size_of(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/* Prefix sums of two values, one into another buffer and one in place. */
double iscan(double *x, int n) {
  int rank = rank_of();
  double mine[2] = {x[0] * x[1], sin(x[2]) + x[3]}, sums[2];
  double own[2] = {x[1] * x[3], exp(0.2 * x[0])};
  MPI_Request req[2];
  MPI_Iscan(mine, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[0]);
  MPI_Iscan(MPI_IN_PLACE, own, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[1]);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += cos(x[i]);
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  return y + sums[0] * sums[1] * (1 + 0.1 * rank) + own[0] * x[2] +
         own[1] * own[1];
}

/* Every rank reduces two elements per rank; each gets its block, once
 * from another buffer and once in place. */
double ireduce_scatter_block(double *x, int n) {
  int rank = rank_of(), size = size_of();
  double send[2 * MAXP], inplace[2 * MAXP], got[2];
  for (int j = 0; j < 2 * size; ++j) {
    send[j] = x[j % n] * (1 + 0.1 * j) + sin(x[(j + rank) % n]);
    inplace[j] = x[(j + 1) % n] * x[j % n];
  }
  MPI_Request req[2];
  MPI_Ireduce_scatter_block(send, got, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                            &req[0]);
  MPI_Ireduce_scatter_block(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_SUM,
                            MPI_COMM_WORLD, &req[1]);
  double y = x[3] * x[0];
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  return y + got[0] * got[1] + got[1] * x[rank % n] + inplace[0] * inplace[1];
}

/* Blocks of 1 or 2 elements (rank r gets 1 + r % 2), in float beside the
 * double data, once in place. */
double ireduce_scatter(double *x, int n) {
  int rank = rank_of(), size = size_of();
  int counts[MAXP], total = 0;
  for (int r = 0; r < size; ++r)
    total += counts[r] = 1 + r % 2;
  double send[2 * MAXP], inplace[2 * MAXP], got[2] = {0, 0};
  float fsend[2 * MAXP], fgot[2] = {0, 0};
  for (int j = 0; j < total; ++j) {
    send[j] = x[j % n] * x[(j + rank) % n] + j;
    inplace[j] = sin(x[(j + 2) % n]) * (1 + 0.2 * j);
    fsend[j] = (float)(x[j % n] * (1 + 0.1 * rank));
  }
  MPI_Request req[3];
  MPI_Ireduce_scatter(send, got, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                      &req[0]);
  MPI_Ireduce_scatter(MPI_IN_PLACE, inplace, counts, MPI_DOUBLE, MPI_SUM,
                      MPI_COMM_WORLD, &req[1]);
  MPI_Ireduce_scatter(fsend, fgot, counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD,
                      &req[2]);
  if (rank % 2) {
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  }
  double y = 0;
  for (int k = 0; k < counts[rank]; ++k)
    y += got[k] * got[k] * (1 + k) + inplace[k] * x[k] + fgot[k] * x[2];
  return y;
}

/* Rank r sends rank j 1 + (r + j) % 2 elements from the start of its
 * buffer (overlapping blocks) and keeps one element free between the
 * blocks it receives; then the same in place. */
double alltoallv(double *x, int n) {
  int rank = rank_of(), size = size_of();
  int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP], at = 0;
  for (int j = 0; j < size; ++j) {
    scounts[j] = rcounts[j] = 1 + (rank + j) % 2;
    sdispls[j] = 0;
    rdispls[j] = at;
    at += rcounts[j] + 1;
  }
  double send[2] = {x[0] * x[1], sin(x[2]) * (1 + rank)};
  double recv[3 * MAXP], inplace[3 * MAXP];
  for (int k = 0; k < at; ++k) {
    recv[k] = x[k % n];
    inplace[k] = x[(k + 1) % n] * x[k % n];
  }
  MPI_Alltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts, rdispls,
                MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, inplace, rcounts,
                rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  double y = 0;
  for (int k = 0; k < at; ++k)
    y += recv[k] * (1 + 0.1 * k) * x[(k + 3) % n] + inplace[k] * inplace[k];
  return y;
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("iscan", iscan, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("ireduce_scatter_block", ireduce_scatter_block, x, N,
                        1e-6, 1e-6);
  /* (float data: a step float resolves) */
  mpi_check_derivatives("ireduce_scatter", ireduce_scatter, x, N, 1e-3, 1e-3);
  mpi_check_derivatives("alltoallv", alltoallv, x, N, 1e-6, 1e-6);
  return mpi_check_finish();
}
