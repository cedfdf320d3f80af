/* Derivatives through the neighbourhood collectives of several block sizes
 * and the nonblocking ones, on Cartesian communicators:
 * MPI_Neighbor_allgatherv on a periodic ring (each rank sends 1 or 2
 * values, received with a gap after each block), MPI_Neighbor_alltoallv on
 * a chain that is not periodic (overlapping send blocks; the ends'
 * MPI_PROC_NULL blocks, which MPI does not write, keep their values and
 * derivatives), MPI_Neighbor_alltoallw on a 2-D grid periodic in both
 * dimensions, the second of one rank (its own neighbour): doubles at byte
 * displacements, a float block and an integer block; and
 * MPI_Ineighbor_allgather and MPI_Ineighbor_alltoall (floats beside
 * doubles, beside an integer one; MPI_Ineighbor_alltoall on the ring, a
 * neighbour twice with 2 ranks; an MPI_Ibarrier among them) and
 * MPI_Ineighbor_allgatherv, MPI_Ineighbor_alltoallv,
 * MPI_Ineighbor_alltoallw, each group waited for in different orders on
 * even and odd ranks. Forward and reverse mode on every rank, checked
 * against central differences of the whole program and against each other
 * (mpi_check.h). Run with 2 to 4 ranks. */
#include "mpi_check.h"

enum { N = 8, MAXP = 4 };

static MPI_Comm ring, chain, grid;

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

/* Rank r sends 1 + r % 2 values to both neighbours of a periodic ring;
 * block 0 comes from r - 1, block 1 from r + 1, a free element after
 * each. */
double ring_allgatherv(double *x, int n) {
  int rank = rank_of(), size = size_of();
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int mine = 1 + rank % 2;
  double send[2] = {x[0] * x[1] + rank, sin(x[2]) * x[3]};
  int rcounts[2] = {1 + left % 2, 1 + right % 2};
  int displs[2] = {0, rcounts[0] + 1};
  double got[6];
  for (int k = 0; k < 6; ++k)
    got[k] = 0.5 * x[(k + 4) % n];
  MPI_Neighbor_allgatherv(send, mine, MPI_DOUBLE, got, rcounts, displs,
                          MPI_DOUBLE, ring);
  double y = 0;
  for (int k = 0; k < 6; ++k)
    y += got[k] * got[k] * (1 + 0.1 * k) + got[k] * x[(k + 5) % n];
  return y + cos(x[7]);
}

/* A chain that is not periodic: rank r sends 1 + r % 2 values left (from
 * element 0) and 2 - r % 2 right (from element 1: the blocks overlap);
 * blocks from beyond the ends stay as they were. */
double chain_alltoallv(double *x, int n) {
  int rank = rank_of();
  double send[3] = {x[0] * x[0], x[1] * (1 + rank), exp(0.3 * x[2])};
  int scounts[2] = {1 + rank % 2, 2 - rank % 2}, sdispls[2] = {0, 1};
  /* (From the left: its right block; from the right: its left block.) */
  int rcounts[2] = {2 - (rank + 1) % 2, 1 + (rank + 1) % 2};
  int rdispls[2] = {0, 3};
  double recv[6];
  for (int k = 0; k < 6; ++k)
    recv[k] = x[(k + 3) % n] * (0.5 + 0.1 * k);
  MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts,
                         rdispls, MPI_DOUBLE, chain);
  double y = 0;
  for (int k = 0; k < 6; ++k)
    y += recv[k] * recv[k] * (1 + 0.2 * k) + recv[k] * x[(k + 2) % n];
  return y;
}

/* A 2-D grid of size x 1 periodic in both dimensions: dimension 0's blocks
 * are doubles (2 to rank - 1, 1 to rank + 1), dimension 1's (the rank
 * itself both ways) a float and an integer: the float sent in direction -1
 * comes back as the block from direction +1. Byte displacements with gaps
 * in a buffer of bytes. */
