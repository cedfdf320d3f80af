/*===- alltoallv.c - MPI_Alltoallv of differentiated code -----------------===*
 *
 * Forward mode runs the all-to-all a second time on the tangents, with the
 * program's counts and displacements. Reverse mode runs the adjoint
 * all-to-all: the adjoint of the block rank r received from rank j goes
 * back to rank j, into the block it sent to r. Send blocks may overlap (one
 * element sent to several ranks): the adjoints arrive in blocks laid end
 * to end and are added in at the program's displacements. The counts and
 * displacements are the augmented call's tape record (the program's arrays
 * may be gone in the reverse sweep). MPI_IN_PLACE works: the adjoints of
 * the received blocks go back and replace them.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

static const char Call[] = "MPI_Alltoallv";

static void *element(enum adcc_mpi_kind kind, const void *buf, size_t at) {
  return buf ? (char *)buf + adcc_mpi_size_of(kind) * at : NULL;
}

/* The elements the blocks reach: max over r of displs[r] + counts[r]. */
static size_t extent(const int *counts, const int *displs, int ranks) {
  size_t end = 0;
  for (int r = 0; r < ranks; ++r)
    if (counts[r] > 0 && (size_t)displs[r] + (size_t)counts[r] > end)
      end = (size_t)displs[r] + (size_t)counts[r];
  return end;
}

static enum adcc_mpi_kind kind_of(const void *send, MPI_Datatype stype,
                                  MPI_Datatype rtype, MPI_Comm comm) {
  return adcc_mpi_kind_of(send == MPI_IN_PLACE ? rtype : stype, Call, comm);
}

/* An all-to-all in place of the blocks of \p buf (n elements). */
static void in_place(enum adcc_mpi_kind kind, void *buf, size_t n,
                     const int *counts, const int *displs, MPI_Datatype type,
                     MPI_Comm comm) {
  void *t = adcc_mpi_temp(kind, buf, n);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, type, t, counts, displs, type, comm);
  adcc_mpi_copy(kind, buf, t, n);
  free(t);
}

int adcc_mpi_alltoallv_fwd(const void *send, const void *dsend,
                           const int *scounts, const int *sdispls,
                           MPI_Datatype stype, void *recv, void *drecv,
                           const int *rcounts, const int *rdispls,
                           MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = kind_of(send, stype, rtype, comm);
  int rc = MPI_Alltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls,
                         rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int ranks = adcc_mpi_size(comm);
  size_t rn = extent(rcounts, rdispls, ranks);
  if (send == MPI_IN_PLACE) {
    in_place(kind, drecv, rn, rcounts, rdispls, rtype, comm);
    return rc;
  }
  void *t = adcc_mpi_temp(kind, dsend, extent(scounts, sdispls, ranks));
  void *out = adcc_mpi_temp(kind, drecv, rn);
  MPI_Alltoallv(t, scounts, sdispls, stype, out, rcounts, rdispls, rtype, comm);
  adcc_mpi_copy(kind, drecv, out, rn);
  free(t);
  free(out);
  return rc;
}

int *adcc_mpi_alltoallv_keep(const void *send, const int *scounts,
                             const int *sdispls, const int *rcounts,
                             const int *rdispls, MPI_Comm comm) {
  /* [scounts | sdispls | rcounts | rdispls] (the send side's zeros in
   * place) */
  int ranks = adcc_mpi_size(comm);
  int *kept = calloc(4 * (size_t)(ranks ? ranks : 1), sizeof(int));
  if (!kept)
    adcc_mpi_fail(comm, Call, "out of memory");
  for (int r = 0; r < ranks; ++r) {
    if (send != MPI_IN_PLACE) {
      kept[r] = scounts[r];
      kept[ranks + r] = sdispls[r];
    }
    kept[2 * ranks + r] = rcounts[r];
    kept[3 * ranks + r] = rdispls[r];
  }
  return kept;
}

int adcc_mpi_alltoallv_aug(const void *send, const int *scounts,
                           const int *sdispls, MPI_Datatype stype, void *recv,
                           const int *rcounts, const int *rdispls,
                           MPI_Datatype rtype, MPI_Comm comm, void **tape) {
  *tape = NULL;
  if (kind_of(send, stype, rtype, comm) != ADCC_MPI_INACTIVE)
    *tape =
        adcc_mpi_alltoallv_keep(send, scounts, sdispls, rcounts, rdispls, comm);
  return MPI_Alltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls,
                       rtype, comm);
}

void adcc_mpi_alltoallv_rev(const void *send, void *dsend, MPI_Datatype stype,
                            void *drecv, MPI_Datatype rtype, MPI_Comm comm,
                            void *tape) {
  if (!tape)
    return;
  enum adcc_mpi_kind kind = kind_of(send, stype, rtype, comm);
  int ranks = adcc_mpi_size(comm);
  const int *kept = tape;
  const int *scounts = kept, *sdispls = kept + ranks,
            *rcounts = kept + 2 * ranks, *rdispls = kept + 3 * ranks;
  size_t rn = extent(rcounts, rdispls, ranks);
  if (send == MPI_IN_PLACE) {
    in_place(kind, drecv, rn, rcounts, rdispls, rtype, comm);
    free(tape);
    return;
  }
  /* The adjoints of the sent blocks, end to end. */
  int *packed = malloc(sizeof(int) * (size_t)(ranks ? ranks : 1));
  if (!packed)
    adcc_mpi_fail(comm, Call, "out of memory");
  size_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    packed[r] = (int)total;
    total += (size_t)scounts[r];
  }
  void *in = adcc_mpi_temp(kind, drecv, rn);
  void *back = adcc_mpi_temp(kind, NULL, total);
  MPI_Alltoallv(in, rcounts, rdispls, rtype, back, scounts, packed, stype,
                comm);
  for (int r = 0; r < ranks; ++r) {
    adcc_mpi_add(kind, element(kind, dsend, (size_t)sdispls[r]),
                 element(kind, back, (size_t)packed[r]), (size_t)scounts[r]);
    adcc_mpi_zero(kind, element(kind, drecv, (size_t)rdispls[r]),
                  (size_t)rcounts[r]);
  }
  free(in);
  free(back);
  free(packed);
  free(tape);
}
