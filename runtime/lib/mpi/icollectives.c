/*===- icollectives.c - Nonblocking collectives of differentiated code ---===*
 *
 * MPI_Ibcast, MPI_Ireduce and MPI_Iallreduce (and MPI_Igather,
 * MPI_Iscatter, MPI_Iallgather: igathers.c) start a pending record keyed
 * by the program's request variable (requests.c), as MPI_Isend does, which
 * the waits and tests complete.
 *
 * Forward mode runs one collective over packed buffers of twice the
 * elements, [values | tangents]: a broadcast carries both, and a sum of
 * the packed inputs is the packed sums of the values and of the tangents.
 * A minimum or maximum reduces triples (value, tangent, rank) by an
 * operator of its own that keeps the extremum's triple, the lowest rank's
 * on ties (MPI_MINLOC's choice, which the blocking reductions follow).
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
 * start. A minimum or maximum keeps a copy of the values this rank sent;
 * the reverse of the start finds the ranks that won from it (a blocking
 * MPI_MINLOC/MPI_MAXLOC there) before the adjoint goes to them.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <pthread.h>
#include <stdlib.h>

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

/*--- minima and maxima: (value, tangent, rank) triples ------------------*/

/* One operator per kind and choice, and the datatype of a triple. */
static pthread_mutex_t triples_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Datatype triple_types[2];
static MPI_Op triple_ops[2][2];

#define CHOOSE(name, T, better)                                                \
  static void name(void *in, void *inout, int *len, MPI_Datatype *type) {      \
    (void)type;                                                                \
    const T *a = in;                                                           \
    T *b = inout;                                                              \
    for (int i = 0; i < *len; ++i, a += 3, b += 3)                             \
      if (better(a[0], b[0]) || (a[0] == b[0] && a[2] < b[2])) {               \
        b[0] = a[0];                                                           \
        b[1] = a[1];                                                           \
        b[2] = a[2];                                                           \
      }                                                                        \
  }
#define LESS(x, y) ((x) < (y))
#define GREATER(x, y) ((x) > (y))
CHOOSE(min_double, double, LESS)
CHOOSE(max_double, double, GREATER)
CHOOSE(min_float, float, LESS)
CHOOSE(max_float, float, GREATER)

/* The datatype and operator of \p kind's triples for \p how (made on
 * first use, kept until the program ends). */
static void triples(enum adcc_mpi_kind kind, enum adcc_mpi_op how,
                    MPI_Datatype *type, MPI_Op *op) {
  int k = kind == ADCC_MPI_FLOAT;
  pthread_mutex_lock(&triples_lock);
  if (!triple_types[k]) {
    MPI_Type_contiguous(3, k ? MPI_FLOAT : MPI_DOUBLE, &triple_types[k]);
    MPI_Type_commit(&triple_types[k]);
    MPI_Op_create(k ? min_float : min_double, 1, &triple_ops[k][0]);
    MPI_Op_create(k ? max_float : max_double, 1, &triple_ops[k][1]);
  }
  pthread_mutex_unlock(&triples_lock);
  *type = triple_types[k];
  *op = triple_ops[k][how == ADCC_MPI_MAX];
}

/* n triples (values[i], tangents[i] or 0, rank), freed with free. */
static void *pack_triples(enum adcc_mpi_kind kind, const void *values,
                          const void *tangents, int n, int rank) {
  void *t = adcc_mpi_temp(kind, NULL, 3 * (size_t)n);
  for (int i = 0; i < n; ++i)
    if (kind == ADCC_MPI_DOUBLE) {
      double *d = (double *)t + 3 * i;
      d[0] = ((const double *)values)[i];
      d[1] = tangents ? ((const double *)tangents)[i] : 0;
      d[2] = rank;
    } else {
      float *f = (float *)t + 3 * i;
      f[0] = ((const float *)values)[i];
      f[1] = tangents ? ((const float *)tangents)[i] : 0;
      f[2] = (float)rank;
    }
  return t;
}

