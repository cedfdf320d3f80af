/*===- completions.c - MPI_Test, MPI_Waitany and MPI_Waitsome ------------===*
 *
 * The calls that complete some of a program's requests, in both modes, as
 * MPI_Wait and MPI_Waitall do (forward.c, reverse.c): forward mode splits
 * what a completed receive's packed message brought into the buffer and
 * its tangents; reverse mode notes each completed request on the tape,
 * and the reverse of the call posts their adjoint messages (in the reverse
 * of the order the program started the requests: requests.c). A call that
 * completes nothing (MPI_Test with its flag false, MPI_Waitany finding only
 * null requests) records nothing and has no reverse.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>

/* The statuses of \p n requests: the program's, or an array of ours where
 * it passed MPI_STATUSES_IGNORE (freed with release). */
static MPI_Status *statuses_of(MPI_Status *statuses, int n, const char *call) {
  if (statuses != MPI_STATUSES_IGNORE)
    return statuses;
  MPI_Status *own = calloc((size_t)(n > 0 ? n : 1), sizeof(MPI_Status));
  if (!own)
    adcc_mpi_fail(MPI_COMM_WORLD, call, "out of memory");
  return own;
}

static void release(MPI_Status *sts, MPI_Status *statuses) {
  if (sts != statuses)
    free(sts);
}

/*--- forward mode --------------------------------------------------------*/

int adcc_mpi_test_fwd(MPI_Request *request, int *flag, MPI_Status *status) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Test(request, flag, st);
  struct adcc_mpi_pending *p = *flag ? adcc_mpi_take(request) : NULL;
  if (p)
    adcc_mpi_finish(p, st);
  return rc;
}

int adcc_mpi_waitany_fwd(int n, MPI_Request *requests, int *index,
                         MPI_Status *status) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Waitany(n, requests, index, st);
  struct adcc_mpi_pending *p =
      *index == MPI_UNDEFINED ? NULL : adcc_mpi_take(&requests[*index]);
  if (p)
    adcc_mpi_finish(p, st);
  return rc;
}

int adcc_mpi_waitsome_fwd(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses) {
  MPI_Status *sts = statuses_of(statuses, n, "MPI_Waitsome");
  int rc = MPI_Waitsome(n, requests, done, indices, sts);
  for (int i = 0; *done != MPI_UNDEFINED && i < *done; ++i) {
    struct adcc_mpi_pending *p = adcc_mpi_take(&requests[indices[i]]);
    if (p)
      adcc_mpi_finish(p, &sts[i]);
  }
  release(sts, statuses);
  return rc;
}

/*--- reverse mode --------------------------------------------------------*/

int adcc_mpi_test_aug(MPI_Request *request, int *flag, MPI_Status *status,
                      void **tape) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Test(request, flag, st);
  struct adcc_mpi_pending *p = *flag ? adcc_mpi_take(request) : NULL;
  adcc_mpi_received(p, st);
  *tape = p;
  return rc;
}

int adcc_mpi_waitany_aug(int n, MPI_Request *requests, int *index,
                         MPI_Status *status, void **tape) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Waitany(n, requests, index, st);
  struct adcc_mpi_pending *p =
      *index == MPI_UNDEFINED ? NULL : adcc_mpi_take(&requests[*index]);
  adcc_mpi_received(p, st);
  *tape = p;
  return rc;
}

/* (The reverse of MPI_Test and MPI_Waitany: that of MPI_Wait.) */
void adcc_mpi_completed_rev(void *tape) {
  if (tape)
    adcc_mpi_ready(tape, adcc_mpi_post);
}

int adcc_mpi_waitsome_aug(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses, void **tape) {
  MPI_Status *sts = statuses_of(statuses, n, "MPI_Waitsome");
  int rc = MPI_Waitsome(n, requests, done, indices, sts);
  int got = *done == MPI_UNDEFINED ? 0 : *done;
  struct adcc_mpi_waited *w = adcc_mpi_waited_new(got, "MPI_Waitsome");
  for (int i = 0; i < got; ++i) {
    w->p[i] = adcc_mpi_take(&requests[indices[i]]);
    adcc_mpi_received(w->p[i], &sts[i]);
  }
  release(sts, statuses);
  *tape = w;
  return rc;
}
