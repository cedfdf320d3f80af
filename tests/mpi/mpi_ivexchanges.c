/* Derivatives through MPI_Iexscan (sum; apart and in place; rank 0's
 * receive buffer, which MPI does not write, keeps its value and
 * derivative), MPI_Igatherv and MPI_Iscatterv (blocks of r + 1 elements
 * with gaps between them, apart and in place at another root),
 * MPI_Iallgatherv (the same blocks, apart and in place) and
 * MPI_Ialltoallv (overlapping send blocks, gaps between the received ones;
 * apart and in place), started together with other work between the start
 * and the wait and waited for in different orders on even and odd ranks;
 * and the blocking MPI_Alltoallw (a datatype per block, byte
 * displacements; apart, in place, and an integer one beside them).
 * Forward and reverse mode on every rank, checked against central
 * differences of the whole program and against each other (mpi_check.h).
 * Run with 2 to 4 ranks. */
#include "mpi_check.h"

enum { N = 8, MAXP = 4 };

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

/* Exclusive prefix sums of two values, one into another buffer and one in
 * place. */
double iexscan(double *x, int n) {
  int rank = rank_of();
  double mine[2] = {x[0] * x[1], sin(x[2]) + x[3]};
  double sums[2] = {x[4], 0.5 * x[5]};
  double own[2] = {x[1] * x[3], exp(0.2 * x[0])};
  MPI_Request req[2];
  MPI_Iexscan(mine, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[0]);
  MPI_Iexscan(MPI_IN_PLACE, own, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
              &req[1]);
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

/* Rank r's block: r + 1 elements, one free element before each. */
static int blocks(int p, int *counts, int *displs) {
  int at = 0;
  for (int r = 0; r < p; ++r) {
    counts[r] = r + 1;
    displs[r] = at + 1;
    at += r + 2;
  }
  return at;
}

/* A gatherv to one root and one in place at another, then scatterv of
 * what was gathered and one in place, all nonblocking. */
double ivgathers(double *x, int n) {
  int rank = rank_of(), p = size_of();
  int counts[MAXP], displs[MAXP];
  int extent = blocks(p, counts, displs);
  int root = 1 % p;
  double mine[MAXP], all[16], all2[16];
  for (int i = 0; i < counts[rank]; ++i)
    mine[i] = x[i] * x[i + 4];
  for (int i = 0; i < extent; ++i)
    all[i] = all2[i] = x[i % n] * 0.5;
  MPI_Request req[2];
  MPI_Igatherv(mine, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
               root, MPI_COMM_WORLD, &req[0]);
  if (rank == 0) {
    for (int i = 0; i < counts[0]; ++i)
      all2[displs[0] + i] = cos(x[i]);
    MPI_Igatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all2, counts, displs,
                 MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[1]);
  } else {
    MPI_Igatherv(mine, counts[rank], MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE,
                 0, MPI_COMM_WORLD, &req[1]);
  }
  double y = x[3] * x[0];
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  double spread[16], back[MAXP], back2[MAXP];
  if (rank == root)
    for (int i = 0; i < extent; ++i)
      spread[i] = all[i] * all[(i + 1) % extent];
  MPI_Iscatterv(spread, counts, displs, MPI_DOUBLE, back, counts[rank],
                MPI_DOUBLE, root, MPI_COMM_WORLD, &req[0]);
  for (int i = 0; i < counts[rank]; ++i)
    back2[i] = x[i + 2] * 3;
  if (rank == 0)
    MPI_Iscatterv(all2, counts, displs, MPI_DOUBLE, MPI_IN_PLACE, 0,
                  MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, &req[1]);
  else
    MPI_Iscatterv(NULL, NULL, NULL, MPI_DOUBLE, back2, counts[rank],
                  MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[1]);
  if (rank % 2) {
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < counts[rank]; ++i)
    y += back[i] * back[i] * (i + 1) + back2[i] * x[i];
  if (rank == root)
    for (int i = 0; i < extent; ++i)
      y += all[i] * 0.25;
  if (rank == 0)
    for (int i = 0; i < extent; ++i)
      y += all2[i] * all2[i] * (i + 1);
  (void)n;
  return y;
}