double grid_alltoallw(double *x, int n) {
  struct {
    double d[3];
    float f;
    int i;
  } s, r;
  s.d[0] = x[0] * x[1];
  s.d[1] = sin(x[2]);
  s.d[2] = x[3] * x[3];
  s.f = (float)(x[4] * 0.5);
  s.i = rank_of();
  double before[3] = {x[5], x[6] * x[5], x[7]};
  r.d[0] = before[0];
  r.d[1] = before[1];
  r.d[2] = before[2];
  r.f = (float)x[1];
  r.i = -1;
  int scounts[4] = {2, 1, 1, 1};
  MPI_Aint sdispls[4] = {0, 2 * sizeof(double), 3 * sizeof(double),
                         3 * sizeof(double) + sizeof(float)};
  MPI_Datatype stypes[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_FLOAT, MPI_INT};
  /* (Block 0 from rank - 1, its block 1; block 1 from rank + 1, its block
   * 0; block 2 from direction -1: the integer; block 3: the float.) */
  int rcounts[4] = {1, 2, 1, 1};
  MPI_Aint rdispls[4] = {2 * sizeof(double), 0,
                         3 * sizeof(double) + sizeof(float),
                         3 * sizeof(double)};
  MPI_Datatype rtypes[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT, MPI_FLOAT};
  MPI_Neighbor_alltoallw(&s, scounts, sdispls, stypes, &r, rcounts, rdispls,
                         rtypes, grid);
  (void)n;
  double y = r.d[0] * r.d[1] + r.d[2] * r.d[2] * x[2] + r.f * r.d[0];
  return y + 0.01 * r.i * x[3];
}

/* MPI_Ineighbor_allgather of doubles and floats on the ring and
 * MPI_Ineighbor_alltoall on the chain, beside an integer allgather, waited
 * for in different orders on even and odd ranks. */
double nonblocking(double *x, int n) {
  int rank = rank_of();
  double mine[2] = {x[0] * x[1], x[2] + rank * x[3]};
  float fmine[1] = {(float)(x[4] * x[4])};
  double got[4];
  float fgot[2];
  double send[2] = {exp(0.2 * x[5]), x[6] * x[7]};
  double recv[2] = {x[1], x[2] * x[3]};
  int imine = rank, igot[2];
  MPI_Request req[6];
  MPI_Ineighbor_allgather(mine, 2, MPI_DOUBLE, got, 2, MPI_DOUBLE, ring,
                          &req[0]);
  MPI_Ineighbor_allgather(fmine, 1, MPI_FLOAT, fgot, 1, MPI_FLOAT, ring,
                          &req[1]);
  MPI_Ineighbor_alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, chain,
                         &req[2]);
  MPI_Ineighbor_allgather(&imine, 1, MPI_INT, igot, 1, MPI_INT, ring,
                          &req[3]);
  /* (With 2 ranks both neighbours on the ring are one rank, whose blocks
   * OpenMPI's nonblocking calls pair in list order.) */
  double rsend[2] = {x[2] * x[5], sin(x[6])}, rrecv[2];
  MPI_Ineighbor_alltoall(rsend, 1, MPI_DOUBLE, rrecv, 1, MPI_DOUBLE, ring,
                         &req[4]);
  MPI_Ibarrier(MPI_COMM_WORLD, &req[5]);
  double y = cos(x[0]);
  if (rank % 2) {
    for (int k = 5; k >= 0; --k)
      MPI_Wait(&req[k], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(6, req, MPI_STATUSES_IGNORE);
  }
  for (int k = 0; k < 4; ++k)
    y += got[k] * x[(k + 4) % n] * (1 + 0.1 * k);
  y += fgot[0] * got[0] + fgot[1] * x[7];
  y += recv[0] * recv[1] + recv[1] * recv[1] * x[0];
  y += 0.01 * (igot[0] + igot[1]) * x[5];
  y += rrecv[0] * rrecv[0] * (1 + rank) + 2 * rrecv[1] * x[1];
  return y;
}

