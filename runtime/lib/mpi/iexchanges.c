/*===- iexchanges.c - Nonblocking prefix sums and reduce-scatters --------===*
 *
 * MPI_Iscan, MPI_Iexscan, MPI_Ireduce_scatter_block and
 * MPI_Ireduce_scatter (MPI_SUM)
 * start a pending record keyed by the program's request variable, as the
 * other nonblocking collectives do (icollectives.c), which the waits and
 * tests complete.
 *
 * Forward mode runs one collective over packed data: a prefix sum of
 * [values | tangents] is the packed prefix sums; a reduce-scatter reduces
 * blocks of twice the elements, [values | tangents] per rank's block, and
 * each rank gets its packed block (MPI_Ireduce_scatter's doubled counts
 * live in the record until the wait). The wait splits the result into the
 * buffer and its shadow.
 *
 * Reverse mode runs the program's collective; its adjoint, the one of the
 * blocking call (exchanges.c: a reverse prefix sum, an allgather of the
 * blocks' adjoints), runs at the reverse of the start, in the reverse of
 * the order the program started its collectives, the same on every rank.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

static void *element(enum adcc_mpi_kind kind, const void *buf, size_t at) {
  return buf ? (char *)buf + adcc_mpi_size_of(kind) * at : NULL;
}

static struct adcc_mpi_pending *begin(enum adcc_mpi_started what,
                                      const char *call, MPI_Request *request,
                                      enum adcc_mpi_kind kind, int count,
                                      MPI_Datatype type, MPI_Comm comm) {
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->started = what;
  p->call = call;
  p->kind = kind;
  p->count = count;
  p->type = type;
  p->comm = comm;
  return p;
}

static int *copy_counts(const int *counts, int n, MPI_Comm comm,
                        const char *call) {
  int *c = malloc(sizeof(int) * (n > 0 ? (size_t)n : 1));
  if (!c)
    adcc_mpi_fail(comm, call, "out of memory");
  for (int r = 0; r < n; ++r)
    c[r] = counts[r];
  return c;
}

/*--- forward mode --------------------------------------------------------*/

int adcc_mpi_iscan_fwd(const void *send, const void *dsend, void *recv,
                       void *drecv, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm, MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Iscan", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Iscan(send, recv, count, type, op, comm, request);
  adcc_mpi_need_sum(op, "MPI_Iscan", comm);
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_ISCAN, "MPI_Iscan", request, kind, count, type, comm);
  int in_place = send == MPI_IN_PLACE;
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = 1;
  p->sent = adcc_mpi_pack(kind, in_place ? recv : send,
                          in_place ? drecv : dsend, count);
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  return MPI_Iscan(p->sent, p->temp, 2 * count, type, MPI_SUM, comm, request);
}

/* (Rank 0's receive buffer is not written: it gets nothing, and its
 * tangent stays.) */
int adcc_mpi_iexscan_fwd(const void *send, const void *dsend, void *recv,
                         void *drecv, int count, MPI_Datatype type, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Iexscan", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Iexscan(send, recv, count, type, op, comm, request);
  adcc_mpi_need_sum(op, "MPI_Iexscan", comm);
  struct adcc_mpi_pending *p =
      begin(ADCC_MPI_IEXSCAN, "MPI_Iexscan", request, kind, count, type, comm);
  int in_place = send == MPI_IN_PLACE;
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = adcc_mpi_rank(comm) != 0;
  p->sent = adcc_mpi_pack(kind, in_place ? recv : send,
                          in_place ? drecv : dsend, count);
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  return MPI_Iexscan(p->sent, p->temp, 2 * count, type, MPI_SUM, comm, request);
}

/* Both reduce-scatters; \p counts null: blocks of \p count. */
static int ireduce_scatter_fwd(const char *call, const void *send,
                               const void *dsend, void *recv, void *drecv,
                               int count, const int *counts, MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return counts ? MPI_Ireduce_scatter(send, recv, counts, type, op, comm,
                                        request)
                  : MPI_Ireduce_scatter_block(send, recv, count, type, op, comm,
                                              request);
  adcc_mpi_need_sum(op, call, comm);
  int ranks = adcc_mpi_size(comm), rank = adcc_mpi_rank(comm);
  int mine = counts ? counts[rank] : count;
  struct adcc_mpi_pending *p =
      begin(counts ? ADCC_MPI_IREDUCE_SCATTER : ADCC_MPI_IREDUCE_SCATTER_BLOCK,
            call, request, kind, mine, type, comm);
  int in_place = send == MPI_IN_PLACE;
  const void *in = in_place ? recv : send, *din = in_place ? drecv : dsend;
  size_t total = 0;
  for (int r = 0; r < ranks; ++r)
    total += (size_t)(counts ? counts[r] : count);
  p->sent = adcc_mpi_temp(kind, NULL, 2 * total);
  size_t at = 0;
  for (int r = 0; r < ranks; ++r) {
    size_t n = (size_t)(counts ? counts[r] : count);
    adcc_mpi_copy(kind, element(kind, p->sent, 2 * at), element(kind, in, at),
                  n);
    adcc_mpi_copy(kind, element(kind, p->sent, 2 * at + n),
                  element(kind, din, at), n);
    at += n;
  }
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = 1;
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)mine);
  if (!counts)
    return MPI_Ireduce_scatter_block(p->sent, p->temp, 2 * count, type, MPI_SUM,
                                     comm, request);
  p->counts = copy_counts(counts, ranks, comm, call);
  for (int r = 0; r < ranks; ++r)
    p->counts[r] *= 2;
  return MPI_Ireduce_scatter(p->sent, p->temp, p->counts, type, MPI_SUM, comm,
                             request);
}

