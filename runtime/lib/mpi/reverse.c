/*===- reverse.c - Adjoints of MPI point-to-point messages --------------===*
 *
 * The augmented sweep runs the program's message; the reverse sweep sends
 * the adjoint back the other way: the adjoint of a send is a receive whose
 * values are added into the send buffer's shadow, the adjoint of a receive
 * a send of the receive buffer's shadow to the actual source, which is then
 * zeroed (the buffer was overwritten); that send is buffered (a copy sent
 * non-blocking: sendmodes.c), as the program's send may have been. Non-blocking messages: the reverse
 * of the wait posts the adjoint message (non-blocking), the reverse of the
 * MPI_Isend or MPI_Irecv completes it. Adjoint messages are posted in the
 * reverse of the order the program started the requests (requests.c), with
 * tags of their own (adcc_mpi_adjoint_tag).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

int adcc_mpi_send_aug(const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm) {
  adcc_mpi_kind_of(type, "MPI_Send", comm);
  return MPI_Send(buf, count, type, dest, tag, comm);
}

void adcc_mpi_send_rev(void *dbuf, int count, MPI_Datatype type, int dest,
                       int tag, MPI_Comm comm) {
  adcc_mpi_send_rev_as("MPI_Send", dbuf, count, type, dest, tag, comm);
}

void adcc_mpi_send_rev_as(const char *call, void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag,
                          MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  void *t = adcc_mpi_temp(kind, NULL, (size_t)count);
  MPI_Recv(t, count, type, dest, adcc_mpi_adjoint_tag(tag, comm), comm,
           MPI_STATUS_IGNORE);
  adcc_mpi_add(kind, dbuf, t, (size_t)count);
  free(t);
}

/* What the reverse of a blocking receive needs: how many elements came
 * from where. */
struct received {
  int count, source, tag;
};

/* The tape of a blocking receive whose status is \p st. */
static struct received *record(MPI_Status *st, MPI_Datatype type,
                               MPI_Comm comm) {
  struct received *r = malloc(sizeof(*r));
  if (!r)
    adcc_mpi_fail(comm, "MPI_Recv/MPI_Sendrecv", "out of memory");
  MPI_Get_count(st, type, &r->count);
  r->source = st->MPI_SOURCE;
  r->tag = r->source == MPI_PROC_NULL ? 0 : st->MPI_TAG;
  return r;
}

int adcc_mpi_recv_aug(void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm, MPI_Status *status, void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Recv", comm);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Recv(buf, count, type, source, tag, comm, st);
  *tape = kind == ADCC_MPI_INACTIVE ? NULL : record(st, type, comm);
  return rc;
}

void adcc_mpi_recv_rev(void *dbuf, MPI_Datatype type, MPI_Comm comm,
                       void *tape) {
  struct received *r = tape;
  if (!r)
    return;
  if (r->source == MPI_PROC_NULL) { /* (nothing came: no adjoint to send) */
    free(r);
    return;
  }
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Recv", comm);
  void *t = adcc_mpi_temp(kind, dbuf, (size_t)r->count);
  /* (Buffered: the sender may have used MPI_Bsend, sendmodes.c.) */
  adcc_mpi_isend_kept(t, r->count, type, r->source,
                      adcc_mpi_adjoint_tag(r->tag, comm), comm, 1);
  adcc_mpi_zero(kind, dbuf, (size_t)r->count);
  free(r);
}

int adcc_mpi_sendrecv_aug(const void *send, int scount, MPI_Datatype stype,
                          int dest, int stag, void *recv, int rcount,
                          MPI_Datatype rtype, int source, int rtag,
                          MPI_Comm comm, MPI_Status *status, void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(stype, "MPI_Sendrecv", comm);
  if (adcc_mpi_kind_of(rtype, "MPI_Sendrecv", comm) != kind)
    adcc_mpi_fail(comm, "MPI_Sendrecv",
                  "one of the send and receive datatypes carries "
                  "derivatives and the other does not");
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Sendrecv(send, scount, stype, dest, stag, recv, rcount, rtype,
                        source, rtag, comm, st);
  *tape = kind == ADCC_MPI_INACTIVE ? NULL : record(st, rtype, comm);
  return rc;
}

/* The adjoint exchange: the receive buffer's adjoint back to the actual
 * source, the send buffer's adjoint from the destination. */
