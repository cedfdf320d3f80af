/*===- ineighbors.c - Nonblocking neighbourhood collectives --------------===*
 *
 * MPI_Ineighbor_allgather, MPI_Ineighbor_alltoall and their v and w forms
 * (MPI_Ineighbor_allgatherv, MPI_Ineighbor_alltoallv,
 * MPI_Ineighbor_alltoallw) of differentiated code start a pending record keyed
 *by the program's request variable, as the other nonblocking collectives do
 *(ivgathers.c), which the waits and tests complete.
 *
 * Forward mode starts the program's collective on the values and, right
 * after it, the same collective on the tangents (zeros where a buffer has
 * none), on any process topology: every rank starts the two in the same
 * order, so they match as the program's do. The wait of the program's
 * request waits for the tangents' too. The v and w forms exchange the
 * tangents by MPI_Ineighbor_alltoallw over the blocks vneighbors.c makes
 * of their counts and displacements (an integer block with a count of 0),
 * kept until the wait.
 *
 * Reverse mode runs the program's collective. Its adjoint, that of the
 * blocking MPI_Neighbor_allgather, MPI_Neighbor_alltoall (neighbors.c) or
 * of their v and w forms (vneighbors.c),
 * with the blocks kept at the start, runs at the reverse of the call that
 * started it, in the reverse of the order the program started its
 * collectives, the same on every rank (adcc_mpi_icollective_rev).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

static const char Allgather[] = "MPI_Ineighbor_allgather";
static const char Alltoall[] = "MPI_Ineighbor_alltoall";

static enum adcc_mpi_kind kind_of(MPI_Datatype stype, MPI_Datatype rtype,
                                  MPI_Comm comm, const char *call) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(stype, call, comm);
  if (adcc_mpi_kind_of(rtype, call, comm) != kind)
    adcc_mpi_fail(comm, call,
                  "the send and receive datatypes must be the same in "
                  "differentiated code");
  return kind;
}

static struct adcc_mpi_pending *begin(enum adcc_mpi_started what,
                                      const char *call, MPI_Request *request,
                                      enum adcc_mpi_kind kind, MPI_Comm comm) {
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->started = what;
  p->call = call;
  p->kind = kind;
  p->comm = comm;
  return p;
}

/* The wait of the program's request: the tangents' collective. */
static void wait_tangents(struct adcc_mpi_pending *p) {
  MPI_Wait(&p->reverse, MPI_STATUS_IGNORE);
}

/* Forward mode of both; \p alltoall: one send block per out-neighbour. */
static int forward(int alltoall, const void *send, const void *dsend,
                   int scount, MPI_Datatype stype, void *recv, void *drecv,
                   int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *request) {
  const char *call = alltoall ? Alltoall : Allgather;
  enum adcc_mpi_kind kind = kind_of(stype, rtype, comm, call);
  int rc = alltoall ? MPI_Ineighbor_alltoall(send, scount, stype, recv, rcount,
                                             rtype, comm, request)
                    : MPI_Ineighbor_allgather(send, scount, stype, recv, rcount,
                                              rtype, comm, request);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p = begin(alltoall ? ADCC_MPI_INEIGHBOR_ALLTOALL
                                              : ADCC_MPI_INEIGHBOR_ALLGATHER,
                                     call, request, kind, comm);
  p->unpack = wait_tangents;
  int in = 0, out = 0;
  adcc_mpi_neighbor_degrees(comm, call, &in, &out);
  /* (Zeros for a missing shadow, freed at the wait.) */
  if (!dsend)
    dsend = p->sent = adcc_mpi_temp(
        kind, NULL, (size_t)scount * (size_t)(alltoall ? out : 1));
  if (!drecv)
    drecv = p->temp = adcc_mpi_temp(kind, NULL, (size_t)rcount * (size_t)in);
  if (alltoall)
    MPI_Ineighbor_alltoall(dsend, scount, stype, drecv, rcount, rtype, comm,
                           &p->reverse);
  else
    MPI_Ineighbor_allgather(dsend, scount, stype, drecv, rcount, rtype, comm,
                            &p->reverse);
  return rc;
}

int adcc_mpi_ineighbor_allgather_fwd(const void *send, const void *dsend,
                                     int scount, MPI_Datatype stype, void *recv,
                                     void *drecv, int rcount,
                                     MPI_Datatype rtype, MPI_Comm comm,
                                     MPI_Request *request) {
  return forward(0, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                 comm, request);
}

int adcc_mpi_ineighbor_alltoall_fwd(const void *send, const void *dsend,
                                    int scount, MPI_Datatype stype, void *recv,
                                    void *drecv, int rcount, MPI_Datatype rtype,
                                    MPI_Comm comm, MPI_Request *request) {
  return forward(1, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                 comm, request);
}

