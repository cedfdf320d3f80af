/*===- persistent.c - Persistent requests of differentiated code --------===*
 *
 * MPI_Send_init and MPI_Recv_init in differentiated code leave a record,
 * keyed by the address of the program's request variable, that each
 * MPI_Start (MPI_Startall) of the request turns into a pending message as
 * MPI_Isend and MPI_Irecv do (requests.c): the waits, tests and their
 * reverses then treat it as one.
 *
 * Forward mode makes the MPI request over a packed buffer of twice the
 * elements, [values | tangents], which a send's start fills from the
 * buffer and its shadow and a receive's wait splits into them. Reverse
 * mode makes the program's own request; each start notes what the
 * reverse sweep needs, and the reverse of the start completes the adjoint
 * message that the reverse of its wait posted. MPI_Request_free ends the
 * record (in reverse mode the reverse of the init frees it).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <pthread.h>
#include <stdlib.h>

struct persistent {
  MPI_Request *request;
  int receive, reverse;
  enum adcc_mpi_kind kind;
  void *buf, *dbuf;
  int count;
  MPI_Datatype type;
  int peer, tag;
  MPI_Comm comm;
  void *packed; /* forward: what the MPI request sends or receives */
  struct persistent *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct persistent *known;

/* The record of \p request, unlinked from the table when \p unlink. */
static struct persistent *find(MPI_Request *request, int unlink) {
  pthread_mutex_lock(&lock);
  struct persistent **at = &known;
  while (*at && (*at)->request != request)
    at = &(*at)->next;
  struct persistent *r = *at;
  if (r && unlink)
    *at = r->next;
  pthread_mutex_unlock(&lock);
  return r;
}

static struct persistent *make(int receive, int reverse, const char *call,
                               void *buf, void *dbuf, int count,
                               MPI_Datatype type, int peer, int tag,
                               MPI_Comm comm, MPI_Request *request) {
  struct persistent *r = calloc(1, sizeof(*r));
  if (!r)
    adcc_mpi_fail(comm, call, "out of memory");
  r->request = request;
  r->receive = receive;
  r->reverse = reverse;
  r->kind = adcc_mpi_kind_of(type, call, comm);
  r->buf = buf;
  r->dbuf = dbuf;
  r->count = count;
  r->type = type;
  r->peer = peer;
  r->tag = tag;
  r->comm = comm;
  struct persistent *old = find(request, 1);
  if (old && !old->reverse) { /* (made again without a free) */
    free(old->packed);
    free(old);
  }
  pthread_mutex_lock(&lock);
  r->next = known;
  known = r;
  pthread_mutex_unlock(&lock);
  return r;
}

static const char *call_of(const struct persistent *r) {
  return r->receive ? "MPI_Recv_init" : "MPI_Send_init";
}

/* The record a start of \p request needs; stops the program when the
 * request was not made in differentiated code. */
static struct persistent *started(MPI_Request *request, const char *call) {
  struct persistent *r = find(request, 0);
  if (!r)
    adcc_mpi_fail(MPI_COMM_WORLD, call,
                  "the persistent request was not made by MPI_Send_init or "
                  "MPI_Recv_init in the same differentiated call");
  return r;
}

/*--- forward mode --------------------------------------------------------*/

static int init_fwd(int receive, void *buf, void *dbuf, int count,
                    MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                    MPI_Request *request) {
  struct persistent *r =
      make(receive, 0, receive ? "MPI_Recv_init" : "MPI_Send_init", buf, dbuf,
           count, type, peer, tag, comm, request);
  void *at = buf;
  int n = count;
  if (r->kind != ADCC_MPI_INACTIVE) {
    r->packed = adcc_mpi_temp(r->kind, NULL, 2 * (size_t)count);
    at = r->packed;
    n = 2 * count;
  }
  return receive ? MPI_Recv_init(at, n, type, peer, tag, comm, request)
                 : MPI_Send_init(at, n, type, peer, tag, comm, request);
}

int adcc_mpi_send_init_fwd(const void *buf, const void *dbuf, int count,
                           MPI_Datatype type, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request) {
  return init_fwd(0, (void *)buf, (void *)dbuf, count, type, dest, tag, comm,
                  request);
}

int adcc_mpi_recv_init_fwd(void *buf, void *dbuf, int count,
                           MPI_Datatype type, int source, int tag,
                           MPI_Comm comm, MPI_Request *request) {
  return init_fwd(1, buf, dbuf, count, type, source, tag, comm, request);
}

/* The pending record of a start of \p r's request (\p reverse: in an
 * augmented sweep), as MPI_Isend and MPI_Irecv make it. */
