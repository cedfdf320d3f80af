/*===- requests.c - Pending non-blocking messages of differentiated code -===*
 *
 * MPI_Isend and MPI_Irecv in differentiated code leave a record keyed by
 * the address of the program's request variable; MPI_Wait and MPI_Waitall
 * find it there. Forward mode keeps the packed {values, tangents} buffer
 * until the wait; reverse mode hands the record to the tape, where the
 * reverse of the wait posts the adjoint message (in the reverse of the
 * order the requests were started) and the reverse of the Isend or Irecv
 * completes it.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct adcc_mpi_pending **pending;
static size_t count, capacity;
static unsigned long next_sequence;
/* Reverse-mode records whose adjoint message is not posted, in the order
 * they were started. */
static struct adcc_mpi_pending **unposted;
static size_t unposted_count, unposted_capacity;

static void push(struct adcc_mpi_pending ***list, size_t *n, size_t *cap,
                 struct adcc_mpi_pending *p) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    *list = realloc(*list, *cap * sizeof(**list));
    if (!*list)
      adcc_mpi_fail(MPI_COMM_WORLD, "MPI_Isend/MPI_Irecv", "out of memory");
  }
  (*list)[(*n)++] = p;
}

struct adcc_mpi_pending *adcc_mpi_start(MPI_Request *request, int reverse) {
  struct adcc_mpi_pending *p = calloc(1, sizeof(*p));
  if (!p)
    adcc_mpi_fail(MPI_COMM_WORLD, "MPI_Isend/MPI_Irecv", "out of memory");
  p->request = request;
  p->reverse = MPI_REQUEST_NULL;
  pthread_mutex_lock(&lock);
  p->sequence = next_sequence++;
  push(&pending, &count, &capacity, p);
  if (reverse)
    push(&unposted, &unposted_count, &unposted_capacity, p);
  pthread_mutex_unlock(&lock);
  return p;
}

struct adcc_mpi_pending *adcc_mpi_take(MPI_Request *request) {
  struct adcc_mpi_pending *found = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = count; i-- > 0;)
    if (pending[i]->request == request) {
      found = pending[i];
      pending[i] = pending[--count];
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

void adcc_mpi_ready(struct adcc_mpi_pending *p,
                    void (*post)(struct adcc_mpi_pending *)) {
  pthread_mutex_lock(&lock);
  p->ready = 1;
  while (unposted_count && unposted[unposted_count - 1]->ready)
    post(unposted[--unposted_count]);
  pthread_mutex_unlock(&lock);
}