void adcc_mpi_sendrecv_rev(void *dsend, int scount, MPI_Datatype stype,
                           int dest, int stag, void *drecv, MPI_Datatype rtype,
                           MPI_Comm comm, void *tape) {
  struct received *r = tape;
  if (!r)
    return;
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(stype, "MPI_Sendrecv", comm);
  void *out = adcc_mpi_temp(kind, drecv, (size_t)r->count);
  void *in = adcc_mpi_temp(kind, NULL, (size_t)scount);
  MPI_Sendrecv(out, r->count, rtype, r->source,
               adcc_mpi_adjoint_tag(r->tag, comm), in, scount, stype, dest,
               adcc_mpi_adjoint_tag(stag, comm), comm, MPI_STATUS_IGNORE);
  adcc_mpi_add(kind, dsend, in, (size_t)scount);
  adcc_mpi_zero(kind, drecv, (size_t)r->count);
  free(out);
  free(in);
  free(r);
}

/* The reverse of MPI_Sendrecv_replace: the received values' adjoint goes
 * back to their actual source, and the sent values' adjoint, from the
 * destination, replaces it. */
int adcc_mpi_sendrecv_replace_aug(void *buf, int count, MPI_Datatype type,
                                  int dest, int stag, int source, int rtag,
                                  MPI_Comm comm, MPI_Status *status,
                                  void **tape) {
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(type, "MPI_Sendrecv_replace", comm);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                                comm, st);
  *tape = kind == ADCC_MPI_INACTIVE ? NULL : record(st, type, comm);
  return rc;
}

void adcc_mpi_sendrecv_replace_rev(void *dbuf, int count, MPI_Datatype type,
                                   int dest, int stag, MPI_Comm comm,
                                   void *tape) {
  struct received *r = tape;
  if (!r)
    return;
  enum adcc_mpi_kind kind =
      adcc_mpi_kind_of(type, "MPI_Sendrecv_replace", comm);
  void *out = adcc_mpi_temp(kind, dbuf, (size_t)r->count);
  void *in = adcc_mpi_temp(kind, NULL, (size_t)count);
  MPI_Sendrecv(out, r->count, type, r->source,
               adcc_mpi_adjoint_tag(r->tag, comm), in, count, type, dest,
               adcc_mpi_adjoint_tag(stag, comm), comm, MPI_STATUS_IGNORE);
  adcc_mpi_zero(kind, dbuf, (size_t)r->count);
  adcc_mpi_add(kind, dbuf, in, (size_t)count);
  free(out);
  free(in);
  free(r);
}

/* An MPI_Irecv (\p isend null) or a non-blocking send by \p isend, and
 * the record of its reverse. */
static int start(adcc_mpi_isend_fn isend, const char *call, void *buf,
                 void *dbuf, int count, MPI_Datatype type, int peer, int tag,
                 MPI_Comm comm, MPI_Request *request, void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  int receive = !isend;
  int rc = receive ? MPI_Irecv(buf, count, type, peer, tag, comm, request)
                   : isend(buf, count, type, peer, tag, comm, request);
  *tape = NULL;
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 1);
  p->call = call;
  p->receive = receive;
  p->kind = kind;
  p->dbuf = dbuf;
  p->count = count;
  p->type = type;
  p->peer = peer;
  p->tag = tag;
  p->comm = comm;
  *tape = p;
  return rc;
}

int adcc_mpi_isend_aug(const void *buf, void *dbuf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                       MPI_Request *request, void **tape) {
  return start(MPI_Isend, "MPI_Isend", (void *)buf, dbuf, count, type, dest,
               tag, comm, request, tape);
}

int adcc_mpi_isend_aug_as(adcc_mpi_isend_fn isend, const char *call,
                          const void *buf, void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request, void **tape) {
  return start(isend, call, (void *)buf, dbuf, count, type, dest, tag, comm,
               request, tape);
}

int adcc_mpi_irecv_aug(void *buf, void *dbuf, int count, MPI_Datatype type,
                       int source, int tag, MPI_Comm comm, MPI_Request *request,
                       void **tape) {
  return start(NULL, "MPI_Irecv", buf, dbuf, count, type, source, tag, comm,
               request, tape);
}

