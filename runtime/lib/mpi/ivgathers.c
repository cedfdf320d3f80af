/*===- ivgathers.c - Nonblocking gathers of blocks of several sizes ------===*
 *
 * MPI_Igatherv, MPI_Iallgatherv, MPI_Iscatterv and MPI_Ialltoallv of
 * differentiated code
 * start a pending record keyed by the program's request variable, as the
 * other nonblocking collectives do (icollectives.c), which the waits and
 * tests complete.
 *
 * Forward mode starts the program's collective on the values and, right
 * after it, the same collective on the tangents (the program's counts and
 * displacements, which MPI lets no one change before the wait; the
 * shadows as buffers, zeros where a send buffer has none): every rank
 * starts the two in the same order, so they match as the program's do.
 * The wait of the program's request waits for the tangents' too.
 *
 * Reverse mode runs the program's collective. Its adjoint, the blocking
 * one of MPI_Gatherv, MPI_Allgatherv, MPI_Scatterv (vgathers.c) or
 * MPI_Alltoallv
 * (alltoallv.c), runs at the reverse of the call that started it, in the
 * reverse of the order the program started its collectives, the same on
 * every rank, with the counts and displacements kept at the start.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

static struct adcc_mpi_pending *begin(enum adcc_mpi_started what,
                                      const char *call, MPI_Request *request,
                                      enum adcc_mpi_kind kind, int root,
                                      MPI_Comm comm) {
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->started = what;
  p->call = call;
  p->kind = kind;
  p->root = root;
  p->comm = comm;
  return p;
}

/* The wait of the program's request: the tangents' collective. */
static void wait_tangents(struct adcc_mpi_pending *p) {
  MPI_Wait(&p->reverse, MPI_STATUS_IGNORE);
}

/* \p shadow, or n zeros kept in *temp (freed at the wait). */
static void *or_zeros(enum adcc_mpi_kind kind, void *shadow, size_t n,
                      void **temp) {
  if (shadow)
    return shadow;
  *temp = adcc_mpi_temp(kind, NULL, n);
  return *temp;
}

static enum adcc_mpi_kind rooted_kind(const void *inplace_side,
                                      MPI_Datatype in_type, MPI_Datatype other,
                                      int root, MPI_Comm comm,
                                      const char *call) {
  int in_place = adcc_mpi_rank(comm) == root && inplace_side == MPI_IN_PLACE;
  return adcc_mpi_kind_of(in_place ? in_type : other, call, comm);
}

/*--- forward mode --------------------------------------------------------*/

int adcc_mpi_igatherv_fwd(const void *send, const void *dsend, int scount,
                          MPI_Datatype stype, void *recv, void *drecv,
                          const int *rcounts, const int *displs,
                          MPI_Datatype rtype, int root, MPI_Comm comm,
                          MPI_Request *request) {
  static const char Call[] = "MPI_Igatherv";
  enum adcc_mpi_kind kind = rooted_kind(send, rtype, stype, root, comm, Call);
  int rc = MPI_Igatherv(send, scount, stype, recv, rcounts, displs, rtype, root,
                        comm, request);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_IGATHERV, Call, request, kind, root, comm);
  p->unpack = wait_tangents;
  int is_root = adcc_mpi_rank(comm) == root, ranks = adcc_mpi_size(comm);
  const void *tsend = send == MPI_IN_PLACE ? MPI_IN_PLACE
                                           : or_zeros(kind, (void *)dsend,
                                                      (size_t)scount, &p->sent);
  void *trecv = drecv;
  if (is_root && !drecv)
    trecv =
        or_zeros(kind, NULL, adcc_mpi_extent(rcounts, displs, ranks), &p->temp);
  MPI_Igatherv(tsend, scount, stype, trecv, rcounts, displs, rtype, root, comm,
               &p->reverse);
  return rc;
}