int adcc_mpi_ireduce_scatter_block_fwd(const void *send, const void *dsend,
                                       void *recv, void *drecv, int count,
                                       MPI_Datatype type, MPI_Op op,
                                       MPI_Comm comm, MPI_Request *request) {
  return ireduce_scatter_fwd("MPI_Ireduce_scatter_block", send, dsend, recv,
                             drecv, count, NULL, type, op, comm, request);
}

int adcc_mpi_ireduce_scatter_fwd(const void *send, const void *dsend,
                                 void *recv, void *drecv, const int *counts,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request) {
  return ireduce_scatter_fwd("MPI_Ireduce_scatter", send, dsend, recv, drecv, 0,
                             counts, type, op, comm, request);
}

/*--- reverse mode --------------------------------------------------------*/

/* The record of the reverse sweep (null where the data is inactive). */
static void *record(enum adcc_mpi_started what, const char *call,
                    const void *send, void *dsend, void *drecv, int count,
                    const int *counts, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return NULL;
  adcc_mpi_need_sum(op, call, comm);
  struct adcc_mpi_pending *p =
      begin(what, call, request, kind, count, type, comm);
  p->send = send;
  p->sent = dsend;
  p->dbuf = drecv;
  if (counts)
    p->counts = copy_counts(counts, adcc_mpi_size(comm), comm, call);
  return p;
}

int adcc_mpi_iscan_aug(const void *send, void *dsend, void *recv, void *drecv,
                       int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                       MPI_Request *request, void **tape) {
  *tape = record(ADCC_MPI_ISCAN, "MPI_Iscan", send, dsend, drecv, count, NULL,
                 type, op, comm, request);
  return MPI_Iscan(send, recv, count, type, op, comm, request);
}

int adcc_mpi_iexscan_aug(const void *send, void *dsend, void *recv, void *drecv,
                         int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                         MPI_Request *request, void **tape) {
  *tape = record(ADCC_MPI_IEXSCAN, "MPI_Iexscan", send, dsend, drecv, count,
                 NULL, type, op, comm, request);
  return MPI_Iexscan(send, recv, count, type, op, comm, request);
}

int adcc_mpi_ireduce_scatter_block_aug(const void *send, void *dsend,
                                       void *recv, void *drecv, int count,
                                       MPI_Datatype type, MPI_Op op,
                                       MPI_Comm comm, MPI_Request *request,
                                       void **tape) {
  *tape = record(ADCC_MPI_IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block",
                 send, dsend, drecv, count, NULL, type, op, comm, request);
  return MPI_Ireduce_scatter_block(send, recv, count, type, op, comm, request);
}

int adcc_mpi_ireduce_scatter_aug(const void *send, void *dsend, void *recv,
                                 void *drecv, const int *counts,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request, void **tape) {
  *tape = record(ADCC_MPI_IREDUCE_SCATTER, "MPI_Ireduce_scatter", send, dsend,
                 drecv, 0, counts, type, op, comm, request);
  return MPI_Ireduce_scatter(send, recv, counts, type, op, comm, request);
}

void adcc_mpi_iexchanges_rev(struct adcc_mpi_pending *p) {
  if (p->started == ADCC_MPI_ISCAN) {
    adcc_mpi_scan_rev(p->send, p->sent, p->dbuf, p->count, p->type, p->comm);
  } else if (p->started == ADCC_MPI_IEXSCAN) {
    adcc_mpi_exscan_rev(p->send, p->sent, p->dbuf, p->count, p->type, p->comm);
  } else if (p->started == ADCC_MPI_IREDUCE_SCATTER_BLOCK) {
    adcc_mpi_reduce_scatter_block_rev(p->send, p->sent, p->dbuf, p->count,
                                      p->type, p->comm);
  } else {
    /* (It frees the counts.) */
    adcc_mpi_reduce_scatter_rev(p->send, p->sent, p->dbuf, p->type, p->comm,
                                p->counts);
    p->counts = NULL;
  }
}
