/*===- comms.c - Communicators made and freed in differentiated code ----===*
 *
 * In reverse mode the adjoint messages of a communicator's messages go in
 * the reverse sweep, after the program freed it: MPI_Comm_free in the
 * augmented sweep only sets the program's handle to MPI_COMM_NULL, and the
 * communicator is freed at the reverse of the MPI_Comm_dup or
 * MPI_Comm_split that made it, when both ran in the differentiated code
 * (one made elsewhere stays: it cannot be freed before the reverse sweep
 * ends). In forward mode the calls run as in the primal.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <pthread.h>
#include <stdlib.h>

/* A communicator made in the augmented sweep. */
struct made {
  MPI_Comm comm;
  int freed; /* the program freed it */
  struct made *next;
};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct made *made_list;

static void *made(MPI_Comm comm, const char *call) {
  struct made *m = calloc(1, sizeof(*m));
  if (!m)
    adcc_mpi_fail(comm, call, "out of memory");
  m->comm = comm;
  pthread_mutex_lock(&lock);
  m->next = made_list;
  made_list = m;
  pthread_mutex_unlock(&lock);
  return m;
}

int adcc_mpi_comm_dup_aug(MPI_Comm comm, MPI_Comm *newcomm, void **tape) {
  int rc = MPI_Comm_dup(comm, newcomm);
  *tape = made(*newcomm, "MPI_Comm_dup");
  return rc;
}

int adcc_mpi_comm_split_aug(MPI_Comm comm, int color, int key,
                            MPI_Comm *newcomm, void **tape) {
  int rc = MPI_Comm_split(comm, color, key, newcomm);
  *tape = *newcomm == MPI_COMM_NULL ? NULL : made(*newcomm, "MPI_Comm_split");
  return rc;
}

/* The reverse of the call that made the communicator: frees it if the
 * program did. */
void adcc_mpi_comm_made_rev(void *tape) {
  struct made *m = tape;
  if (!m)
    return;
  pthread_mutex_lock(&lock);
  for (struct made **p = &made_list; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  pthread_mutex_unlock(&lock);
  if (m->freed)
    MPI_Comm_free(&m->comm);
  free(m);
}

int adcc_mpi_comm_free_aug(MPI_Comm *comm) {
  pthread_mutex_lock(&lock);
  for (struct made *m = made_list; m; m = m->next)
    if (m->comm == *comm && !m->freed) {
      m->freed = 1;
      break;
    }
  pthread_mutex_unlock(&lock);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

void adcc_mpi_comm_free_rev(void) {}
