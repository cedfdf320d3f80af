/* Derivatives through the neighbourhood collectives on graph topologies:
 * a distributed graph whose lists are not symmetric (each rank receives
 * from the rank on its left and from the one two to its right, and sends
 * to those that receive from it; the reverse exchange runs on the
 * transposed graph), with MPI_Neighbor_alltoall, MPI_Neighbor_allgatherv
 * and MPI_Ineighbor_alltoallv, and a graph of MPI_Graph_create (a ring,
 * symmetric) with MPI_Neighbor_allgather. Forward and reverse mode on
 * every rank, checked against central differences of the whole program and
 * against each other (mpi_check.h). Run with 2 to 4 ranks (with 2, both
 * sources of a rank are one rank: a neighbour twice). Until 2026-12-06
 * reverse mode stopped the program on graph topologies. */
#include "mpi_check.h"

enum { N = 6, MAXP = 4 };

static MPI_Comm dist, ring;

static int rank_of(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/* Sources: left (r - 1), then r + 2; destinations: r + 1, then r - 2. */
double dist_alltoall(double *x, int n) {
  int rank = rank_of();
  double send[2] = {x[0] * x[1], sin(x[2]) * (1 + rank)};
  double recv[2] = {x[3], x[4]};
  MPI_Neighbor_alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, dist);
  return recv[0] * recv[0] + 3 * recv[1] * x[5] + recv[0] * recv[1] * x[n - 1];
}

/* Every rank sends 1 + rank % 2 values to both destinations; the blocks
 * from its sources arrive with a gap between them. */
double dist_allgatherv(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(dist, &rank);
  MPI_Comm_size(dist, &size);
  int left = (rank + size - 1) % size, far = (rank + 2) % size;
  double send[2] = {x[0] * x[0], exp(0.3 * x[1])};
  int rcounts[2] = {1 + left % 2, 1 + far % 2}, displs[2] = {0, 3};
  double got[5] = {x[2], x[3], x[4], x[5], x[1]};
  MPI_Neighbor_allgatherv(send, 1 + rank % 2, MPI_DOUBLE, got, rcounts, displs,
                          MPI_DOUBLE, dist);
  double y = 0;
  for (int k = 0; k < 5; ++k)
    y += got[k] * got[k] * (1 + 0.1 * k) + got[k] * x[k % n];
  return y;
}

/* Blocks of 2 and 1 values, overlapping send blocks, nonblocking. */
double dist_ialltoallv(double *x, int n) {
  double send[2] = {x[0] * x[2], cos(x[1])};
  int scounts[2] = {2, 1}, sdispls[2] = {0, 1};
  int rcounts[2] = {2, 1}, rdispls[2] = {1, 0};
  double recv[3] = {x[3], x[4], x[5]};
  MPI_Request req;
  MPI_Ineighbor_alltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts,
                          rdispls, MPI_DOUBLE, dist, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  (void)n;
  return recv[0] * recv[1] + recv[2] * recv[2] * x[0];
}

/* A ring of MPI_Graph_create: each rank's one value to both neighbours. */
double graph_allgather(double *x, int n) {
  double mine = x[0] * x[1] + x[2];
  double got[2];
  MPI_Neighbor_allgather(&mine, 1, MPI_DOUBLE, got, 1, MPI_DOUBLE, ring);
  (void)n;
  return got[0] * got[1] * x[3] + got[0] * x[4];
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sources[2] = {(rank + size - 1) % size, (rank + 2) % size};
  int dests[2] = {(rank + 1) % size, (rank + size - 2) % size};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2,
                                 dests, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &dist);
  int index[MAXP], edges[2 * MAXP];
  for (int r = 0; r < size; ++r) {
    index[r] = 2 * (r + 1);
    edges[2 * r] = (r + size - 1) % size;
    edges[2 * r + 1] = (r + 1) % size;
  }
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.2 * i + 0.1 * rank;
  mpi_check_derivatives("dist_alltoall", dist_alltoall, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("dist_allgatherv", dist_allgatherv, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("dist_ialltoallv", dist_ialltoallv, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("graph_allgather", graph_allgather, x, N, 1e-6, 1e-6);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&dist);
  return mpi_check_finish();
}