/* The augmented call of both: the record of the reverse. */
static int augmented(int alltoall, const void *send, void *dsend, int scount,
                     MPI_Datatype stype, void *recv, void *drecv, int rcount,
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request,
                     void **tape) {
  const char *call = alltoall ? Alltoall : Allgather;
  enum adcc_mpi_kind kind = kind_of(stype, rtype, comm, call);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE) {
    struct adcc_mpi_pending *p = begin(alltoall ? ADCC_MPI_INEIGHBOR_ALLTOALL
                                                : ADCC_MPI_INEIGHBOR_ALLGATHER,
                                       call, request, kind, comm);
    p->sent = dsend;
    p->count = scount;
    p->type = stype;
    p->dbuf = drecv;
    p->count2 = rcount;
    p->type2 = rtype;
    *tape = p;
  }
  return alltoall ? MPI_Ineighbor_alltoall(send, scount, stype, recv, rcount,
                                           rtype, comm, request)
                  : MPI_Ineighbor_allgather(send, scount, stype, recv, rcount,
                                            rtype, comm, request);
}

int adcc_mpi_ineighbor_allgather_aug(const void *send, void *dsend, int scount,
                                     MPI_Datatype stype, void *recv,
                                     void *drecv, int rcount,
                                     MPI_Datatype rtype, MPI_Comm comm,
                                     MPI_Request *request, void **tape) {
  return augmented(0, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                   comm, request, tape);
}

int adcc_mpi_ineighbor_alltoall_aug(const void *send, void *dsend, int scount,
                                    MPI_Datatype stype, void *recv, void *drecv,
                                    int rcount, MPI_Datatype rtype,
                                    MPI_Comm comm, MPI_Request *request,
                                    void **tape) {
  return augmented(1, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                   comm, request, tape);
}

/*--- the v and w forms ---------------------------------------------------*/

static const char Allgatherv[] = "MPI_Ineighbor_allgatherv";
static const char Alltoallv[] = "MPI_Ineighbor_alltoallv";
static const char Alltoallw[] = "MPI_Ineighbor_alltoallw";

/* The wait of the program's request: the tangents' exchange, then the
 * blocks it read. */
static void wait_blocks(struct adcc_mpi_pending *p) {
  MPI_Wait(&p->reverse, MPI_STATUS_IGNORE);
  adcc_mpi_neighbor_blocks_free(p->record);
  p->record = NULL;
}

/* Forward mode of the three, the program's collective started (\p rc):
 * the tangents' exchange over \p k. */
static int forward_blocks(enum adcc_mpi_started what, const char *call,
                          const void *dsend, void *drecv,
                          struct adcc_mpi_nblocks *k, MPI_Comm comm,
                          MPI_Request *request, int rc) {
  if (!adcc_mpi_neighbor_blocks_active(k)) {
    adcc_mpi_neighbor_blocks_free(k);
    return rc;
  }
  struct adcc_mpi_pending *p =
      begin(what, call, request, ADCC_MPI_DOUBLE, comm);
  p->unpack = wait_blocks;
  p->record = k;
  adcc_mpi_neighbor_blocks_start(dsend, drecv, k, comm, &p->reverse, &p->sent,
                                 &p->temp, call);
  return rc;
}

/* The augmented call of the three: the record of the reverse. */
static void *augmented_blocks(enum adcc_mpi_started what, const char *call,
                              void *dsend, void *drecv,
                              struct adcc_mpi_nblocks *k, MPI_Comm comm,
                              MPI_Request *request) {
  if (!adcc_mpi_neighbor_blocks_active(k)) {
    adcc_mpi_neighbor_blocks_free(k);
    return NULL;
  }
  struct adcc_mpi_pending *p =
      begin(what, call, request, ADCC_MPI_DOUBLE, comm);
  p->sent = dsend;
  p->dbuf = drecv;
  p->record = k;
  return p;
}

int adcc_mpi_ineighbor_allgatherv_fwd(const void *send, const void *dsend,
                                      int scount, MPI_Datatype stype,
                                      void *recv, void *drecv,
                                      const int *rcounts, const int *displs,
                                      MPI_Datatype rtype, MPI_Comm comm,
                                      MPI_Request *request) {
  int rc = MPI_Ineighbor_allgatherv(send, scount, stype, recv, rcounts, displs,
                                    rtype, comm, request);
  return forward_blocks(ADCC_MPI_INEIGHBOR_ALLGATHERV, Allgatherv, dsend, drecv,
                        adcc_mpi_neighbor_allgatherv_keep(
                            scount, stype, rcounts, displs, rtype, comm),
                        comm, request, rc);
}

