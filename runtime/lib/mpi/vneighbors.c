/*===- vneighbors.c - Neighbourhood collectives of several block sizes ---===*
 *
 * MPI_Neighbor_allgatherv, MPI_Neighbor_alltoallv and
 * MPI_Neighbor_alltoallw exchange blocks of their own counts with the
 * neighbours of a process topology: block k of the receive buffer comes
 * from in-neighbour k, at the program's displacement (in elements; in
 * bytes for the w form, which gives every block its datatype).
 * MPI_Neighbor_allgatherv sends its one block to every out-neighbour.
 *
 * Forward mode runs the collective a second time on the tangents (zeros
 * where a buffer has none), with the program's counts and displacements,
 * on any topology; a block of an integer type carries none (its count is
 * 0 in the tangents' exchange).
 *
 * Reverse mode sends the adjoint of each received block back to the
 * neighbour it came from, which adds it into the block it sent (all of
 * them into its one block for MPI_Neighbor_allgatherv), as for the
 * collectives of one block size (neighbors.c): one MPI_Neighbor_alltoallw
 * of the receive buffer's adjoints, block k back to in-neighbour k,
 * arriving end to end, on the communicator itself (Cartesian and graph
 * topologies, whose neighbour lists MPI pairs symmetrically) or on the
 * transposed distributed graph. Blocks of MPI_PROC_NULL neighbours
 * keep their adjoints; the other received blocks are zeroed, as the
 * primal overwrote them. The counts, displacements and datatypes are the
 * augmented call's tape record (the program's arrays may be gone by the
 * reverse sweep). The
 * reverse exchange is blocking for the blocking calls, nonblocking (and
 * waited for) for the nonblocking ones, which OpenMPI pairs differently
 * where a neighbour appears twice (neighbors.c).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>
#include <string.h>

static const char Allgatherv[] = "MPI_Neighbor_allgatherv";
static const char Alltoallv[] = "MPI_Neighbor_alltoallv";
static const char Alltoallw[] = "MPI_Neighbor_alltoallw";

static void *zeroed(size_t bytes, MPI_Comm comm, const char *call) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    adcc_mpi_fail(comm, call, "out of memory");
  return p;
}

static void *bytes_at(const void *buf, size_t at) {
  return buf ? (char *)buf + at : NULL;
}

/* One side of an exchange, as MPI_Neighbor_alltoallw takes it: per block,
 * the count of elements that carry derivatives (0 for an integer block),
 * the displacement in bytes and the datatype. */
struct blocks {
  int n;
  int *counts;
  MPI_Aint *displs;
  MPI_Datatype *types;
};

static struct blocks make(int n, MPI_Comm comm, const char *call) {
  size_t m = (size_t)(n > 0 ? n : 1);
  struct blocks b = {n, zeroed(sizeof(int) * m, comm, call),
                     zeroed(sizeof(MPI_Aint) * m, comm, call),
                     zeroed(sizeof(MPI_Datatype) * m, comm, call)};
  return b;
}

static void release(struct blocks *b) {
  free(b->counts);
  free(b->displs);
  free(b->types);
}

/* Block k: \p count elements of \p type at element \p displ (in elements
 * of the type; \p byte_displ: in bytes). */
static void set(struct blocks *b, int k, int count, MPI_Aint displ,
                int byte_displ, MPI_Datatype type, MPI_Comm comm,
                const char *call) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  b->counts[k] = kind == ADCC_MPI_INACTIVE || count < 0 ? 0 : count;
  b->displs[k] = byte_displ ? displ : displ * (MPI_Aint)adcc_mpi_size_of(kind);
  b->types[k] = type;
}

static enum adcc_mpi_kind kind_at(const struct blocks *b, int k, MPI_Comm comm,
                                  const char *call) {
  return adcc_mpi_kind_of(b->types[k], call, comm);
}

static size_t block_bytes(const struct blocks *b, int k, MPI_Comm comm,
                          const char *call) {
  return adcc_mpi_size_of(kind_at(b, k, comm, call)) * (size_t)b->counts[k];
}

/* The bytes the blocks with derivatives reach. */
static size_t extent(const struct blocks *b, MPI_Comm comm, const char *call) {
  size_t end = 0;
  for (int k = 0; k < b->n; ++k)
    if (b->counts[k]) {
      size_t e = (size_t)b->displs[k] + block_bytes(b, k, comm, call);
      if (e > end)
        end = e;
    }
  return end;
}

