/*===- neighbors.c - Neighbourhood collectives of differentiated code ----===*
 *
 * MPI_Neighbor_allgather and MPI_Neighbor_alltoall exchange blocks with
 * the neighbours of a process topology: block k of the receive buffer
 * comes from in-neighbour k; MPI_Neighbor_allgather sends its one block to
 * every out-neighbour, MPI_Neighbor_alltoall block k to out-neighbour k.
 *
 * Forward mode runs the collective a second time on the tangents (zeros
 * where a buffer has none), on any topology.
 *
 * Reverse mode sends the adjoint of each received block back to the
 * neighbour it came from, which adds it into the block it sent (all of
 * them into its one block for MPI_Neighbor_allgather). On a Cartesian
 * communicator that is MPI_Neighbor_alltoall of the receive buffer's
 * adjoints on the same communicator: MPI pairs the blocks of its
 * neighbour lists symmetrically (the block a process sends to its
 * neighbour in direction -1 of dimension d arrives as that neighbour's
 * block from direction +1, and the reverse), so the adjoint of the block
 * that arrived as block k goes out as block k and arrives where the block
 * was sent from. Blocks of MPI_PROC_NULL neighbours (the edges of a grid
 * that is not periodic) are not written by MPI: they keep their adjoints;
 * the others are zeroed, as the primal overwrote them. Graph topologies,
 * whose neighbour lists need not be symmetric, stop the program in reverse
 * mode.
 *
 * Where a neighbour appears twice (a periodic dimension of one or two
 * processes), the MPI standard sends the block for direction +1 into the
 * neighbour's block from direction -1; OpenMPI's nonblocking neighbourhood
 * collectives pair such blocks in list order instead (block k into block
 * k). Either pairing is its own inverse, so the adjoints go back right
 * when the reverse exchange is the same kind of call as the program's:
 * the reverses of the nonblocking forms exchange by the nonblocking call
 * (and a wait), those of the blocking forms by the blocking one.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

static const char Allgather[] = "MPI_Neighbor_allgather";
static const char Alltoall[] = "MPI_Neighbor_alltoall";

void adcc_mpi_neighbor_degrees(MPI_Comm comm, const char *call, int *in,
                               int *out) {
  int topo = MPI_UNDEFINED;
  MPI_Topo_test(comm, &topo);
  if (topo == MPI_CART) {
    int dims = 0;
    MPI_Cartdim_get(comm, &dims);
    *in = *out = 2 * dims;
  } else if (topo == MPI_GRAPH) {
    MPI_Graph_neighbors_count(comm, adcc_mpi_rank(comm), in);
    *out = *in;
  } else if (topo == MPI_DIST_GRAPH) {
    int weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
  } else {
    adcc_mpi_fail(comm, call, "the communicator has no process topology");
  }
}

/* The kind of the exchange's blocks: both sides' datatypes must carry
 * derivatives alike. */
static enum adcc_mpi_kind kind_of(MPI_Datatype stype, MPI_Datatype rtype,
                                  MPI_Comm comm, const char *call) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(stype, call, comm);
  if (adcc_mpi_kind_of(rtype, call, comm) != kind)
    adcc_mpi_fail(comm, call,
                  "the send and receive datatypes must be the same in "
                  "differentiated code");
  return kind;
}

/* The tangents' exchange: \p per_send blocks of \p scount are sent. */
static void tangents(int alltoall, const void *dsend, int scount,
                     MPI_Datatype stype, void *drecv, int rcount,
                     MPI_Datatype rtype, MPI_Comm comm, const char *call) {
  enum adcc_mpi_kind kind = kind_of(stype, rtype, comm, call);
  int in = 0, out = 0;
  adcc_mpi_neighbor_degrees(comm, call, &in, &out);
  void *own_send = NULL, *own_recv = NULL;
  if (!dsend)
    dsend = own_send = adcc_mpi_temp(
        kind, NULL, (size_t)scount * (size_t)(alltoall ? out : 1));
  if (!drecv)
    drecv = own_recv = adcc_mpi_temp(kind, NULL, (size_t)rcount * (size_t)in);
  if (alltoall)
    MPI_Neighbor_alltoall(dsend, scount, stype, drecv, rcount, rtype, comm);
  else
    MPI_Neighbor_allgather(dsend, scount, stype, drecv, rcount, rtype, comm);
  free(own_send);
  free(own_recv);
}

int adcc_mpi_neighbor_allgather_fwd(const void *send, const void *dsend,
                                    int scount, MPI_Datatype stype, void *recv,
                                    void *drecv, int rcount, MPI_Datatype rtype,
                                    MPI_Comm comm) {
  int rc =
      MPI_Neighbor_allgather(send, scount, stype, recv, rcount, rtype, comm);
  if (kind_of(stype, rtype, comm, Allgather) != ADCC_MPI_INACTIVE)
    tangents(0, dsend, scount, stype, drecv, rcount, rtype, comm, Allgather);
  return rc;
}