int adcc_mpi_iallgatherv_fwd(const void *send, const void *dsend, int scount,
                             MPI_Datatype stype, void *recv, void *drecv,
                             const int *rcounts, const int *displs,
                             MPI_Datatype rtype, MPI_Comm comm,
                             MPI_Request *request) {
  static const char Call[] = "MPI_Iallgatherv";
  int in_place = send == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? rtype : stype, Call, comm);
  int rc = MPI_Iallgatherv(send, scount, stype, recv, rcounts, displs, rtype,
                           comm, request);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_IALLGATHERV, Call, request, kind, 0, comm);
  p->unpack = wait_tangents;
  const void *tsend =
      in_place ? MPI_IN_PLACE
               : or_zeros(kind, (void *)dsend, (size_t)scount, &p->sent);
  void *trecv = or_zeros(
      kind, drecv, adcc_mpi_extent(rcounts, displs, adcc_mpi_size(comm)),
      &p->temp);
  MPI_Iallgatherv(tsend, scount, stype, trecv, rcounts, displs, rtype, comm,
                  &p->reverse);
  return rc;
}

int adcc_mpi_iscatterv_fwd(const void *send, const void *dsend,
                           const int *scounts, const int *displs,
                           MPI_Datatype stype, void *recv, void *drecv,
                           int rcount, MPI_Datatype rtype, int root,
                           MPI_Comm comm, MPI_Request *request) {
  static const char Call[] = "MPI_Iscatterv";
  enum adcc_mpi_kind kind = rooted_kind(recv, stype, rtype, root, comm, Call);
  int rc = MPI_Iscatterv(send, scounts, displs, stype, recv, rcount, rtype,
                         root, comm, request);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_ISCATTERV, Call, request, kind, root, comm);
  p->unpack = wait_tangents;
  int is_root = adcc_mpi_rank(comm) == root, ranks = adcc_mpi_size(comm);
  const void *tsend = dsend;
  if (is_root && !dsend)
    tsend =
        or_zeros(kind, NULL, adcc_mpi_extent(scounts, displs, ranks), &p->sent);
  void *trecv = recv == MPI_IN_PLACE
                    ? MPI_IN_PLACE
                    : or_zeros(kind, drecv, (size_t)rcount, &p->temp);
  MPI_Iscatterv(tsend, scounts, displs, stype, trecv, rcount, rtype, root, comm,
                &p->reverse);
  return rc;
}

int adcc_mpi_ialltoallv_fwd(const void *send, const void *dsend,
                            const int *scounts, const int *sdispls,
                            MPI_Datatype stype, void *recv, void *drecv,
                            const int *rcounts, const int *rdispls,
                            MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *request) {
  static const char Call[] = "MPI_Ialltoallv";
  int in_place = send == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? rtype : stype, Call, comm);
  int rc = MPI_Ialltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls,
                          rtype, comm, request);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_IALLTOALLV, Call, request, kind, 0, comm);
  p->unpack = wait_tangents;
  int ranks = adcc_mpi_size(comm);
  const void *tsend =
      in_place ? MPI_IN_PLACE
               : or_zeros(kind, (void *)dsend,
                          adcc_mpi_extent(scounts, sdispls, ranks), &p->sent);
  /* (In place, the received blocks replace the sent ones: a missing
   * shadow is zeros either way.) */
  void *trecv =
      or_zeros(kind, drecv, adcc_mpi_extent(rcounts, rdispls, ranks), &p->temp);
  MPI_Ialltoallv(tsend, scounts, sdispls, stype, trecv, rcounts, rdispls, rtype,
                 comm, &p->reverse);
  return rc;
}

/*--- reverse mode --------------------------------------------------------*/

/* The record of a gather's reverse (MPI_Igatherv, MPI_Iallgatherv): the
 * send side, the receive buffer's adjoint and the counts and
 * displacements (kept where \p rcounts is not null: the root's of a
 * gather). */
static struct adcc_mpi_pending *
gathered(struct adcc_mpi_pending *p, const void *send, void *dsend, int scount,
         MPI_Datatype stype, void *drecv, MPI_Datatype rtype,
         const int *rcounts, const int *displs) {
  p->send = send;
  p->sent = dsend;
  p->count = scount;
  p->type = stype;
  p->dbuf = drecv;
  p->type2 = rtype;
  if (rcounts)
    p->counts =
        adcc_mpi_keep_counts(rcounts, displs, adcc_mpi_size(p->comm), p->comm);
  return p;
}

