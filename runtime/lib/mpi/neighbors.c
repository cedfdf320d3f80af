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
 * the others are zeroed, as the primal overwrote them. On a graph
 * topology (MPI_Graph_create) the neighbour lists are symmetric too and
 * MPI pairs the messages of two ranks in list order: the same exchange on
 * the same communicator. A distributed graph's lists need not be: its
 * adjoint exchange runs on the transposed graph, made for it
 * (MPI_Dist_graph_create_adjacent with the sources and destinations
 * swapped) and freed after it.
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

void adcc_mpi_adjoint_topology(MPI_Comm comm, const char *call,
                               struct adcc_mpi_adjoint_topo *t) {
  int topo = MPI_UNDEFINED;
  MPI_Topo_test(comm, &topo);
  t->comm = comm;
  t->made = 0;
  int *lists = NULL;
  if (topo == MPI_CART) {
    int dims = 0;
    MPI_Cartdim_get(comm, &dims);
    t->in = t->out = 2 * dims;
  } else if (topo == MPI_GRAPH) {
    MPI_Graph_neighbors_count(comm, adcc_mpi_rank(comm), &t->in);
    t->out = t->in;
  } else if (topo == MPI_DIST_GRAPH) {
    int weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &t->in, &t->out, &weighted);
    /* (sources, their weights, destinations, theirs) */
    size_t n = (size_t)(t->in + t->out) * 2 + 1;
    lists = malloc(sizeof(int) * n);
    if (!lists)
      adcc_mpi_fail(comm, call, "out of memory");
    int *sources = lists, *sweights = sources + t->in,
        *dests = sweights + t->in, *dweights = dests + t->out;
    MPI_Dist_graph_neighbors(comm, t->in, sources, sweights, t->out, dests,
                             dweights);
    /* The transposed graph: adjoints come from the destinations and go to
     * the sources, each pair of ranks in the order of their lists. */
    /* (The weights as given, or 1: they only hint at the traffic.) */
    for (int k = 0; !weighted && k < t->in; ++k)
      sweights[k] = 1;
    for (int k = 0; !weighted && k < t->out; ++k)
      dweights[k] = 1;
    MPI_Dist_graph_create_adjacent(comm, t->out, dests, dweights, t->in,
                                   sources, sweights, MPI_INFO_NULL, 0,
                                   &t->comm);
    t->made = 1;
  } else {
    adcc_mpi_fail(comm, call, "the communicator has no process topology");
  }
  int n = t->in > t->out ? t->in : t->out;
  t->none = calloc((size_t)(n > 0 ? n : 1), 1);
  if (!t->none)
    adcc_mpi_fail(comm, call, "out of memory");
  for (int d = 0; topo == MPI_CART && 2 * d < t->in; ++d) {
    int peer[2];
    MPI_Cart_shift(comm, d, 1, &peer[0], &peer[1]);
    t->none[2 * d] = peer[0] == MPI_PROC_NULL;
    t->none[2 * d + 1] = peer[1] == MPI_PROC_NULL;
  }
  free(lists);
}

void adcc_mpi_adjoint_topology_free(struct adcc_mpi_adjoint_topo *t) {
  if (t->made)
    MPI_Comm_free(&t->comm);
  free(t->none);
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
  struct adcc_mpi_adjoint_topo t;
  adcc_mpi_adjoint_topology(comm, call, &t);
  size_t rn = (size_t)rcount, sn = (size_t)scount;
  void *in = adcc_mpi_temp(kind, drecv, rn * (size_t)t.in);
  void *back = adcc_mpi_temp(kind, NULL, sn * (size_t)t.out);
  adcc_mpi_neighbor_exchange(in, rcount, rtype, back, scount, stype, t.comm,
                             nonblocking);
  size_t size = adcc_mpi_size_of(kind);
  /* (Nothing comes back from an MPI_PROC_NULL neighbour; its block, which
   * MPI did not write, keeps its adjoint.) */
  for (int k = 0; dsend && k < t.out; ++k)
    if (!t.none[k])
      adcc_mpi_add(kind, (char *)dsend + size * sn * (size_t)(alltoall ? k : 0),
                   (char *)back + size * sn * (size_t)k, sn);
  for (int k = 0; drecv && k < t.in; ++k)
    if (!t.none[k])
      adcc_mpi_zero(kind, (char *)drecv + size * rn * (size_t)k, rn);
  adcc_mpi_adjoint_topology_free(&t);
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