/* The tangents' exchange over the blocks \p s and \p r. */
static void tangents(const void *dsend, const struct blocks *s, void *drecv,
                     const struct blocks *r, MPI_Comm comm, const char *call) {
  void *own_send = NULL, *own_recv = NULL;
  if (!dsend)
    dsend = own_send = zeroed(extent(s, comm, call), comm, call);
  if (!drecv)
    drecv = own_recv = zeroed(extent(r, comm, call), comm, call);
  MPI_Neighbor_alltoallw(dsend, s->counts, s->displs, s->types, drecv,
                         r->counts, r->displs, r->types, comm);
  free(own_send);
  free(own_recv);
}

/* The tape record: both sides' blocks; whether the ranks exchange
 * derivatives (the v forms: their datatype carries them; the w form:
 * always, since its blocks' datatypes may differ from rank to rank, and
 * every rank must take part in the collective). */
struct adcc_mpi_nblocks {
  struct blocks s, r;
  int active;
};

/* The adjoints' exchange: received block k's adjoint back to neighbour
 * k, added into its send block k; frees \p k. */
void adcc_mpi_neighbor_blocks_rev(void *dsend, void *drecv, MPI_Comm comm,
                                  struct adcc_mpi_nblocks *k, const char *call,
                                  int nonblocking) {
  if (k->active) {
    struct adcc_mpi_adjoint_topo t;
    adcc_mpi_adjoint_topology(comm, call, &t);
    if (t.in != k->r.n || t.out != k->s.n)
      adcc_mpi_fail(comm, call,
                    "the neighbourhood changed before the reverse sweep");
    size_t rn = extent(&k->r, comm, call);
    void *in = zeroed(rn, comm, call);
    if (drecv)
      memcpy(in, drecv, rn);
    /* (The adjoints of the sent blocks arrive end to end.) */
    struct blocks back = make(t.out, comm, call);
    size_t total = 0;
    for (int j = 0; j < t.out; ++j) {
      back.counts[j] = k->s.counts[j];
      back.types[j] = k->s.types[j];
      back.displs[j] = (MPI_Aint)total;
      total += block_bytes(&k->s, j, comm, call);
    }
    void *got = zeroed(total, comm, call);
    if (nonblocking) {
      MPI_Request request;
      MPI_Ineighbor_alltoallw(in, k->r.counts, k->r.displs, k->r.types, got,
                              back.counts, back.displs, back.types, t.comm,
                              &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
      MPI_Neighbor_alltoallw(in, k->r.counts, k->r.displs, k->r.types, got,
                             back.counts, back.displs, back.types, t.comm);
    }
    /* (Nothing comes back from an MPI_PROC_NULL neighbour; its block, which
     * MPI did not write, keeps its adjoint.) */
    for (int j = 0; j < t.out; ++j)
      if (!t.none[j] && k->s.counts[j])
        adcc_mpi_add(kind_at(&k->s, j, comm, call),
                     bytes_at(dsend, (size_t)k->s.displs[j]),
                     bytes_at(got, (size_t)back.displs[j]),
                     (size_t)k->s.counts[j]);
    for (int j = 0; j < t.in; ++j)
      if (!t.none[j] && k->r.counts[j])
        adcc_mpi_zero(kind_at(&k->r, j, comm, call),
                      bytes_at(drecv, (size_t)k->r.displs[j]),
                      (size_t)k->r.counts[j]);
    release(&back);
    free(got);
    free(in);
    adcc_mpi_adjoint_topology_free(&t);
  }
  release(&k->s);
  release(&k->r);
  free(k);
}

/* Both sides' datatypes of the v forms must carry derivatives alike. */
static void same_kind(MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                      const char *call) {
  if (adcc_mpi_kind_of(stype, call, comm) !=
      adcc_mpi_kind_of(rtype, call, comm))
    adcc_mpi_fail(comm, call,
                  "the send and receive datatypes must be the same in "
                  "differentiated code");
}

/*--- MPI_Neighbor_allgatherv ----------------------------------------------*/

struct adcc_mpi_nblocks *
adcc_mpi_neighbor_allgatherv_keep(int scount, MPI_Datatype stype,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm) {
  same_kind(stype, rtype, comm, Allgatherv);
  int in = 0, out = 0;
  adcc_mpi_neighbor_degrees(comm, Allgatherv, &in, &out);
  struct adcc_mpi_nblocks *k = zeroed(sizeof *k, comm, Allgatherv);
  k->active = adcc_mpi_kind_of(stype, Allgatherv, comm) != ADCC_MPI_INACTIVE;
  k->s = make(out, comm, Allgatherv);
  k->r = make(in, comm, Allgatherv);
  for (int j = 0; j < out; ++j)
    set(&k->s, j, scount, 0, 0, stype, comm, Allgatherv);
  for (int j = 0; j < in; ++j)
    set(&k->r, j, rcounts[j], displs[j], 0, rtype, comm, Allgatherv);
  return k;
}

void adcc_mpi_neighbor_blocks_free(struct adcc_mpi_nblocks *k) {
  release(&k->s);
  release(&k->r);
  free(k);
}

int adcc_mpi_neighbor_allgatherv_fwd(const void *send, const void *dsend,
                                     int scount, MPI_Datatype stype, void *recv,
                                     void *drecv, const int *rcounts,
                                     const int *displs, MPI_Datatype rtype,
                                     MPI_Comm comm) {
  int rc = MPI_Neighbor_allgatherv(send, scount, stype, recv, rcounts, displs,
                                   rtype, comm);
  struct adcc_mpi_nblocks *k = adcc_mpi_neighbor_allgatherv_keep(
      scount, stype, rcounts, displs, rtype, comm);
  /* (One send block, however many out-neighbours.) */
  if (k->active) {
    void *own = NULL;
    if (!dsend)
      dsend = own =
          zeroed(adcc_mpi_size_of(adcc_mpi_kind_of(stype, Allgatherv, comm)) *
                     (size_t)(scount > 0 ? scount : 0),
                 comm, Allgatherv);
    void *own_recv = NULL;
    if (!drecv)
      drecv = own_recv =
          zeroed(extent(&k->r, comm, Allgatherv), comm, Allgatherv);
    MPI_Neighbor_allgatherv(dsend, scount, stype, drecv, rcounts, displs, rtype,
                            comm);
    free(own);
    free(own_recv);
  }
  adcc_mpi_neighbor_blocks_free(k);
  return rc;
}

int adcc_mpi_neighbor_allgatherv_aug(const void *send, int scount,
                                     MPI_Datatype stype, void *recv,
                                     const int *rcounts, const int *displs,
                                     MPI_Datatype rtype, MPI_Comm comm,
                                     void **tape) {
  *tape = adcc_mpi_neighbor_allgatherv_keep(scount, stype, rcounts, displs,
                                            rtype, comm);
  return MPI_Neighbor_allgatherv(send, scount, stype, recv, rcounts, displs,
                                 rtype, comm);
}

/* (Every send block of the record is the one block: at displacement 0,
 * each neighbour's adjoint is added into it.) */
void adcc_mpi_neighbor_allgatherv_rev(void *dsend, int scount,
                                      MPI_Datatype stype, void *drecv,
                                      MPI_Datatype rtype, MPI_Comm comm,
                                      void *tape) {
  (void)scount, (void)stype, (void)rtype;
  adcc_mpi_neighbor_blocks_rev(dsend, drecv, comm, tape, Allgatherv, 0);
}

/*--- MPI_Neighbor_alltoallv -----------------------------------------------*/

struct adcc_mpi_nblocks *adcc_mpi_neighbor_alltoallv_keep(
    const int *scounts, const int *sdispls, MPI_Datatype stype,
    const int *rcounts, const int *rdispls, MPI_Datatype rtype, MPI_Comm comm) {
  same_kind(stype, rtype, comm, Alltoallv);
  int in = 0, out = 0;
  adcc_mpi_neighbor_degrees(comm, Alltoallv, &in, &out);
  struct adcc_mpi_nblocks *k = zeroed(sizeof *k, comm, Alltoallv);
  k->active = adcc_mpi_kind_of(stype, Alltoallv, comm) != ADCC_MPI_INACTIVE;
  k->s = make(out, comm, Alltoallv);
  k->r = make(in, comm, Alltoallv);
  for (int j = 0; j < out; ++j)
    set(&k->s, j, scounts[j], sdispls[j], 0, stype, comm, Alltoallv);
  for (int j = 0; j < in; ++j)
    set(&k->r, j, rcounts[j], rdispls[j], 0, rtype, comm, Alltoallv);
  return k;
}

int adcc_mpi_neighbor_alltoallv_fwd(const void *send, const void *dsend,
                                    const int *scounts, const int *sdispls,
                                    MPI_Datatype stype, void *recv, void *drecv,
                                    const int *rcounts, const int *rdispls,
                                    MPI_Datatype rtype, MPI_Comm comm) {
  int rc = MPI_Neighbor_alltoallv(send, scounts, sdispls, stype, recv, rcounts,
                                  rdispls, rtype, comm);
  struct adcc_mpi_nblocks *k = adcc_mpi_neighbor_alltoallv_keep(
      scounts, sdispls, stype, rcounts, rdispls, rtype, comm);
  if (k->active)
    tangents(dsend, &k->s, drecv, &k->r, comm, Alltoallv);
  adcc_mpi_neighbor_blocks_free(k);
  return rc;
}

int adcc_mpi_neighbor_alltoallv_aug(const void *send, const int *scounts,
                                    const int *sdispls, MPI_Datatype stype,
                                    void *recv, const int *rcounts,
                                    const int *rdispls, MPI_Datatype rtype,
                                    MPI_Comm comm, void **tape) {
  *tape = adcc_mpi_neighbor_alltoallv_keep(scounts, sdispls, stype, rcounts,
                                           rdispls, rtype, comm);
  return MPI_Neighbor_alltoallv(send, scounts, sdispls, stype, recv, rcounts,
                                rdispls, rtype, comm);
}

void adcc_mpi_neighbor_alltoallv_rev(void *dsend, void *drecv, MPI_Comm comm,
                                     void *tape) {
  adcc_mpi_neighbor_blocks_rev(dsend, drecv, comm, tape, Alltoallv, 0);
}

/*--- MPI_Neighbor_alltoallw -----------------------------------------------*/

struct adcc_mpi_nblocks *
adcc_mpi_neighbor_alltoallw_keep(const int *scounts, const MPI_Aint *sdispls,
                                 const MPI_Datatype *stypes, const int *rcounts,
                                 const MPI_Aint *rdispls,
                                 const MPI_Datatype *rtypes, MPI_Comm comm) {
  int in = 0, out = 0;
  adcc_mpi_neighbor_degrees(comm, Alltoallw, &in, &out);
  struct adcc_mpi_nblocks *k = zeroed(sizeof *k, comm, Alltoallw);
  k->active = 1;
  k->s = make(out, comm, Alltoallw);
  k->r = make(in, comm, Alltoallw);
  for (int j = 0; j < out; ++j)
    set(&k->s, j, scounts[j], sdispls[j], 1, stypes[j], comm, Alltoallw);
  for (int j = 0; j < in; ++j)
    set(&k->r, j, rcounts[j], rdispls[j], 1, rtypes[j], comm, Alltoallw);
  return k;
}

int adcc_mpi_neighbor_alltoallw_fwd(const void *send, const void *dsend,
                                    const int *scounts, const MPI_Aint *sdispls,
                                    const MPI_Datatype *stypes, void *recv,
                                    void *drecv, const int *rcounts,
                                    const MPI_Aint *rdispls,
                                    const MPI_Datatype *rtypes, MPI_Comm comm) {
  int rc = MPI_Neighbor_alltoallw(send, scounts, sdispls, stypes, recv, rcounts,
                                  rdispls, rtypes, comm);
  struct adcc_mpi_nblocks *k = adcc_mpi_neighbor_alltoallw_keep(
      scounts, sdispls, stypes, rcounts, rdispls, rtypes, comm);
  /* (Every rank runs the tangents' exchange: a neighbour's blocks may
   * carry derivatives where this rank's are integers.) */
  tangents(dsend, &k->s, drecv, &k->r, comm, Alltoallw);
  adcc_mpi_neighbor_blocks_free(k);
  return rc;
}

int adcc_mpi_neighbor_alltoallw_aug(const void *send, const int *scounts,
                                    const MPI_Aint *sdispls,
                                    const MPI_Datatype *stypes, void *recv,
                                    const int *rcounts, const MPI_Aint *rdispls,
                                    const MPI_Datatype *rtypes, MPI_Comm comm,
                                    void **tape) {
  *tape = adcc_mpi_neighbor_alltoallw_keep(scounts, sdispls, stypes, rcounts,
                                           rdispls, rtypes, comm);
  return MPI_Neighbor_alltoallw(send, scounts, sdispls, stypes, recv, rcounts,
                                rdispls, rtypes, comm);
}

void adcc_mpi_neighbor_alltoallw_rev(void *dsend, void *drecv, MPI_Comm comm,
                                     void *tape) {
  adcc_mpi_neighbor_blocks_rev(dsend, drecv, comm, tape, Alltoallw, 0);
}

/*--- the nonblocking forms -----------------------------------------------*/

/* Forward mode: the tangents' exchange over the blocks of \p k, started
 * into \p request (zeros for a missing shadow, kept in *zeros_send and
 * *zeros_recv until the wait; \p k too: MPI reads the counts until then). */
void adcc_mpi_neighbor_blocks_start(const void *dsend, void *drecv,
                                    struct adcc_mpi_nblocks *k, MPI_Comm comm,
                                    MPI_Request *request, void **zeros_send,
                                    void **zeros_recv, const char *call) {
  if (!dsend)
    dsend = *zeros_send = zeroed(extent(&k->s, comm, call), comm, call);
  if (!drecv)
    drecv = *zeros_recv = zeroed(extent(&k->r, comm, call), comm, call);
  MPI_Ineighbor_alltoallw(dsend, k->s.counts, k->s.displs, k->s.types, drecv,
                          k->r.counts, k->r.displs, k->r.types, comm, request);
}

int adcc_mpi_neighbor_blocks_active(const struct adcc_mpi_nblocks *k) {
  return k->active;
}