int adcc_mpi_ineighbor_allgatherv_aug(const void *send, void *dsend, int scount,
                                      MPI_Datatype stype, void *recv,
                                      void *drecv, const int *rcounts,
                                      const int *displs, MPI_Datatype rtype,
                                      MPI_Comm comm, MPI_Request *request,
                                      void **tape) {
  *tape =
      augmented_blocks(ADCC_MPI_INEIGHBOR_ALLGATHERV, Allgatherv, dsend, drecv,
                       adcc_mpi_neighbor_allgatherv_keep(scount, stype, rcounts,
                                                         displs, rtype, comm),
                       comm, request);
  return MPI_Ineighbor_allgatherv(send, scount, stype, recv, rcounts, displs,
                                  rtype, comm, request);
}

int adcc_mpi_ineighbor_alltoallv_fwd(const void *send, const void *dsend,
                                     const int *scounts, const int *sdispls,
                                     MPI_Datatype stype, void *recv,
                                     void *drecv, const int *rcounts,
                                     const int *rdispls, MPI_Datatype rtype,
                                     MPI_Comm comm, MPI_Request *request) {
  int rc = MPI_Ineighbor_alltoallv(send, scounts, sdispls, stype, recv, rcounts,
                                   rdispls, rtype, comm, request);
  return forward_blocks(ADCC_MPI_INEIGHBOR_ALLTOALLV, Alltoallv, dsend, drecv,
                        adcc_mpi_neighbor_alltoallv_keep(scounts, sdispls,
                                                         stype, rcounts,
                                                         rdispls, rtype, comm),
                        comm, request, rc);
}

int adcc_mpi_ineighbor_alltoallv_aug(const void *send, void *dsend,
                                     const int *scounts, const int *sdispls,
                                     MPI_Datatype stype, void *recv,
                                     void *drecv, const int *rcounts,
                                     const int *rdispls, MPI_Datatype rtype,
                                     MPI_Comm comm, MPI_Request *request,
                                     void **tape) {
  *tape = augmented_blocks(
      ADCC_MPI_INEIGHBOR_ALLTOALLV, Alltoallv, dsend, drecv,
      adcc_mpi_neighbor_alltoallv_keep(scounts, sdispls, stype, rcounts,
                                       rdispls, rtype, comm),
      comm, request);
  return MPI_Ineighbor_alltoallv(send, scounts, sdispls, stype, recv, rcounts,
                                 rdispls, rtype, comm, request);
}

int adcc_mpi_ineighbor_alltoallw_fwd(
    const void *send, const void *dsend, const int *scounts,
    const MPI_Aint *sdispls, const MPI_Datatype *stypes, void *recv,
    void *drecv, const int *rcounts, const MPI_Aint *rdispls,
    const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request) {
  int rc = MPI_Ineighbor_alltoallw(send, scounts, sdispls, stypes, recv,
                                   rcounts, rdispls, rtypes, comm, request);
  return forward_blocks(ADCC_MPI_INEIGHBOR_ALLTOALLW, Alltoallw, dsend, drecv,
                        adcc_mpi_neighbor_alltoallw_keep(scounts, sdispls,
                                                         stypes, rcounts,
                                                         rdispls, rtypes, comm),
                        comm, request, rc);
}

int adcc_mpi_ineighbor_alltoallw_aug(
    const void *send, void *dsend, const int *scounts, const MPI_Aint *sdispls,
    const MPI_Datatype *stypes, void *recv, void *drecv, const int *rcounts,
    const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
    MPI_Request *request, void **tape) {
  *tape = augmented_blocks(
      ADCC_MPI_INEIGHBOR_ALLTOALLW, Alltoallw, dsend, drecv,
      adcc_mpi_neighbor_alltoallw_keep(scounts, sdispls, stypes, rcounts,
                                       rdispls, rtypes, comm),
      comm, request);
  return MPI_Ineighbor_alltoallw(send, scounts, sdispls, stypes, recv, rcounts,
                                 rdispls, rtypes, comm, request);
}

void adcc_mpi_ineighbors_rev(struct adcc_mpi_pending *p) {
  /* (p->sent is the send buffer's adjoint here, not memory of the
   * runtime's.) */
  if (p->started == ADCC_MPI_INEIGHBOR_ALLTOALL ||
      p->started == ADCC_MPI_INEIGHBOR_ALLGATHER)
    adcc_mpi_ineighbor_rev(p->started == ADCC_MPI_INEIGHBOR_ALLTOALL, p->sent,
                           p->count, p->type, p->dbuf, p->count2, p->type2,
                           p->comm, p->call);
  else /* (The blocks: freed by it.) */
    adcc_mpi_neighbor_blocks_rev(p->sent, p->dbuf, p->comm, p->record, p->call,
                                 1);
  p->record = NULL;
  p->sent = NULL;
}