static struct adcc_mpi_pending *pending_of(struct persistent *r,
                                           int reverse) {
  struct adcc_mpi_pending *p = adcc_mpi_start(r->request, reverse);
  p->call = call_of(r);
  p->receive = r->receive;
  p->kind = r->kind;
  p->buf = r->buf;
  p->dbuf = r->dbuf;
  p->count = r->count;
  p->type = r->type;
  p->peer = r->peer;
  p->tag = r->tag;
  p->comm = r->comm;
  return p;
}

/* Before MPI_Start of \p request: a send packs its values and tangents; the
 * pending record lets the wait split what a receive brings. */
static void prepare_fwd(MPI_Request *request, const char *call) {
  struct persistent *r = started(request, call);
  if (r->kind == ADCC_MPI_INACTIVE)
    return;
  if (!r->receive) {
    size_t n = (size_t)r->count;
    adcc_mpi_copy(r->kind, r->packed, r->buf, n);
    adcc_mpi_copy(r->kind,
                  (char *)r->packed + adcc_mpi_size_of(r->kind) * n, r->dbuf,
                  n);
  }
  struct adcc_mpi_pending *p = pending_of(r, 0);
  p->temp = r->packed;
  p->keep_temp = 1;
}

int adcc_mpi_start_fwd(MPI_Request *request) {
  prepare_fwd(request, "MPI_Start");
  return MPI_Start(request);
}

int adcc_mpi_startall_fwd(int n, MPI_Request *requests) {
  for (int i = 0; i < n; ++i)
    prepare_fwd(&requests[i], "MPI_Startall");
  return MPI_Startall(n, requests);
}

/* Both modes: the record ends (forward mode frees it; in reverse mode the
 * reverse of the init does). A request still started stops the program. */
int adcc_mpi_request_free(MPI_Request *request) {
  struct adcc_mpi_pending *p = adcc_mpi_take(request);
  if (p)
    adcc_mpi_fail(MPI_COMM_WORLD, "MPI_Request_free",
                  "a request of differentiated code that carries "
                  "derivatives was freed before its wait; complete it with "
                  "MPI_Wait, MPI_Waitall or a test");
  struct persistent *r = find(request, 1);
  if (r && !r->reverse) {
    free(r->packed);
    free(r);
  }
  return MPI_Request_free(request);
}

void adcc_mpi_request_free_rev(void) {}

/*--- reverse mode --------------------------------------------------------*/

int adcc_mpi_send_init_aug(const void *buf, void *dbuf, int count,
                           MPI_Datatype type, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request, void **tape) {
  *tape = make(0, 1, "MPI_Send_init", (void *)buf, dbuf, count, type, dest,
               tag, comm, request);
  return MPI_Send_init(buf, count, type, dest, tag, comm, request);
}

int adcc_mpi_recv_init_aug(void *buf, void *dbuf, int count,
                           MPI_Datatype type, int source, int tag,
                           MPI_Comm comm, MPI_Request *request, void **tape) {
  *tape = make(1, 1, "MPI_Recv_init", buf, dbuf, count, type, source, tag,
               comm, request);
  return MPI_Recv_init(buf, count, type, source, tag, comm, request);
}

/* The reverse of MPI_Send_init and MPI_Recv_init: the record ends. */
void adcc_mpi_persistent_rev(void *tape) {
  struct persistent *r = tape;
  if (find(r->request, 0) == r)
    find(r->request, 1);
  free(r);
}

/* What the reverse of a start of \p request needs (null: no derivative). */
static struct adcc_mpi_pending *prepare_aug(MPI_Request *request,
                                            const char *call) {
  struct persistent *r = started(request, call);
  return r->kind == ADCC_MPI_INACTIVE ? NULL : pending_of(r, 1);
}

int adcc_mpi_start_aug(MPI_Request *request, void **tape) {
  *tape = prepare_aug(request, "MPI_Start");
  return MPI_Start(request);
}

void adcc_mpi_start_rev(void *tape) { adcc_mpi_complete(tape); }

int adcc_mpi_startall_aug(int n, MPI_Request *requests, void **tape) {
  struct adcc_mpi_waited *w = adcc_mpi_waited_new(n, "MPI_Startall");
  for (int i = 0; i < n; ++i)
    w->p[i] = prepare_aug(&requests[i], "MPI_Startall");
  *tape = w;
  return MPI_Startall(n, requests);
}

void adcc_mpi_startall_rev(void *tape) {
  struct adcc_mpi_waited *w = tape;
  for (int i = w->n; i-- > 0;)
    adcc_mpi_complete(w->p[i]);
  free(w);
}