/* The wait of a minimum or maximum: the chosen values and tangents. */
static void unpack_triples(struct adcc_mpi_pending *p) {
  if (!p->gets)
    return;
  for (int i = 0; i < p->count; ++i)
    if (p->kind == ADCC_MPI_DOUBLE) {
      const double *d = (const double *)p->temp + 3 * i;
      ((double *)p->buf)[i] = d[0];
      if (p->dbuf)
        ((double *)p->dbuf)[i] = d[1];
    } else {
      const float *f = (const float *)p->temp + 3 * i;
      ((float *)p->buf)[i] = f[0];
      if (p->dbuf)
        ((float *)p->dbuf)[i] = f[1];
    }
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
  enum adcc_mpi_op how = adcc_mpi_op_of(op, call, comm);
  struct adcc_mpi_pending *p =
      begin(all ? ADCC_MPI_IALLREDUCE : ADCC_MPI_IREDUCE, call, request, kind,
            count, type, root, comm);
  int in_place = send == MPI_IN_PLACE;
  p->buf = recv;
  p->dbuf = drecv;
  p->gets = all || adcc_mpi_rank(comm) == root;
  if (how != ADCC_MPI_SUM) {
    MPI_Datatype triple;
    MPI_Op choose;
    triples(kind, how, &triple, &choose);
    p->unpack = unpack_triples;
    p->sent =
        pack_triples(kind, in_place ? recv : send, in_place ? drecv : dsend,
                     count, adcc_mpi_rank(comm));
    p->temp = adcc_mpi_temp(kind, NULL, p->gets ? 3 * (size_t)count : 0);
    return all ? MPI_Iallreduce(p->sent, p->temp, count, triple, choose, comm,
                                request)
               : MPI_Ireduce(p->sent, p->temp, count, triple, choose, root,
                             comm, request);
  }
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
    struct adcc_mpi_pending *p =
        begin(all ? ADCC_MPI_IALLREDUCE : ADCC_MPI_IREDUCE, call, request,
              kind, count, type, root, comm);
    p->send = send;
    p->sent = dsend;
    p->dbuf = drecv;
    p->choice = adcc_mpi_op_of(op, call, comm);
    if (p->choice != ADCC_MPI_SUM)
      p->temp = adcc_mpi_temp(kind, send == MPI_IN_PLACE ? recv : send,
                              (size_t)count);
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
  /* (The winners of a minimum or maximum: the reduction rule frees
   * them.) */
  unsigned char *won = NULL;
  if ((p->started == ADCC_MPI_IREDUCE || p->started == ADCC_MPI_IALLREDUCE) &&
      p->choice != ADCC_MPI_SUM) {
    won = calloc((size_t)(p->count ? p->count : 1), 1);
    if (!won)
      adcc_mpi_fail(p->comm, p->call, "out of memory");
    adcc_mpi_winners(p->kind, p->choice, p->temp, p->count, p->comm, won);
  }
  if (p->started == ADCC_MPI_IBCAST)
    adcc_mpi_bcast_rev(p->dbuf, p->count, p->type, p->root, p->comm);
  else if (p->started == ADCC_MPI_IREDUCE)
    adcc_mpi_reduce_rev(p->send, p->sent, p->dbuf, p->count, p->type, p->root,
                        p->comm, won);
  else if (p->started == ADCC_MPI_IALLREDUCE)
    adcc_mpi_allreduce_rev(p->send, p->sent, p->dbuf, p->count, p->type,
                           p->comm, won);
  else if (p->started == ADCC_MPI_IALLTOALLW)
    adcc_mpi_ialltoallw_rev(p);
  else if (p->started >= ADCC_MPI_INEIGHBOR_ALLGATHER)
    adcc_mpi_ineighbors_rev(p);
  else if (p->started >= ADCC_MPI_IGATHERV)
    adcc_mpi_ivgathers_rev(p);
  else if (p->started >= ADCC_MPI_ISCAN)
    adcc_mpi_iexchanges_rev(p);
  else
    adcc_mpi_igathers_rev(p);
  free(p->counts);
  free(p->temp);
  free(p);
}
