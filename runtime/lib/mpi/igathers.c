/*===- igathers.c - Nonblocking gathers, scatters and all-to-all --------===*
 *
 * The nonblocking gathers and scatters of differentiated code start a
 * pending record keyed by the program's request variable, as the other
 * nonblocking collectives do (icollectives.c).
 *
 * Forward mode runs one collective over blocks of twice the elements,
 * [values | tangents] per rank: the gathered buffer holds each rank's
 * packed block, which the wait splits into the buffer and its shadow (the
 * root's, or every rank's for MPI_Iallgather); a scatter sends each rank
 * its packed block; an all-to-all sends every rank its packed block and
 * splits every block it gets. An in-place block is packed into the
 * gathered buffer where MPI leaves it.
 *
 * Reverse mode runs the program's collective. Its adjoint, the blocking
 * one of MPI_Gather, MPI_Scatter, MPI_Allgather (gathers.c) or
 * MPI_Alltoall (exchanges.c), runs at the
 * reverse of the call that started it, in the reverse of the order the
 * program started its collectives, the same on every rank.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

static void *element(enum adcc_mpi_kind kind, const void *buf, size_t at) {
  return buf ? (char *)buf + adcc_mpi_size_of(kind) * at : NULL;
}

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

/* [values | tangents] of rank r's block of \p count elements of buf and
 * dbuf, written into the packed buffer \p packed at r's place. */
static void pack_block(enum adcc_mpi_kind kind, void *packed, const void *buf,
                       const void *dbuf, int count, int r) {
  size_t n = (size_t)count, at = (size_t)r * n;
  adcc_mpi_copy(kind, element(kind, packed, 2 * at), element(kind, buf, at), n);
  adcc_mpi_copy(kind, element(kind, packed, 2 * at + n),
                element(kind, dbuf, at), n);
}

/* The wait of a gather: every rank's packed block into buf and dbuf. */
static void unpack_blocks(struct adcc_mpi_pending *p) {
  if (!p->gets)
    return;
  size_t n = (size_t)p->count2;
  for (int r = 0, ranks = adcc_mpi_size(p->comm); r < ranks; ++r)
    adcc_mpi_split(p->kind, element(p->kind, p->temp, 2 * (size_t)r * n),
                   element(p->kind, p->buf, (size_t)r * n),
                   element(p->kind, p->dbuf, (size_t)r * n), p->count2);
}

/*--- forward mode --------------------------------------------------------*/

/* MPI_Igather (\p all: MPI_Iallgather, root ignored). */
static int igather_fwd(int all, const void *send, const void *dsend, int scount,
                       MPI_Datatype stype, void *recv, void *drecv, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm,
                       MPI_Request *request) {
  const char *call = all ? "MPI_Iallgather" : "MPI_Igather";
  int rank = adcc_mpi_rank(comm);
  int gets = all || rank == root;
  int in_place = gets && send == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? rtype : stype, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return all ? MPI_Iallgather(send, scount, stype, recv, rcount, rtype, comm,
                                request)
               : MPI_Igather(send, scount, stype, recv, rcount, rtype, root,
                             comm, request);
  struct adcc_mpi_pending *p =
      begin(all ? ADCC_MPI_IALLGATHER : ADCC_MPI_IGATHER, call, request, kind,
            root, comm);
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = gets;
  p->count2 = rcount;
  p->unpack = unpack_blocks;
  size_t all_blocks = 2 * (size_t)rcount * (size_t)adcc_mpi_size(comm);
  p->sent = in_place ? NULL : adcc_mpi_pack(kind, send, dsend, scount);
  p->temp = adcc_mpi_temp(kind, NULL, gets ? all_blocks : 0);
  if (in_place)
    pack_block(kind, p->temp, recv, drecv, rcount, rank);
  const void *out = in_place ? MPI_IN_PLACE : p->sent;
  return all ? MPI_Iallgather(out, 2 * scount, stype, p->temp, 2 * rcount,
                              rtype, comm, request)
             : MPI_Igather(out, 2 * scount, stype, p->temp, 2 * rcount, rtype,
                           root, comm, request);
}

int adcc_mpi_igather_fwd(const void *send, const void *dsend, int scount,
                         MPI_Datatype stype, void *recv, void *drecv,
                         int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm, MPI_Request *request) {
  return igather_fwd(0, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                     root, comm, request);
}

int adcc_mpi_iallgather_fwd(const void *send, const void *dsend, int scount,
                            MPI_Datatype stype, void *recv, void *drecv,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *request) {
  return igather_fwd(1, send, dsend, scount, stype, recv, drecv, rcount, rtype,
                     0, comm, request);
}

int adcc_mpi_iscatter_fwd(const void *send, const void *dsend, int scount,
                          MPI_Datatype stype, void *recv, void *drecv,
                          int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm, MPI_Request *request) {
  int is_root = adcc_mpi_rank(comm) == root;
  int in_place = is_root && recv == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? stype : rtype, "MPI_Iscatter", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Iscatter(send, scount, stype, recv, rcount, rtype, root, comm,
                        request);
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_ISCATTER, "MPI_Iscatter", request, kind, root, comm);
  /* (The wait splits temp, rcount packed elements, into buf and dbuf.) */
  p->buf = recv;
  p->dbuf = drecv;
  p->count = rcount;
  p->gets = !in_place;
  int ranks = adcc_mpi_size(comm);
  p->sent = adcc_mpi_temp(kind, NULL,
                          is_root ? 2 * (size_t)scount * (size_t)ranks : 0);
  for (int r = 0; is_root && r < ranks; ++r)
    pack_block(kind, p->sent, send, dsend, scount, r);
  p->temp = adcc_mpi_temp(kind, NULL, in_place ? 0 : 2 * (size_t)rcount);
  return MPI_Iscatter(p->sent, 2 * scount, stype,
                      in_place ? MPI_IN_PLACE : p->temp, 2 * rcount, rtype,
                      root, comm, request);
}