int adcc_mpi_igatherv_aug(const void *send, void *dsend, int scount,
                          MPI_Datatype stype, void *recv, void *drecv,
                          const int *rcounts, const int *displs,
                          MPI_Datatype rtype, int root, MPI_Comm comm,
                          MPI_Request *request, void **tape) {
  static const char Call[] = "MPI_Igatherv";
  enum adcc_mpi_kind kind = rooted_kind(send, rtype, stype, root, comm, Call);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE)
    *tape = gathered(begin(ADCC_MPI_IGATHERV, Call, request, kind, root, comm),
                     send, dsend, scount, stype, drecv, rtype,
                     adcc_mpi_rank(comm) == root ? rcounts : NULL, displs);
  return MPI_Igatherv(send, scount, stype, recv, rcounts, displs, rtype, root,
                      comm, request);
}

int adcc_mpi_iallgatherv_aug(const void *send, void *dsend, int scount,
                             MPI_Datatype stype, void *recv, void *drecv,
                             const int *rcounts, const int *displs,
                             MPI_Datatype rtype, MPI_Comm comm,
                             MPI_Request *request, void **tape) {
  static const char Call[] = "MPI_Iallgatherv";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(
      send == MPI_IN_PLACE ? rtype : stype, Call, comm);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE)
    *tape = gathered(begin(ADCC_MPI_IALLGATHERV, Call, request, kind, 0, comm),
                     send, dsend, scount, stype, drecv, rtype, rcounts, displs);
  return MPI_Iallgatherv(send, scount, stype, recv, rcounts, displs, rtype,
                         comm, request);
}

int adcc_mpi_iscatterv_aug(const void *send, void *dsend, const int *scounts,
                           const int *displs, MPI_Datatype stype, void *recv,
                           void *drecv, int rcount, MPI_Datatype rtype,
                           int root, MPI_Comm comm, MPI_Request *request,
                           void **tape) {
  static const char Call[] = "MPI_Iscatterv";
  enum adcc_mpi_kind kind = rooted_kind(recv, stype, rtype, root, comm, Call);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE) {
    struct adcc_mpi_pending *p =
        begin(ADCC_MPI_ISCATTERV, Call, request, kind, root, comm);
    p->sent = dsend;
    p->type = stype;
    p->buf = recv;
    p->dbuf = drecv;
    p->count2 = rcount;
    p->type2 = rtype;
    if (adcc_mpi_rank(comm) == root)
      p->counts =
          adcc_mpi_keep_counts(scounts, displs, adcc_mpi_size(comm), comm);
    *tape = p;
  }
  return MPI_Iscatterv(send, scounts, displs, stype, recv, rcount, rtype, root,
                       comm, request);
}

int adcc_mpi_ialltoallv_aug(const void *send, void *dsend, const int *scounts,
                            const int *sdispls, MPI_Datatype stype, void *recv,
                            void *drecv, const int *rcounts, const int *rdispls,
                            MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *request, void **tape) {
  static const char Call[] = "MPI_Ialltoallv";
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(send == MPI_IN_PLACE ? rtype : stype, Call, comm);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE) {
    struct adcc_mpi_pending *p =
        begin(ADCC_MPI_IALLTOALLV, Call, request, kind, 0, comm);
    p->send = send;
    p->sent = dsend;
    p->type = stype;
    p->dbuf = drecv;
    p->type2 = rtype;
    p->counts =
        adcc_mpi_alltoallv_keep(send, scounts, sdispls, rcounts, rdispls, comm);
    *tape = p;
  }
  return MPI_Ialltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls,
                        rtype, comm, request);
}

void adcc_mpi_ivgathers_rev(struct adcc_mpi_pending *p) {
  /* (Each frees the counts it is given.) */
  if (p->started == ADCC_MPI_IGATHERV)
    adcc_mpi_gatherv_rev(p->send, p->sent, p->count, p->type, p->dbuf, p->type2,
                         p->root, p->comm, p->counts);
  else if (p->started == ADCC_MPI_IALLGATHERV)
    adcc_mpi_allgatherv_rev(p->send, p->sent, p->count, p->type, p->dbuf,
                            p->type2, p->comm, p->counts);
  else if (p->started == ADCC_MPI_ISCATTERV)
    adcc_mpi_scatterv_rev(p->sent, p->type, p->buf, p->dbuf, p->count2,
                          p->type2, p->root, p->comm, p->counts);
  else
    adcc_mpi_alltoallv_rev(p->send, p->sent, p->type, p->dbuf, p->type2,
                           p->comm, p->counts);
  p->counts = NULL;
}
