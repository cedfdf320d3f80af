/*===- completions.c - MPI_Test*, MPI_Waitany and MPI_Waitsome -----------===*
 *
 * The calls that complete some of a program's requests, in both modes, as
 * MPI_Wait and MPI_Waitall do (forward.c, reverse.c): forward mode splits
 * what a completed receive's packed message brought into the buffer and
 * its tangents; reverse mode notes each completed request on the tape,
 * and the reverse of the call posts their adjoint messages (in the reverse
 * of the order the program started the requests: requests.c). A call that
 * completes nothing (a test with its flag false, MPI_Waitany finding only
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

/* The record of requests[index] when a call completed it (\p completed,
 * and index not MPI_UNDEFINED), removed from the table. */
static struct adcc_mpi_pending *taken_at(MPI_Request *requests, int index,
                                         int completed) {
  return completed && index != MPI_UNDEFINED ? adcc_mpi_take(&requests[index])
                                             : NULL;
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
  struct adcc_mpi_pending *p = taken_at(requests, *index, 1);
  if (p)
    adcc_mpi_finish(p, st);
  return rc;
}

typedef int some_call(int, MPI_Request *, int *, int *, MPI_Status *);

static int some_fwd(some_call *call, const char *name, int n,
                    MPI_Request *requests, int *done, int *indices,
                    MPI_Status *statuses) {
  MPI_Status *sts = statuses_of(statuses, n, name);
  int rc = call(n, requests, done, indices, sts);
  for (int i = 0; *done != MPI_UNDEFINED && i < *done; ++i) {
    struct adcc_mpi_pending *p = adcc_mpi_take(&requests[indices[i]]);
    if (p)
      adcc_mpi_finish(p, &sts[i]);
  }
  release(sts, statuses);
  return rc;
}

int adcc_mpi_waitsome_fwd(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses) {
  return some_fwd(MPI_Waitsome, "MPI_Waitsome", n, requests, done, indices,
                  statuses);
}

int adcc_mpi_testsome_fwd(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses) {
  return some_fwd(MPI_Testsome, "MPI_Testsome", n, requests, done, indices,
                  statuses);
}

int adcc_mpi_testany_fwd(int n, MPI_Request *requests, int *index, int *flag,
                         MPI_Status *status) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Testany(n, requests, index, flag, st);
  struct adcc_mpi_pending *p = taken_at(requests, *index, *flag);
  if (p)
    adcc_mpi_finish(p, st);
  return rc;
}

int adcc_mpi_testall_fwd(int n, MPI_Request *requests, int *flag,
                         MPI_Status *statuses) {
  MPI_Status *sts = statuses_of(statuses, n, "MPI_Testall");
  int rc = MPI_Testall(n, requests, flag, sts);
  for (int i = 0; *flag && i < n; ++i) {
    struct adcc_mpi_pending *p = adcc_mpi_take(&requests[i]);
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
  struct adcc_mpi_pending *p = taken_at(requests, *index, 1);
  adcc_mpi_received(p, st);
  *tape = p;
  return rc;
}

/* (The reverse of MPI_Test and MPI_Waitany: that of MPI_Wait.) */
void adcc_mpi_completed_rev(void *tape) {
  if (tape)
    adcc_mpi_ready(tape, adcc_mpi_post);
}

static int some_aug(some_call *call, const char *name, int n,
                    MPI_Request *requests, int *done, int *indices,
                    MPI_Status *statuses, void **tape) {
  MPI_Status *sts = statuses_of(statuses, n, name);
  int rc = call(n, requests, done, indices, sts);
  int got = *done == MPI_UNDEFINED ? 0 : *done;
  struct adcc_mpi_waited *w = adcc_mpi_waited_new(got, name);
  for (int i = 0; i < got; ++i) {
    w->p[i] = adcc_mpi_take(&requests[indices[i]]);
    adcc_mpi_received(w->p[i], &sts[i]);
  }
  release(sts, statuses);
  *tape = w;
  return rc;
}

int adcc_mpi_waitsome_aug(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses, void **tape) {
  return some_aug(MPI_Waitsome, "MPI_Waitsome", n, requests, done, indices,
                  statuses, tape);
}

int adcc_mpi_testsome_aug(int n, MPI_Request *requests, int *done,
                          int *indices, MPI_Status *statuses, void **tape) {
  return some_aug(MPI_Testsome, "MPI_Testsome", n, requests, done, indices,
                  statuses, tape);
}

int adcc_mpi_testany_aug(int n, MPI_Request *requests, int *index, int *flag,
                         MPI_Status *status, void **tape) {
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Testany(n, requests, index, flag, st);
  struct adcc_mpi_pending *p = taken_at(requests, *index, *flag);
  adcc_mpi_received(p, st);
  *tape = p;
  return rc;
}

/* (Completes all or none: the tape holds all, or none.) */
int adcc_mpi_testall_aug(int n, MPI_Request *requests, int *flag,
                         MPI_Status *statuses, void **tape) {
  MPI_Status *sts = statuses_of(statuses, n, "MPI_Testall");
  int rc = MPI_Testall(n, requests, flag, sts);
  struct adcc_mpi_waited *w =
      adcc_mpi_waited_new(*flag ? n : 0, "MPI_Testall");
  for (int i = 0; i < w->n; ++i) {
    w->p[i] = adcc_mpi_take(&requests[i]);
    adcc_mpi_received(w->p[i], &sts[i]);
  }
  release(sts, statuses);
  *tape = w;
  return rc;
}