/* Allgathers of blocks of r + 1 elements with gaps, apart and in place. */
double iallgatherv(double *x, int n) {
  int rank = rank_of(), p = size_of();
  int counts[MAXP], displs[MAXP];
  int extent = blocks(p, counts, displs);
  double mine[MAXP], every[16], every2[16];
  for (int i = 0; i < counts[rank]; ++i)
    mine[i] = sin(x[i]) * x[i + 3];
  for (int i = 0; i < extent; ++i)
    every[i] = every2[i] = x[(i + 3) % n];
  for (int i = 0; i < counts[rank]; ++i)
    every2[displs[rank] + i] = x[i] * x[i + 1];
  MPI_Request req[2];
  MPI_Iallgatherv(mine, counts[rank], MPI_DOUBLE, every, counts, displs,
                  MPI_DOUBLE, MPI_COMM_WORLD, &req[0]);
  MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, every2, counts, displs,
                  MPI_DOUBLE, MPI_COMM_WORLD, &req[1]);
  double y = cos(x[6]);
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < extent; ++i)
    y += every[i] * every[i] * (rank + 1) + every2[i] * (i + 1);
  return y;
}

/* Rank r sends rank j 1 + (r + j) % 2 elements from the start of its
 * buffer (overlapping blocks) and keeps one element free between the
 * blocks it receives; then the same in place. */
double ialltoallv(double *x, int n) {
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
  MPI_Request req[2];
  MPI_Ialltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts, rdispls,
                 MPI_DOUBLE, MPI_COMM_WORLD, &req[0]);
  MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, inplace, rcounts,
                 rdispls, MPI_DOUBLE, MPI_COMM_WORLD, &req[1]);
  double y = sin(x[5]);
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  for (int k = 0; k < at; ++k)
    y += recv[k] * (1 + 0.1 * k) * x[(k + 3) % n] + inplace[k] * inplace[k];
  return y;
}

/* MPI_Alltoallw: rank r sends rank j 1 + (r + j) % 2 doubles from byte
 * displacement 8 * (j % 2) (overlapping blocks) and an int beside them,
 * an integer block that carries no derivative; then the doubles in place,
 * block j at a byte displacement of its own. */
double alltoallw(double *x, int n) {
  int rank = rank_of(), size = size_of();
  int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP];
  MPI_Datatype types[MAXP];
  int at = 0;
  for (int j = 0; j < size; ++j) {
    scounts[j] = rcounts[j] = 1 + (rank + j) % 2;
    sdispls[j] = 8 * (j % 2);
    rdispls[j] = 8 * at;
    types[j] = MPI_DOUBLE;
    at += rcounts[j] + 1;
  }
  double send[3] = {x[0] * x[1], sin(x[2]) * (1 + rank), x[3] * x[4]};
  double recv[3 * MAXP], inplace[3 * MAXP];
  for (int k = 0; k < at; ++k) {
    recv[k] = x[k % n];
    inplace[k] = x[(k + 1) % n] * x[k % n];
  }
  MPI_Alltoallw(send, scounts, sdispls, types, recv, rcounts, rdispls, types,
                MPI_COMM_WORLD);
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, inplace, rcounts, rdispls,
                types, MPI_COMM_WORLD);
  /* integers beside them: rank r sends rank j the number r + j */
  int isend[MAXP], irecv[MAXP], ones[MAXP], idispls[MAXP];
  MPI_Datatype itypes[MAXP];
  for (int j = 0; j < size; ++j) {
    isend[j] = rank + j;
    ones[j] = 1;
    idispls[j] = (int)sizeof(int) * j;
    itypes[j] = MPI_INT;
  }
  MPI_Alltoallw(isend, ones, idispls, itypes, irecv, ones, idispls, itypes,
                MPI_COMM_WORLD);
  double y = cos(x[7]);
  for (int k = 0; k < at; ++k)
    y += recv[k] * (1 + 0.1 * k) * x[(k + 3) % n] + inplace[k] * inplace[k];
  for (int j = 0; j < size; ++j)
    y += irecv[j] * 0.01 * x[j % n];
  return y;
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("iexscan", iexscan, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("ivgathers", ivgathers, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("iallgatherv", iallgatherv, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("ialltoallv", ialltoallv, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("alltoallw", alltoallw, x, N, 1e-6, 1e-6);
  return mpi_check_finish();
}
