/*===- probes.c - MPI_Probe, MPI_Iprobe and the counts of their statuses -===*
 *
 * A probe carries no derivative, but in forward mode a message of doubles
 * or floats travels with its tangents, [values | tangents], twice the
 * primal's elements (forward.c): the status a probe gives counts those. The
 * program asks the count of that status with the datatype of the message
 * (MPI_Get_count, MPI_Get_elements), which tells whether the message
 * carries tangents; so forward mode notes the statuses its probes filled,
 * and a count of one of them, still holding what the probe gave, by
 * MPI_DOUBLE or MPI_FLOAT counts half the elements: the primal's. The
 * receive that follows then receives the packed message as any other.
 * Reverse mode's messages are the primal's: the calls run as they are.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <pthread.h>

/* The statuses the last probes filled, with the bytes they counted (a
 * ring: a program asks the count soon after its probe). */
enum { PROBED = 32 };
static struct probed {
  MPI_Status *status;
  MPI_Count bytes;
} probed[PROBED];
static unsigned next_probed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static MPI_Count bytes_of(MPI_Status *status) {
  MPI_Count bytes = 0;
  MPI_Get_elements_x(status, MPI_BYTE, &bytes);
  return bytes;
}

static void note(MPI_Status *status) {
  if (status == MPI_STATUS_IGNORE)
    return;
  MPI_Count bytes = bytes_of(status);
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < PROBED; ++i)
    if (probed[i].status == status) {
      probed[i].bytes = bytes;
      pthread_mutex_unlock(&lock);
      return;
    }
  probed[next_probed].status = status;
  probed[next_probed].bytes = bytes;
  next_probed = (next_probed + 1) % PROBED;
  pthread_mutex_unlock(&lock);
}

void adcc_mpi_note_probed(MPI_Status *status) { note(status); }

int adcc_mpi_probe_fwd(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  int rc = MPI_Probe(source, tag, comm, status);
  note(status);
  return rc;
}

int adcc_mpi_iprobe_fwd(int source, int tag, MPI_Comm comm, int *flag,
                        MPI_Status *status) {
  int rc = MPI_Iprobe(source, tag, comm, flag, status);
  if (*flag)
    note(status);
  return rc;
}

/* Whether \p status holds what a probe of forward mode gave it. */
static int probed_packed(MPI_Status *status) {
  if (status == MPI_STATUS_IGNORE)
    return 0;
  MPI_Count bytes = bytes_of(status);
  int found = 0;
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < PROBED; ++i)
    if (probed[i].status == status && probed[i].bytes == bytes)
      found = 1;
  pthread_mutex_unlock(&lock);
  return found;
}

/* MPI_Get_count and MPI_Get_elements of a probed status: the packed
 * message's elements, halved for a datatype that carries tangents. */
static int count_fwd(int elements, const MPI_Status *status, MPI_Datatype type,
                     int *count) {
  MPI_Status *st = (MPI_Status *)status;
  int rc = elements ? MPI_Get_elements(st, type, count)
                    : MPI_Get_count(st, type, count);
  if (*count != MPI_UNDEFINED && (type == MPI_DOUBLE || type == MPI_FLOAT) &&
      probed_packed(st))
    *count /= 2;
  return rc;
}

int adcc_mpi_get_count_fwd(const MPI_Status *status, MPI_Datatype type,
                           int *count) {
  return count_fwd(0, status, type, count);
}

int adcc_mpi_get_elements_fwd(const MPI_Status *status, MPI_Datatype type,
                              int *count) {
  return count_fwd(1, status, type, count);
}

/* The reverse of a call that needs none (a probe, a count). */
void adcc_mpi_inactive_rev(void) {}
