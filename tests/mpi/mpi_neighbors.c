/* Derivatives through the neighbourhood collectives on Cartesian
 * communicators: MPI_Neighbor_allgather on a periodic ring,
 * MPI_Neighbor_alltoall on a chain that is not periodic (its ends'
 * MPI_PROC_NULL blocks, which MPI does not write, keep their values and
 * derivatives) and on a 2-D grid periodic in one dimension only (floats
 * beside doubles; a dimension of one rank is its own neighbour); and
 * through MPI_Ialltoallw (a datatype per block, byte displacements,
 * overlapping send blocks; apart, in place, and an integer one beside
 * them), waited for in different orders on even and odd ranks. Forward and
 * reverse mode on every rank, checked against central differences of the
 * whole program and against each other (mpi_check.h). Run with 2 to 4
 * ranks. */
#include "mpi_check.h"

enum { N = 8, MAXP = 4 };

static MPI_Comm ring, chain, grid, tube;

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

/* Each rank sends two values to both neighbours of a periodic ring. */
double ring_allgather(double *x, int n) {
  int rank = rank_of();
  double mine[2] = {x[0] * x[1], sin(x[2]) + (1 + rank) * x[3]};
  double got[4];
  MPI_Neighbor_allgather(mine, 2, MPI_DOUBLE, got, 2, MPI_DOUBLE, ring);
  double y = 0;
  for (int k = 0; k < 4; ++k)
    y += got[k] * x[(k + 4) % n] * (1 + 0.1 * k);
  return y + got[0] * got[3] + cos(x[7]);
}

/* A chain that is not periodic: block 0 goes left, block 1 right; the
 * blocks received from beyond the ends stay as they were. */
double chain_alltoall(double *x, int n) {
  int rank = rank_of();
  double send[4] = {x[0] * x[0], x[1] * (1 + rank), exp(0.3 * x[2]),
                    x[3] * x[4]};
  double recv[4] = {x[5], x[6] * x[5], 2 * x[7], x[0] * x[7]};
  MPI_Neighbor_alltoall(send, 2, MPI_DOUBLE, recv, 2, MPI_DOUBLE, chain);
  double y = 0;
  for (int k = 0; k < 4; ++k)
    y += recv[k] * recv[k] * (1 + 0.2 * k) + recv[k] * x[(k + 2) % n];
  return y;
}

/* Grids of size x 1 with four blocks: doubles on one periodic in
 * dimension 0 only (dimension 1's neighbours are MPI_PROC_NULL), floats on
 * one periodic in dimension 1 only (each rank its own neighbour there; the
 * ends of dimension 0 MPI_PROC_NULL). */
double grid_alltoall(double *x, int n) {
  double send[4], recv[4];
  float fsend[4], frecv[4];
  for (int k = 0; k < 4; ++k) {
    send[k] = x[k] * x[k + 4] + k;
    recv[k] = 0.5 * x[(k + 1) % n];
    fsend[k] = (float)(x[k + 1] * 0.5);
    frecv[k] = (float)x[k];
  }
  MPI_Neighbor_alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, grid);
  MPI_Neighbor_alltoall(fsend, 1, MPI_FLOAT, frecv, 1, MPI_FLOAT, tube);
  double y = 0;
  for (int k = 0; k < 4; ++k)
    y += recv[k] * x[(k + 3) % n] * (1 + 0.1 * k) + frecv[k] * recv[k];
  return y;
}

/* MPI_Ialltoallw: rank r sends rank j 1 + (r + j) % 2 doubles from byte
 * displacement 8 (j % 2) (blocks overlap), received with a free element
 * after each block; in place; integers beside them. */
double ialltoallw(double *x, int n) {
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
  int isend[MAXP], irecv[MAXP], ones[MAXP], idispls[MAXP];
  MPI_Datatype itypes[MAXP];
  for (int j = 0; j < size; ++j) {
    isend[j] = rank + j;
    ones[j] = 1;
    idispls[j] = (int)sizeof(int) * j;
    itypes[j] = MPI_INT;
  }
  MPI_Request req[3];
  MPI_Ialltoallw(send, scounts, sdispls, types, recv, rcounts, rdispls, types,
                 MPI_COMM_WORLD, &req[0]);
  MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, inplace, rcounts, rdispls,
                 types, MPI_COMM_WORLD, &req[1]);
  MPI_Ialltoallw(isend, ones, idispls, itypes, irecv, ones, idispls, itypes,
                 MPI_COMM_WORLD, &req[2]);
  double y = cos(x[7]);
  if (rank % 2) {
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  }
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
  int size = size_of();
  int one[1] = {size}, periodic[1] = {1}, open[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, one, periodic, 0, &ring);
  MPI_Cart_create(MPI_COMM_WORLD, 1, one, open, 0, &chain);
  int dims[2] = {size, 1}, grid_periods[2] = {1, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, grid_periods, 0, &grid);
  int tube_periods[2] = {0, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, tube_periods, 0, &tube);
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("ring_allgather", ring_allgather, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("chain_alltoall", chain_alltoall, x, N, 1e-6, 1e-6);
  /* (float blocks: a larger step, a looser tolerance) */
  mpi_check_derivatives("grid_alltoall", grid_alltoall, x, N, 1e-3, 1e-4);
  mpi_check_derivatives("ialltoallw", ialltoallw, x, N, 1e-6, 1e-6);
  MPI_Comm_free(&tube);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&chain);
  MPI_Comm_free(&ring);
  return mpi_check_finish();
}
