/*===- icollectives.c - Nonblocking collectives of differentiated code ---===*
 *
 * MPI_Ibcast, MPI_Ireduce and MPI_Iallreduce (with MPI_SUM) start a
 * pending record keyed by the program's request variable (requests.c), as
 * MPI_Isend does, which the waits and tests complete.
 *
 * Forward mode runs one collective over packed buffers of twice the
 * elements, [values | tangents]: a broadcast carries both, and a sum of
 * the packed inputs is the packed sums of the values and of the tangents.
 * The wait splits the result into the buffer and its shadow.
 *
 * Reverse mode runs the program's collective. Its adjoint (the blocking
 * one of MPI_Bcast, MPI_Reduce, MPI_Allreduce: collectives.c) runs at the
 * reverse of the call that started it: the reverses of the collectives
 * then start in the reverse of the order the program started them, the
 * same order on every rank, as MPI requires of collectives (the reverse of
 * the wait, which ranks may reach in other orders, only notes that it
 * ran). Between the start and the wait the program may not touch the
 * buffers, so the result's adjoint is complete at the reverse of the
 * start.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

/* Only sums have rules for the nonblocking reductions: a minimum's or
 * maximum's winners need a second collective, which a nonblocking call
 * cannot wait for. */
static void sum_only(MPI_Op op, const char *call, MPI_Comm comm) {
  if (adcc_mpi_op_of(op, call, comm) != ADCC_MPI_SUM)
    adcc_mpi_fail(comm, call,
                  "MPI_MIN and MPI_MAX of a nonblocking reduction have no "
                  "derivative rule (MPI_SUM has; MPI_Reduce and "
                  "MPI_Allreduce have all three)");
}

static struct adcc_mpi_pending *begin(enum adcc_mpi_started what,
                                      const char *call, MPI_Request *request,
                                      enum adcc_mpi_kind kind, int count,
                                      MPI_Datatype type, int root,
                                      MPI_Comm comm) {
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->started = what;
  p->call = call;
  p->kind = kind;
  p->count = count;
  p->type = type;
  p->root = root;
  p->comm = comm;
  return p;
}

/*--- forward mode --------------------------------------------------------*/

int adcc_mpi_ibcast_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                        int root, MPI_Comm comm, MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Ibcast", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Ibcast(buf, count, type, root, comm, request);
  struct adcc_mpi_pending *p = begin(ADCC_MPI_IBCAST, "MPI_Ibcast", request,
                                     kind, count, type, root, comm);
  p->buf = buf;
  p->dbuf = dbuf;
  p->gets = 1;
  p->temp = adcc_mpi_pack(kind, buf, dbuf, count);
  return MPI_Ibcast(p->temp, 2 * count, type, root, comm, request);
}

/* MPI_Ireduce (\p all: MPI_Iallreduce) of the packed inputs. */
static int ireduce_fwd(int all, const void *send, const void *dsend,
                       void *recv, void *drecv, int count, MPI_Datatype type,
                       MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request) {
  const char *call = all ? "MPI_Iallreduce" : "MPI_Ireduce";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return all ? MPI_Iallreduce(send, recv, count, type, op, comm, request)
               : MPI_Ireduce(send, recv, count, type, op, root, comm,
                             request);
  sum_only(op, call, comm);
  struct adcc_mpi_pending *p =
      begin(all ? ADCC_MPI_IALLREDUCE : ADCC_MPI_IREDUCE, call, request, kind,
            count, type, root, comm);
  int in_place = send == MPI_IN_PLACE;
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = all || adcc_mpi_rank(comm) == root;
  p->sent = adcc_mpi_pack(kind, in_place ? recv : send,
                          in_place ? drecv : dsend, count);
  p->temp = adcc_mpi_temp(kind, NULL, p->gets ? 2 * (size_t)count : 0);
  return all ? MPI_Iallreduce(p->sent, p->temp, 2 * count, type, op, comm,
                              request)
             : MPI_Ireduce(p->sent, p->temp, 2 * count, type, op, root, comm,
                           request);
}

int adcc_mpi_ireduce_fwd(const void *send, const void *dsend, void *recv,
                         void *drecv, int count, MPI_Datatype type, MPI_Op op,
                         int root, MPI_Comm comm, MPI_Request *request) {
  return ireduce_fwd(0, send, dsend, recv, drecv, count, type, op, root, comm,
                     request);
}

int adcc_mpi_iallreduce_fwd(const void *send, const void *dsend, void *recv,
                            void *drecv, int count, MPI_Datatype type,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  return ireduce_fwd(1, send, dsend, recv, drecv, count, type, op, 0, comm,
                     request);
}

/*--- reverse mode --------------------------------------------------------*/

int adcc_mpi_ibcast_aug(void *buf, void *dbuf, int count, MPI_Datatype type,
                        int root, MPI_Comm comm, MPI_Request *request,
                        void **tape) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Ibcast", comm);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE) {
    struct adcc_mpi_pending *p = begin(ADCC_MPI_IBCAST, "MPI_Ibcast",
                                       request, kind, count, type, root, comm);
    p->dbuf = dbuf;
    *tape = p;
  }
  return MPI_Ibcast(buf, count, type, root, comm, request);
}

static int ireduce_aug(int all, const void *send, void *dsend, void *recv,
                       void *drecv, int count, MPI_Datatype type, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Request *request,
                       void **tape) {
  const char *call = all ? "MPI_Iallreduce" : "MPI_Ireduce";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE) {
    sum_only(op, call, comm);
    struct adcc_mpi_pending *p =
        begin(all ? ADCC_MPI_IALLREDUCE : ADCC_MPI_IREDUCE, call, request,
              kind, count, type, root, comm);
    p->send = send;
    p->sent = dsend;
    p->dbuf = drecv;
    *tape = p;
  }
  return all ? MPI_Iallreduce(send, recv, count, type, op, comm, request)
             : MPI_Ireduce(send, recv, count, type, op, root, comm, request);
}

int adcc_mpi_ireduce_aug(const void *send, void *dsend, void *recv,
                         void *drecv, int count, MPI_Datatype type, MPI_Op op,
                         int root, MPI_Comm comm, MPI_Request *request,
                         void **tape) {
  return ireduce_aug(0, send, dsend, recv, drecv, count, type, op, root, comm,
                     request, tape);
}

int adcc_mpi_iallreduce_aug(const void *send, void *dsend, void *recv,
                            void *drecv, int count, MPI_Datatype type,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request,
                            void **tape) {
  return ireduce_aug(1, send, dsend, recv, drecv, count, type, op, 0, comm,
                     request, tape);
}

/* The reverse of the start: the adjoint collective. */
void adcc_mpi_icollective_rev(void *tape) {
  struct adcc_mpi_pending *p = tape;
  if (!p)
    return;
  if (!p->ready)
    adcc_mpi_fail(p->comm, p->call,
                  "the request was not completed by MPI_Wait, MPI_Waitall "
                  "or a test in differentiated code");
  if (p->started == ADCC_MPI_IBCAST)
    adcc_mpi_bcast_rev(p->dbuf, p->count, p->type, p->root, p->comm);
  else if (p->started == ADCC_MPI_IREDUCE)
    adcc_mpi_reduce_rev(p->send, p->sent, p->dbuf, p->count, p->type, p->root,
                        p->comm, NULL);
  else
    adcc_mpi_allreduce_rev(p->send, p->sent, p->dbuf, p->count, p->type,
                           p->comm, NULL);
  free(p);
}
