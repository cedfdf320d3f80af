/*===- sendmodes.c - The synchronous, ready and buffered send modes -----===*
 *
 * MPI_Ssend, MPI_Rsend, MPI_Bsend, MPI_Issend, MPI_Irsend and MPI_Ibsend
 * send what MPI_Send and MPI_Isend send, in another mode; their rules are
 * those of MPI_Send and MPI_Isend (forward.c, reverse.c) with the mode's
 * call (MPI_Ibsend's forward mode: below):
 *
 *   forward mode    the packed [values | tangents] message goes in the
 *                   program's mode, except for MPI_Rsend and MPI_Irsend,
 *                   whose packed message goes as MPI_Send and MPI_Isend
 *                   (always correct where a ready send is), and MPI_Bsend,
 *                   whose message is twice the size the program attached a
 *                   buffer for: it is copied and sent non-blocking, the
 *                   copy kept until the send completes (a later MPI_Bsend
 *                   or MPI_Buffer_detach of differentiated code frees the
 *                   completed ones; MPI_Buffer_detach waits for all, as it
 *                   waits for the messages in its buffer)
 *   reverse mode    the augmented sweep sends in the program's mode; the
 *                   reverse receives the adjoint from the destination, as
 *                   for MPI_Send (for the non-blocking ones: as MPI_Isend)
 *
 * The adjoint message of a blocking receive goes the same way as forward
 * mode's MPI_Bsend (adcc_mpi_isend_kept): where the program's sender used
 * MPI_Bsend so that every rank may send before it receives, the reverse
 * sweep has every rank send the adjoints before it receives them. A
 * reverse sweep waits for all of them as it returns (adcc_mpi_drain).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <pthread.h>
#include <stdlib.h>

int adcc_mpi_ssend_fwd(const void *buf, const void *dbuf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return adcc_mpi_send_fwd_as(MPI_Ssend, "MPI_Ssend", buf, dbuf, count, type,
                              dest, tag, comm);
}

int adcc_mpi_ssend_aug(const void *buf, int count, MPI_Datatype type,
                       int dest, int tag, MPI_Comm comm) {
  adcc_mpi_kind_of(type, "MPI_Ssend", comm);
  return MPI_Ssend(buf, count, type, dest, tag, comm);
}

void adcc_mpi_ssend_rev(void *dbuf, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm) {
  adcc_mpi_send_rev_as("MPI_Ssend", dbuf, count, type, dest, tag, comm);
}

int adcc_mpi_rsend_fwd(const void *buf, const void *dbuf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return adcc_mpi_send_fwd_as(MPI_Send, "MPI_Rsend", buf, dbuf, count, type,
                              dest, tag, comm);
}

int adcc_mpi_rsend_aug(const void *buf, int count, MPI_Datatype type,
                       int dest, int tag, MPI_Comm comm) {
  adcc_mpi_kind_of(type, "MPI_Rsend", comm);
  return MPI_Rsend(buf, count, type, dest, tag, comm);
}

void adcc_mpi_rsend_rev(void *dbuf, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm) {
  adcc_mpi_send_rev_as("MPI_Rsend", dbuf, count, type, dest, tag, comm);
}

/* Sends whose buffers the runtime keeps until they complete (forward
 * mode's MPI_Bsend, the adjoint messages of blocking receives), not known
 * to be complete. */
struct buffered {
  MPI_Request request;
  void *packed;
  int adjoint; /* the adjoint message of a receive (reverse mode) */
};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct buffered *buffered;
static size_t buffered_count, buffered_capacity;

/* Frees the buffered sends that completed; waits for all with \p wait
 * WAIT_ALL, for the adjoint messages with WAIT_ADJOINTS. */
enum { TEST, WAIT_ALL, WAIT_ADJOINTS };
static void reap(int wait) {
  size_t kept = 0;
  for (size_t i = 0; i < buffered_count; ++i) {
    int done = 1;
    if (wait == WAIT_ALL || (wait == WAIT_ADJOINTS && buffered[i].adjoint))
      MPI_Wait(&buffered[i].request, MPI_STATUS_IGNORE);
    else
      MPI_Test(&buffered[i].request, &done, MPI_STATUS_IGNORE);
    if (done)
      free(buffered[i].packed);
    else
      buffered[kept++] = buffered[i];
  }
  buffered_count = kept;
}