int adcc_mpi_ialltoall_fwd(const void *send, const void *dsend, int scount,
                           MPI_Datatype stype, void *recv, void *drecv,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm,
                           MPI_Request *request) {
  int in_place = send == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? rtype : stype, "MPI_Ialltoall", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Ialltoall(send, scount, stype, recv, rcount, rtype, comm,
                         request);
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_IALLTOALL, "MPI_Ialltoall", request, kind, 0, comm);
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = 1;
  p->count2 = rcount;
  p->unpack = unpack_blocks;
  int ranks = adcc_mpi_size(comm);
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)rcount * (size_t)ranks);
  if (in_place) {
    for (int r = 0; r < ranks; ++r)
      pack_block(kind, p->temp, recv, drecv, rcount, r);
  } else {
    p->sent = adcc_mpi_temp(kind, NULL, 2 * (size_t)scount * (size_t)ranks);
    for (int r = 0; r < ranks; ++r)
      pack_block(kind, p->sent, send, dsend, scount, r);
  }
  return MPI_Ialltoall(in_place ? MPI_IN_PLACE : p->sent, 2 * scount, stype,
                       p->temp, 2 * rcount, rtype, comm, request);
}

/*--- reverse mode --------------------------------------------------------*/

/* The record of a gather or scatter whose derivatives travel (null for
 * an integer one). */
static void *record(enum adcc_mpi_started what, const char *call,
                    enum adcc_mpi_kind kind, const void *send, void *dsend,
                    int scount, MPI_Datatype stype, void *recv, void *drecv,
                    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                    MPI_Request *request) {
  if (kind == ADCC_MPI_INACTIVE)
    return NULL;
  struct adcc_mpi_pending *p = begin(what, call, request, kind, root, comm);
  p->send = send;
  p->sent = dsend;
  p->count = scount;
  p->type = stype;
  p->buf = recv;
  p->dbuf = drecv;
  p->count2 = rcount;
  p->type2 = rtype;
  return p;
}

int adcc_mpi_igather_aug(const void *send, void *dsend, int scount,
                         MPI_Datatype stype, void *recv, void *drecv,
                         int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm, MPI_Request *request, void **tape) {
  int in_place = adcc_mpi_rank(comm) == root && send == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? rtype : stype, "MPI_Igather", comm);
  *tape = record(ADCC_MPI_IGATHER, "MPI_Igather", kind, send, dsend, scount,
                 stype, recv, drecv, rcount, rtype, root, comm, request);
  return MPI_Igather(send, scount, stype, recv, rcount, rtype, root, comm,
                     request);
}

int adcc_mpi_iscatter_aug(const void *send, void *dsend, int scount,
                          MPI_Datatype stype, void *recv, void *drecv,
                          int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm, MPI_Request *request, void **tape) {
  int in_place = adcc_mpi_rank(comm) == root && recv == MPI_IN_PLACE;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(in_place ? stype : rtype, "MPI_Iscatter", comm);
  *tape = record(ADCC_MPI_ISCATTER, "MPI_Iscatter", kind, send, dsend, scount,
                 stype, recv, drecv, rcount, rtype, root, comm, request);
  return MPI_Iscatter(send, scount, stype, recv, rcount, rtype, root, comm,
                      request);
}

int adcc_mpi_iallgather_aug(const void *send, void *dsend, int scount,
                            MPI_Datatype stype, void *recv, void *drecv,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *request, void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(
      send == MPI_IN_PLACE ? rtype : stype, "MPI_Iallgather", comm);
  *tape = record(ADCC_MPI_IALLGATHER, "MPI_Iallgather", kind, send, dsend,
                 scount, stype, recv, drecv, rcount, rtype, 0, comm, request);
  return MPI_Iallgather(send, scount, stype, recv, rcount, rtype, comm,
                        request);
}

int adcc_mpi_ialltoall_aug(const void *send, void *dsend, int scount,
                           MPI_Datatype stype, void *recv, void *drecv,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm,
                           MPI_Request *request, void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(
      send == MPI_IN_PLACE ? rtype : stype, "MPI_Ialltoall", comm);
  *tape = record(ADCC_MPI_IALLTOALL, "MPI_Ialltoall", kind, send, dsend,
                 scount, stype, recv, drecv, rcount, rtype, 0, comm, request);
  return MPI_Ialltoall(send, scount, stype, recv, rcount, rtype, comm,
                       request);
}

void adcc_mpi_igathers_rev(struct adcc_mpi_pending *p) {
  if (p->started == ADCC_MPI_IGATHER)
    adcc_mpi_gather_rev(p->send, p->sent, p->count, p->type, p->dbuf, p->count2,
                        p->type2, p->root, p->comm);
  else if (p->started == ADCC_MPI_ISCATTER)
    adcc_mpi_scatter_rev(p->sent, p->count, p->type, p->buf, p->dbuf, p->count2,
                         p->type2, p->root, p->comm);
  else if (p->started == ADCC_MPI_IALLTOALL)
    adcc_mpi_alltoall_rev(p->send, p->sent, p->count, p->type, p->dbuf,
                          p->count2, p->type2, p->comm);
  else
    adcc_mpi_allgather_rev(p->send, p->sent, p->count, p->type, p->dbuf,
                           p->count2, p->type2, p->comm);
}
