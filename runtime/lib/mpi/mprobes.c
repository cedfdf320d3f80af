/*===- mprobes.c - Matched probes and their receives ----------------------===*
 *
 * MPI_Mprobe and MPI_Improbe take a message off the queue and give a
 * handle to it, which MPI_Mrecv or MPI_Imrecv receives. The handle does
 * not name the communicator, which the receive's reverse needs (its
 * adjoint is a send to the actual source, as MPI_Recv's: reverse.c): so
 * the probes note each handle's communicator, and the receive takes it.
 *
 * Forward mode: a message of doubles or floats carries its tangents,
 * [values | tangents] (forward.c); the probe's status counts the primal's
 * elements for MPI_Get_count (probes.c), and the receive takes twice the
 * elements into a packed buffer and splits it (MPI_Imrecv at its wait, as
 * MPI_Irecv). Reverse mode runs the program's calls; the receive's reverse
 * sends the adjoint back to the source, buffered (MPI_Imrecv's through the
 * records of MPI_Irecv: requests.c).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <pthread.h>
#include <stdlib.h>

/* The handles of messages probed and not yet received, with their
 * communicators. */
enum { MATCHED = 64 };
static struct {
  int used;
  MPI_Message message;
  MPI_Comm comm;
} matched[MATCHED];
static unsigned next_matched;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void remember(MPI_Message message, MPI_Comm comm) {
  if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
    return;
  pthread_mutex_lock(&lock);
  unsigned at = next_matched;
  for (unsigned i = 0; i < MATCHED; ++i)
    if (!matched[i].used) {
      at = i;
      break;
    }
  matched[at].used = 1;
  matched[at].message = message;
  matched[at].comm = comm;
  next_matched = (at + 1) % MATCHED;
  pthread_mutex_unlock(&lock);
}

/* The communicator \p message was probed on (removed from the table);
 * false when it was not probed by differentiated code. */
static int take(MPI_Message message, MPI_Comm *comm) {
  int found = 0;
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < MATCHED && !found; ++i)
    if (matched[i].used && matched[i].message == message) {
      *comm = matched[i].comm;
      matched[i].used = 0;
      found = 1;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

/*--- the probes (both modes) ---------------------------------------------*/

int adcc_mpi_mprobe_fwd(int source, int tag, MPI_Comm comm,
                        MPI_Message *message, MPI_Status *status) {
  int rc = MPI_Mprobe(source, tag, comm, message, status);
  adcc_mpi_note_probed(status);
  remember(*message, comm);
  return rc;
}

int adcc_mpi_improbe_fwd(int source, int tag, MPI_Comm comm, int *flag,
                         MPI_Message *message, MPI_Status *status) {
  int rc = MPI_Improbe(source, tag, comm, flag, message, status);
  if (*flag) {
    adcc_mpi_note_probed(status);
    remember(*message, comm);
  }
  return rc;
}

int adcc_mpi_mprobe_aug(int source, int tag, MPI_Comm comm,
                        MPI_Message *message, MPI_Status *status) {
  int rc = MPI_Mprobe(source, tag, comm, message, status);
  remember(*message, comm);
  return rc;
}

int adcc_mpi_improbe_aug(int source, int tag, MPI_Comm comm, int *flag,
                         MPI_Message *message, MPI_Status *status) {
  int rc = MPI_Improbe(source, tag, comm, flag, message, status);
  if (*flag)
    remember(*message, comm);
  return rc;
}

/*--- forward mode --------------------------------------------------------*/

int adcc_mpi_mrecv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                       MPI_Message *message, MPI_Status *status) {
  MPI_Comm comm = MPI_COMM_WORLD;
  take(*message, &comm);
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Mrecv", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Mrecv(buf, count, type, message, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  void *packed = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  int rc = MPI_Mrecv(packed, 2 * count, type, message, st);
  int got = 0;
  MPI_Get_count(st, type, &got);
  adcc_mpi_split(kind, packed, buf, dbuf, got / 2);
  MPI_Status_set_elements(st, type, got / 2);
  free(packed);
  return rc;
}

int adcc_mpi_imrecv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                        MPI_Message *message, MPI_Request *request) {
  MPI_Comm comm = MPI_COMM_WORLD;
  take(*message, &comm);
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Imrecv", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Imrecv(buf, count, type, message, request);
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->receive = 1;
  p->kind = kind;
  p->buf = buf;
  p->dbuf = dbuf;
  p->type = type;
  p->temp = adcc_mpi_temp(kind, NULL, 2 * (size_t)count);
  return MPI_Imrecv(p->temp, 2 * count, type, message, request);
}

/*--- reverse mode --------------------------------------------------------*/

/* The communicator of a message the program receives in differentiated
 * code (a message of no process needs none). */
static MPI_Comm comm_of(MPI_Message message, MPI_Datatype type,
                        const char *call) {
  MPI_Comm comm = MPI_COMM_WORLD;
  if (!take(message, &comm) && message != MPI_MESSAGE_NO_PROC &&
      adcc_mpi_kind_of(type, call, comm) != ADCC_MPI_INACTIVE)
    adcc_mpi_fail(comm, call,
                  "the message was not matched by MPI_Mprobe or MPI_Improbe "
                  "in differentiated code");
  return comm;
}

struct mreceived {
  int count, source, tag;
  MPI_Comm comm;
};

int adcc_mpi_mrecv_aug(void *buf, int count, MPI_Datatype type,
                       MPI_Message *message, MPI_Status *status, void **tape) {
  MPI_Comm comm = comm_of(*message, type, "MPI_Mrecv");
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Mrecv", comm);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Mrecv(buf, count, type, message, st);
  *tape = NULL;
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct mreceived *r = malloc(sizeof(*r));
  if (!r)
    adcc_mpi_fail(comm, "MPI_Mrecv", "out of memory");
  MPI_Get_count(st, type, &r->count);
  r->source = st->MPI_SOURCE;
  r->tag = r->source == MPI_PROC_NULL ? 0 : st->MPI_TAG;
  r->comm = comm;
  *tape = r;
  return rc;
}

void adcc_mpi_mrecv_rev(void *dbuf, MPI_Datatype type, void *tape) {
  struct mreceived *r = tape;
  if (!r)
    return;
  if (r->source != MPI_PROC_NULL) {
    enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Mrecv", r->comm);
    void *t = adcc_mpi_temp(kind, dbuf, (size_t)r->count);
    /* (Buffered, as MPI_Recv's: the sender may have used MPI_Bsend.) */
    adcc_mpi_isend_kept(t, r->count, type, r->source,
                        adcc_mpi_adjoint_tag(r->tag, r->comm), r->comm, 1);
    adcc_mpi_zero(kind, dbuf, (size_t)r->count);
  }
  free(r);
}

int adcc_mpi_imrecv_aug(void *buf, void *dbuf, int count, MPI_Datatype type,
                        MPI_Message *message, MPI_Request *request,
                        void **tape) {
  MPI_Comm comm = comm_of(*message, type, "MPI_Imrecv");
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Imrecv", comm);
  int rc = MPI_Imrecv(buf, count, type, message, request);
  *tape = NULL;
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 1);
  p->call = "MPI_Imrecv";
  p->receive = 1;
  p->kind = kind;
  p->dbuf = dbuf;
  p->count = count;
  p->type = type;
  p->peer = MPI_ANY_SOURCE;
  p->tag = MPI_ANY_TAG;
  p->comm = comm;
  *tape = p;
  return rc;
}