int adcc_mpi_isend_kept(void *buffer, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm, int adjoint) {
  pthread_mutex_lock(&lock);
  reap(TEST);
  if (buffered_count == buffered_capacity) {
    buffered_capacity = buffered_capacity ? 2 * buffered_capacity : 16;
    buffered = realloc(buffered, buffered_capacity * sizeof(*buffered));
    if (!buffered)
      adcc_mpi_fail(comm, "MPI_Bsend/MPI_Recv", "out of memory");
  }
  struct buffered *b = &buffered[buffered_count++];
  b->packed = buffer;
  b->adjoint = adjoint;
  int rc = MPI_Isend(buffer, count, type, dest, tag, comm, &b->request);
  pthread_mutex_unlock(&lock);
  return rc;
}

int adcc_mpi_bsend_fwd(const void *buf, const void *dbuf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Bsend", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Bsend(buf, count, type, dest, tag, comm);
  return adcc_mpi_isend_kept(adcc_mpi_pack(kind, buf, dbuf, count), 2 * count,
                             type, dest, tag, comm, 0);
}

int adcc_mpi_bsend_aug(const void *buf, int count, MPI_Datatype type,
                       int dest, int tag, MPI_Comm comm) {
  adcc_mpi_kind_of(type, "MPI_Bsend", comm);
  return MPI_Bsend(buf, count, type, dest, tag, comm);
}

void adcc_mpi_bsend_rev(void *dbuf, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm) {
  adcc_mpi_send_rev_as("MPI_Bsend", dbuf, count, type, dest, tag, comm);
}

/* Every rank's reverse sweep receives the adjoint messages it is sent
 * before its derivative returns (the reverse of the send), so each kept
 * adjoint message completes: the derivative waits for them as it returns,
 * so that no request it started is left when the program goes on (to
 * MPI_Finalize). (Forward mode's buffered sends complete as the program's
 * do: their receive may come in a later call.) */
void adcc_mpi_drain(void) {
  pthread_mutex_lock(&lock);
  reap(WAIT_ADJOINTS);
  pthread_mutex_unlock(&lock);
}

/* How many kept adjoint messages the runtime holds, not yet found
 * complete (for tests: none once a reverse sweep returned). */
int adcc_mpi_kept_sends(void) {
  pthread_mutex_lock(&lock);
  int n = 0;
  for (size_t i = 0; i < buffered_count; ++i)
    n += buffered[i].adjoint;
  pthread_mutex_unlock(&lock);
  return n;
}

int adcc_mpi_buffer_detach(void *buffer, int *size) {
  pthread_mutex_lock(&lock);
  reap(WAIT_ALL);
  pthread_mutex_unlock(&lock);
  return MPI_Buffer_detach(buffer, size);
}

void adcc_mpi_buffer_detach_rev(void) {}

int adcc_mpi_issend_fwd(const void *buf, const void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request) {
  return adcc_mpi_isend_fwd_as(MPI_Issend, "MPI_Issend", buf, dbuf, count,
                               type, dest, tag, comm, request);
}

int adcc_mpi_issend_aug(const void *buf, void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request, void **tape) {
  return adcc_mpi_isend_aug_as(MPI_Issend, "MPI_Issend", buf, dbuf, count,
                               type, dest, tag, comm, request, tape);
}

/* MPI_Ibsend: forward mode sends the packed message as MPI_Bsend does (a
 * kept copy) and gives the program a request that is already complete, as
 * a buffered send's may be; the augmented sweep sends in the program's
 * mode, its reverse is MPI_Isend's. */
static int query_done(void *state, MPI_Status *status) {
  (void)state;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int free_done(void *state) {
  (void)state;
  return MPI_SUCCESS;
}
static int cancel_done(void *state, int complete) {
  (void)state;
  (void)complete;
  return MPI_SUCCESS;
}

int adcc_mpi_ibsend_fwd(const void *buf, const void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Ibsend", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return MPI_Ibsend(buf, count, type, dest, tag, comm, request);
  int rc = adcc_mpi_isend_kept(adcc_mpi_pack(kind, buf, dbuf, count),
                               2 * count, type, dest, tag, comm, 0);
  MPI_Grequest_start(query_done, free_done, cancel_done, NULL, request);
  MPI_Grequest_complete(*request);
  return rc;
}

int adcc_mpi_ibsend_aug(const void *buf, void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request, void **tape) {
  return adcc_mpi_isend_aug_as(MPI_Ibsend, "MPI_Ibsend", buf, dbuf, count,
                               type, dest, tag, comm, request, tape);
}

int adcc_mpi_irsend_fwd(const void *buf, const void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request) {
  return adcc_mpi_isend_fwd_as(MPI_Isend, "MPI_Irsend", buf, dbuf, count,
                               type, dest, tag, comm, request);
}

int adcc_mpi_irsend_aug(const void *buf, void *dbuf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request, void **tape) {
  return adcc_mpi_isend_aug_as(MPI_Irsend, "MPI_Irsend", buf, dbuf, count,
                               type, dest, tag, comm, request, tape);
}