/* The reverse of an MPI_Isend, MPI_Irecv or MPI_Start: the adjoint message
 * that the reverse of its wait posted completes. */
void adcc_mpi_complete(void *tape) {
  struct adcc_mpi_pending *p = tape;
  if (!p)
    return;
  if (!p->ready)
    adcc_mpi_fail(p->comm, p->call,
                  "the request was not completed by MPI_Wait or MPI_Waitall "
                  "in differentiated code");
  if (!p->posted)
    adcc_mpi_fail(p->comm, p->call,
                  "a request started after this one was not completed by "
                  "MPI_Wait or MPI_Waitall in differentiated code");
  MPI_Wait(&p->reverse, MPI_STATUS_IGNORE);
  if (!p->receive)
    adcc_mpi_add(p->kind, p->dbuf, p->temp, (size_t)p->count);
  free(p->temp);
  free(p);
}

void adcc_mpi_isend_rev(void *tape) { adcc_mpi_complete(tape); }
void adcc_mpi_irecv_rev(void *tape) { adcc_mpi_complete(tape); }

void adcc_mpi_received(struct adcc_mpi_pending *p, MPI_Status *status) {
  if (!p || !p->receive)
    return;
  p->peer = status->MPI_SOURCE;
  p->tag = status->MPI_TAG;
  MPI_Get_count(status, p->type, &p->count);
}

void adcc_mpi_post(struct adcc_mpi_pending *p) {
  size_t n = (size_t)p->count;
  p->posted = 1;
  if (p->peer == MPI_PROC_NULL) { /* (no message: no adjoint) */
    p->count = 0;
    p->temp = adcc_mpi_temp(p->kind, NULL, 0);
    return;
  }
  if (p->receive) {
    p->temp = adcc_mpi_temp(p->kind, p->dbuf, n);
    adcc_mpi_zero(p->kind, p->dbuf, n);
    MPI_Isend(p->temp, p->count, p->type, p->peer,
              adcc_mpi_adjoint_tag(p->tag, p->comm), p->comm, &p->reverse);
    return;
  }
  p->temp = adcc_mpi_temp(p->kind, NULL, n);
  MPI_Irecv(p->temp, p->count, p->type, p->peer,
            adcc_mpi_adjoint_tag(p->tag, p->comm), p->comm, &p->reverse);
}

int adcc_mpi_wait_aug(MPI_Request *request, MPI_Status *status, void **tape) {
  struct adcc_mpi_pending *p = adcc_mpi_take(request);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Wait(request, st);
  adcc_mpi_received(p, st);
  *tape = p;
  return rc;
}

void adcc_mpi_wait_rev(void *tape) { adcc_mpi_completed_rev(tape); }

int adcc_mpi_waitall_aug(int n, MPI_Request *requests, MPI_Status *statuses,
                         void **tape) {
  struct adcc_mpi_waited *w = adcc_mpi_waited_new(n, "MPI_Waitall");
  MPI_Status *sts = statuses == MPI_STATUSES_IGNORE
                        ? calloc((size_t)(n ? n : 1), sizeof(MPI_Status))
                        : statuses;
  if (!sts)
    adcc_mpi_fail(MPI_COMM_WORLD, "MPI_Waitall", "out of memory");
  w->n = n;
  for (int i = 0; i < n; ++i)
    w->p[i] = adcc_mpi_take(&requests[i]);
  int rc = MPI_Waitall(n, requests, sts);
  for (int i = 0; i < n; ++i)
    adcc_mpi_received(w->p[i], &sts[i]);
  if (sts != statuses)
    free(sts);
  *tape = w;
  return rc;
}

struct adcc_mpi_waited *adcc_mpi_waited_new(int n, const char *call) {
  struct adcc_mpi_waited *w =
      calloc(1, sizeof(*w) + (size_t)(n > 0 ? n : 0) * sizeof(w->p[0]));
  if (!w)
    adcc_mpi_fail(MPI_COMM_WORLD, call, "out of memory");
  w->n = n;
  return w;
}

void adcc_mpi_waitall_rev(void *tape) {
  struct adcc_mpi_waited *w = tape;
  for (int i = 0; i < w->n; ++i)
    if (w->p[i])
      adcc_mpi_ready(w->p[i], adcc_mpi_post);
  free(w);
}
