/*===- forward.c - Tangents of MPI point-to-point messages --------------===*
 *
 * In forward mode a message carries its tangents with it: the values and
 * the tangents travel as one message of twice the elements, [values |
 * tangents], so that it matches exactly the receives the primal message
 * matches (wildcards included). The receive's status counts the primal's
 * elements.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

void *adcc_mpi_pack(enum adcc_mpi_kind kind, const void *buf,
                    const void *dbuf, int n) {
  size_t size = adcc_mpi_size_of(kind);
  char *packed = adcc_mpi_temp(kind, NULL, 2 * (size_t)n);
  adcc_mpi_copy(kind, packed, buf, (size_t)n);
  adcc_mpi_copy(kind, packed + size * (size_t)n, dbuf, (size_t)n);
  return packed;
}

/* Splits what arrived in \p packed into buf and dbuf, and makes \p status
 * count the primal's elements. */
static void unpack(enum adcc_mpi_kind kind, const char *packed, void *buf,
                   void *dbuf, MPI_Datatype type, MPI_Status *status) {
  int got = 0;
  MPI_Get_count(status, type, &got);
  int n = got / 2;
  adcc_mpi_split(kind, packed, buf, dbuf, n);
  MPI_Status_set_elements(status, type, n);
}

void adcc_mpi_split(enum adcc_mpi_kind kind, const void *packed, void *buf,
                    void *dbuf, int n) {
  adcc_mpi_copy(kind, buf, packed, (size_t)n);
  adcc_mpi_copy(kind, dbuf,
                (const char *)packed + adcc_mpi_size_of(kind) * (size_t)n,
                (size_t)n);
}

int adcc_mpi_send_fwd(const void *buf, const void *dbuf, int count,
                      MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return adcc_mpi_send_fwd_as(MPI_Send, "MPI_Send", buf, dbuf, count, type,
                              dest, tag, comm);
}

int adcc_mpi_send_fwd_as(adcc_mpi_send_fn send, const char *call,
                         const void *buf, const void *dbuf, int count,
                         MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return send(buf, count, type, dest, tag, comm);
  void *packed = adcc_mpi_pack(kind, buf, dbuf, count);
  int rc = send(packed, 2 * count, type, dest, tag, comm);
  free(packed);
  return rc;
}

int adcc_mpi_recv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                      int source, int tag, MPI_Comm comm, MPI_Status *status) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Recv", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *packed = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  int rc = MPI_Recv(packed, 2 * count, type, source, tag, comm, st);
  unpack(kind, packed, buf, dbuf, type, st);
  free(packed);
  return rc;
}

int adcc_mpi_isend_fwd(const void *buf, const void *dbuf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                       MPI_Request *request) {
  return adcc_mpi_isend_fwd_as(MPI_Isend, "MPI_Isend", buf, dbuf, count, type,
                               dest, tag, comm, request);
}

int adcc_mpi_isend_fwd_as(adcc_mpi_isend_fn isend, const char *call,
                          const void *buf, const void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return isend(buf, count, type, dest, tag, comm, request);
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->kind = kind;
  p->temp = adcc_mpi_pack(kind, buf, dbuf, count);
  return isend(p->temp, 2 * count, type, dest, tag, comm, request);
}

int adcc_mpi_irecv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                       int source, int tag, MPI_Comm comm,
                       MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Irecv", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Irecv(buf, count, type, source, tag, comm, request);
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->receive = 1;
  p->kind = kind;
  p->buf = buf;
  p->dbuf = dbuf;
  p->type = type;
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  return MPI_Irecv(p->temp, 2 * count, type, source, tag, comm, request);
}

void adcc_mpi_finish(struct adcc_mpi_pending *p, MPI_Status *status) {
  if (p->unpack) {
    p->unpack(p);
  } else if (p->started != ADCC_MPI_P2P) {
    if (p->gets)
      adcc_mpi_split(p->kind, p->temp, p->buf, p->dbuf, p->count);
  } else if (p->receive) {
    unpack(p->kind, p->temp, p->buf, p->dbuf, p->type, status);
  }
  free(p->sent);
  free(p->counts);
  if (!p->keep_temp)
    free(p->temp);
  free(p);
}

int adcc_mpi_wait_fwd(MPI_Request *request, MPI_Status *status) {
  struct adcc_mpi_pending *p = adcc_mpi_take(request);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Wait(request, st);
  if (p)
    adcc_mpi_finish(p, st);
  return rc;
}

int adcc_mpi_waitall_fwd(int n, MPI_Request *requests, MPI_Status *statuses) {
  struct adcc_mpi_pending **p = calloc((size_t)(n ? n : 1), sizeof(*p));
  MPI_Status *sts = statuses == MPI_STATUSES_IGNORE
                        ? calloc((size_t)(n ? n : 1), sizeof(MPI_Status))
                        : statuses;
  for (int i = 0; i < n; ++i)
    p[i] = adcc_mpi_take(&requests[i]);
  int rc = MPI_Waitall(n, requests, sts);
  for (int i = 0; i < n; ++i)
    if (p[i])
      adcc_mpi_finish(p[i], &sts[i]);
  if (sts != statuses)
    free(sts);
  free(p);
  return rc;
}

int adcc_mpi_sendrecv_fwd(const void *send, const void *dsend, int scount,
                          MPI_Datatype stype, int dest, int stag, void *recv,
                          void *drecv, int rcount, MPI_Datatype rtype,
                          int source, int rtag, MPI_Comm comm,
                          MPI_Status *status) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(stype, "MPI_Sendrecv", comm);
  if (adcc_mpi_kind_of(rtype, "MPI_Sendrecv", comm) != kind)
    adcc_mpi_fail(comm, "MPI_Sendrecv",
                  "one of the send and receive datatypes carries "
                  "derivatives and the other does not");
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Sendrecv(send, scount, stype, dest, stag, recv, rcount, rtype,
                        source, rtag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *packed = adcc_mpi_pack(kind, send, dsend, scount);
  void *in = adcc_mpi_temp(kind, NULL, 2 * (size_t)rcount);
  int rc = MPI_Sendrecv(packed, 2 * scount, stype, dest, stag, in, 2 * rcount,
                        rtype, source, rtag, comm, st);
  unpack(kind, in, recv, drecv, rtype, st);
  free(packed);
  free(in);
  return rc;
}

int adcc_mpi_sendrecv_replace_fwd(void *buf, void *dbuf, int count,
                                  MPI_Datatype type, int dest, int stag,
                                  int source, int rtag, MPI_Comm comm,
                                  MPI_Status *status) {
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(type, "MPI_Sendrecv_replace", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                                comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *packed = adcc_mpi_pack(kind, buf, dbuf, count);
  int rc = MPI_Sendrecv_replace(packed, 2 * count, type, dest, stag, source,
                                rtag, comm, st);
  unpack(kind, packed, buf, dbuf, type, st);
  free(packed);
  return rc;
}