/* The nonblocking v and w forms: MPI_Ineighbor_allgatherv on the ring,
 * MPI_Ineighbor_alltoallv on the chain (overlapping send blocks, the ends'
 * blocks kept) and MPI_Ineighbor_alltoallw on the grid (a double block
 * each way in dimension 0, floats in dimension 1, whose one rank is its
 * own neighbour both ways), waited for in different orders on even and
 * odd ranks. */
double nonblocking_v(double *x, int n) {
  int rank = rank_of(), size = size_of();
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Request req[3];
  double send[2] = {x[0] * x[1], exp(0.2 * x[2])};
  int rcounts[2] = {1 + left % 2, 1 + right % 2}, displs[2] = {0, 3};
  double got[5] = {x[3], x[4], x[5], x[6], x[7]};
  MPI_Ineighbor_allgatherv(send, 1 + rank % 2, MPI_DOUBLE, got, rcounts,
                           displs, MPI_DOUBLE, ring, &req[0]);
  double csend[3] = {x[1] * x[2], sin(x[3]), x[4] * (1 + rank)};
  int scounts[2] = {1 + rank % 2, 2 - rank % 2}, sdispls[2] = {1, 0};
  int ccounts[2] = {2 - (rank + 1) % 2, 1 + (rank + 1) % 2};
  int cdispls[2] = {2, 0};
  double crecv[4] = {x[0], x[2] * x[2], x[5], 0.5 * x[6]};
  MPI_Ineighbor_alltoallv(csend, scounts, sdispls, MPI_DOUBLE, crecv, ccounts,
                          cdispls, MPI_DOUBLE, chain, &req[1]);
  struct {
    double d[2];
    float f[2];
  } ws, wr;
  ws.d[0] = x[5] * x[6];
  ws.d[1] = cos(x[7]);
  ws.f[0] = (float)(x[0] * x[3]);
  ws.f[1] = (float)(x[1] + x[4]);
  wr.d[0] = wr.d[1] = x[1];
  wr.f[0] = wr.f[1] = (float)x[2];
  int wcounts[4] = {1, 1, 1, 1};
  MPI_Aint sdw[4] = {0, sizeof(double), 2 * sizeof(double),
                     2 * sizeof(double) + sizeof(float)};
  MPI_Datatype stw[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_FLOAT, MPI_FLOAT};
  MPI_Aint rdw[4] = {sizeof(double), 0, 2 * sizeof(double) + sizeof(float),
                     2 * sizeof(double)};
  MPI_Ineighbor_alltoallw(&ws, wcounts, sdw, stw, &wr, wcounts, rdw, stw, grid,
                          &req[2]);
  if (rank % 2) {
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  }
  double y = 0;
  for (int k = 0; k < 5; ++k)
    y += got[k] * got[k] * (1 + 0.1 * k) + got[k] * x[k % n];
  for (int k = 0; k < 4; ++k)
    y += crecv[k] * crecv[k] + crecv[k] * x[(k + 3) % n];
  y += wr.d[0] * wr.d[1] + wr.f[0] * wr.d[0] + wr.f[1] * wr.f[1] * x[2];
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
  int dims[2] = {size, 1}, periods[2] = {1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("ring_allgatherv", ring_allgatherv, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("chain_alltoallv", chain_alltoallv, x, N, 1e-6, 1e-6);
  /* (float blocks: a larger step, a looser tolerance) */
  mpi_check_derivatives("grid_alltoallw", grid_alltoallw, x, N, 1e-3, 1e-4);
  mpi_check_derivatives("nonblocking", nonblocking, x, N, 1e-3, 1e-4);
  mpi_check_derivatives("nonblocking_v", nonblocking_v, x, N, 1e-3, 1e-4);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&chain);
  MPI_Comm_free(&ring);
  return mpi_check_finish();
}