int adcc_mpi_neighbor_alltoall_fwd(const void *send, const void *dsend,
                                   int scount, MPI_Datatype stype, void *recv,
                                   void *drecv, int rcount, MPI_Datatype rtype,
                                   MPI_Comm comm) {
  int rc =
      MPI_Neighbor_alltoall(send, scount, stype, recv, rcount, rtype, comm);
  if (kind_of(stype, rtype, comm, Alltoall) != ADCC_MPI_INACTIVE)
    tangents(1, dsend, scount, stype, drecv, rcount, rtype, comm, Alltoall);
  return rc;
}

unsigned char *adcc_mpi_cart_blocks(MPI_Comm comm, const char *call,
                                    int *blocks) {
  int topo = MPI_UNDEFINED;
  MPI_Topo_test(comm, &topo);
  if (topo != MPI_CART)
    adcc_mpi_fail(comm, call,
                  "reverse mode differentiates neighbourhood collectives on "
                  "Cartesian communicators only (MPI_Cart_create)");
  int dims = 0;
  MPI_Cartdim_get(comm, &dims);
  unsigned char *none = calloc((size_t)(dims > 0 ? 2 * dims : 1), 1);
  if (!none)
    adcc_mpi_fail(comm, call, "out of memory");
  for (int d = 0; d < dims; ++d) {
    int peer[2];
    MPI_Cart_shift(comm, d, 1, &peer[0], &peer[1]);
    none[2 * d] = peer[0] == MPI_PROC_NULL;
    none[2 * d + 1] = peer[1] == MPI_PROC_NULL;
  }
  *blocks = 2 * dims;
  return none;
}

void adcc_mpi_neighbor_exchange(const void *send, int scount,
                                MPI_Datatype stype, void *recv, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                int nonblocking) {
  if (!nonblocking) {
    MPI_Neighbor_alltoall(send, scount, stype, recv, rcount, rtype, comm);
    return;
  }
  MPI_Request request;
  MPI_Ineighbor_alltoall(send, scount, stype, recv, rcount, rtype, comm,
                         &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/* The reverse of both: the received blocks' adjoints go back to their
 * neighbours; \p alltoall: block k of the returned adjoints is added into
 * send block k, otherwise all of them into the one send block. */
static void reverse(int alltoall, void *dsend, int scount, MPI_Datatype stype,
                    void *drecv, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                    const char *call, int nonblocking) {
  enum adcc_mpi_kind kind = kind_of(stype, rtype, comm, call);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int n = 0;
  unsigned char *none = adcc_mpi_cart_blocks(comm, call, &n);
  size_t rn = (size_t)rcount, sn = (size_t)scount;
  void *in = adcc_mpi_temp(kind, drecv, rn * (size_t)n);
  void *back = adcc_mpi_temp(kind, NULL, sn * (size_t)n);
  adcc_mpi_neighbor_exchange(in, rcount, rtype, back, scount, stype, comm,
                             nonblocking);
  size_t size = adcc_mpi_size_of(kind);
  for (int k = 0; k < n; ++k) {
    if (none[k])
      continue; /* (nothing came back; the block kept its adjoint) */
    if (dsend)
      adcc_mpi_add(kind, (char *)dsend + size * sn * (size_t)(alltoall ? k : 0),
                   (char *)back + size * sn * (size_t)k, sn);
    if (drecv)
      adcc_mpi_zero(kind, (char *)drecv + size * rn * (size_t)k, rn);
  }
  free(none);
  free(in);
  free(back);
}

void adcc_mpi_neighbor_allgather_rev(void *dsend, int scount,
                                     MPI_Datatype stype, void *drecv,
                                     int rcount, MPI_Datatype rtype,
                                     MPI_Comm comm) {
  reverse(0, dsend, scount, stype, drecv, rcount, rtype, comm, Allgather, 0);
}

void adcc_mpi_neighbor_alltoall_rev(void *dsend, int scount, MPI_Datatype stype,
                                    void *drecv, int rcount, MPI_Datatype rtype,
                                    MPI_Comm comm) {
  reverse(1, dsend, scount, stype, drecv, rcount, rtype, comm, Alltoall, 0);
}

void adcc_mpi_ineighbor_rev(int alltoall, void *dsend, int scount,
                            MPI_Datatype stype, void *drecv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm,
                            const char *call) {
  reverse(alltoall, dsend, scount, stype, drecv, rcount, rtype, comm, call, 1);
}
