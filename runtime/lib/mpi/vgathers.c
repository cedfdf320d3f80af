/*===- vgathers.c - Gathers and scatters of blocks of several sizes -------===*
 *
 * The gathers and scatters of blocks of several sizes, at given
 * displacements. As for their one-size forms (gathers.c), forward mode runs
 * the call a second time on the tangents and reverse mode runs the adjoint
 * collective in the reverse sweep:
 *   gatherv    <-> scatterv of the gathered blocks' adjoints from the root
 *   scatterv   <-> gatherv of the scattered adjoints to the root
 *   allgatherv <-> reduce_scatter(sum) of the gathered blocks' adjoints
 * Only the blocks a call writes have their adjoints zeroed once sent back:
 * elements between or after the blocks keep their values, and so their
 * tangents and adjoints. MPI_IN_PLACE works as in gathers.c (the block that
 * is both input and output keeps its tangent and its adjoint). The counts
 * and displacements are the augmented call's tape record: the program's
 * arrays may be gone (or changed) when the reverse sweep runs.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

size_t adcc_mpi_extent(const int *counts, const int *displs, int p) {
  size_t n = 0;
  for (int r = 0; r < p; ++r)
    if (counts[r] > 0 && (size_t)displs[r] + (size_t)counts[r] > n)
      n = (size_t)displs[r] + (size_t)counts[r];
  return n;
}

static void *element(enum adcc_mpi_kind kind, void *buf, size_t at) {
  return buf ? (char *)buf + adcc_mpi_size_of(kind) * at : NULL;
}

/* Zeroes the blocks of buf, except block \p keep (-1: none). */
static void zero_blocks(enum adcc_mpi_kind kind, void *buf, const int *counts,
                        const int *displs, int p, int keep) {
  for (int r = 0; buf && r < p; ++r)
    if (r != keep)
      adcc_mpi_zero(kind, element(kind, buf, (size_t)displs[r]),
                    (size_t)counts[r]);
}

int *adcc_mpi_keep_counts(const int *counts, const int *displs, int p,
                          MPI_Comm comm) {
  if (!counts)
    return NULL;
  int *k = malloc(sizeof(int) * 2 * (size_t)(p ? p : 1));
  if (!k)
    adcc_mpi_fail(comm, "MPI_Gatherv/MPI_Scatterv/MPI_Allgatherv",
                  "out of memory");
  for (int r = 0; r < p; ++r) {
    k[r] = counts[r];
    k[p + r] = displs[r];
  }
  return k;
}

/*--- gatherv -------------------------------------------------------------*/

struct rooted {
  int is_root, in_place, p;
  enum adcc_mpi_kind kind;
};

static struct rooted rooted_form(const void *inplace_side, MPI_Datatype in_type,
                                 MPI_Datatype other, int root, MPI_Comm comm,
                                 const char *call) {
  struct rooted f;
  f.is_root = adcc_mpi_rank(comm) == root;
  f.in_place = f.is_root && inplace_side == MPI_IN_PLACE;
  f.p = adcc_mpi_size(comm);
  f.kind = adcc_mpi_kind_of(f.in_place ? in_type : other, call, comm);
  return f;
}

int adcc_mpi_gatherv_fwd(const void *send, const void *dsend, int scount,
                         MPI_Datatype stype, void *recv, void *drecv,
                         const int *rcounts, const int *displs,
                         MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct rooted f = rooted_form(send, rtype, stype, root, comm, "MPI_Gatherv");
  int rc = MPI_Gatherv(send, scount, stype, recv, rcounts, displs, rtype, root,
                       comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return rc;
  size_t n = f.is_root ? adcc_mpi_extent(rcounts, displs, f.p) : 0;
  void *out = f.is_root ? adcc_mpi_temp(f.kind, drecv, n) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, dsend, (size_t)scount);
  MPI_Gatherv(f.in_place ? MPI_IN_PLACE : t, scount, stype, out, rcounts,
              displs, rtype, root, comm);
  if (f.is_root)
    adcc_mpi_copy(f.kind, drecv, out, n);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_gatherv_aug(const void *send, int scount, MPI_Datatype stype,
                         void *recv, const int *rcounts, const int *displs,
                         MPI_Datatype rtype, int root, MPI_Comm comm,
                         void **tape) {
  struct rooted f = rooted_form(send, rtype, stype, root, comm, "MPI_Gatherv");
  *tape = f.kind != ADCC_MPI_INACTIVE && f.is_root
              ? adcc_mpi_keep_counts(rcounts, displs, f.p, comm)
              : NULL;
  return MPI_Gatherv(send, scount, stype, recv, rcounts, displs, rtype, root,
                     comm);
}

void adcc_mpi_gatherv_rev(const void *send, void *dsend, int scount,
                          MPI_Datatype stype, void *drecv, MPI_Datatype rtype,
                          int root, MPI_Comm comm, void *tape) {
  struct rooted f = rooted_form(send, rtype, stype, root, comm, "MPI_Gatherv");
  if (f.kind == ADCC_MPI_INACTIVE)
    return;
  int *rcounts = tape, *displs = rcounts ? rcounts + f.p : NULL;
  size_t n = f.is_root ? adcc_mpi_extent(rcounts, displs, f.p) : 0;
  void *in = f.is_root ? adcc_mpi_temp(f.kind, drecv, n) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, NULL, (size_t)scount);
  MPI_Scatterv(in, rcounts, displs, rtype, f.in_place ? MPI_IN_PLACE : t,
               scount, stype, root, comm);
  adcc_mpi_add(f.kind, dsend, t, t ? (size_t)scount : 0);
  if (f.is_root)
    zero_blocks(f.kind, drecv, rcounts, displs, f.p, f.in_place ? root : -1);
  free(t);
  free(in);
  free(tape);
}

/*--- scatterv ------------------------------------------------------------*/

int adcc_mpi_scatterv_fwd(const void *send, const void *dsend,
                          const int *scounts, const int *displs,
                          MPI_Datatype stype, void *recv, void *drecv,
                          int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm) {
  struct rooted f = rooted_form(recv, stype, rtype, root, comm, "MPI_Scatterv");
  int rc = MPI_Scatterv(send, scounts, displs, stype, recv, rcount, rtype, root,
                        comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return rc;
  size_t n = f.is_root ? adcc_mpi_extent(scounts, displs, f.p) : 0;
  void *in = f.is_root ? adcc_mpi_temp(f.kind, dsend, n) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, NULL, (size_t)rcount);
  MPI_Scatterv(in, scounts, displs, stype, f.in_place ? MPI_IN_PLACE : t,
               rcount, rtype, root, comm);
  if (!f.in_place)
    adcc_mpi_copy(f.kind, drecv, t, (size_t)rcount);
  free(in);
  free(t);
  return rc;
}

int adcc_mpi_scatterv_aug(const void *send, const int *scounts,
                          const int *displs, MPI_Datatype stype, void *recv,
                          int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm, void **tape) {
  struct rooted f = rooted_form(recv, stype, rtype, root, comm, "MPI_Scatterv");
  *tape = f.kind != ADCC_MPI_INACTIVE && f.is_root
              ? adcc_mpi_keep_counts(scounts, displs, f.p, comm)
              : NULL;
  return MPI_Scatterv(send, scounts, displs, stype, recv, rcount, rtype, root,
                      comm);
}

void adcc_mpi_scatterv_rev(void *dsend, MPI_Datatype stype, const void *recv,
                           void *drecv, int rcount, MPI_Datatype rtype,
                           int root, MPI_Comm comm, void *tape) {
  struct rooted f = rooted_form(recv, stype, rtype, root, comm, "MPI_Scatterv");
  if (f.kind == ADCC_MPI_INACTIVE)
    return;
  int *scounts = tape, *displs = scounts ? scounts + f.p : NULL;
  size_t n = f.is_root ? adcc_mpi_extent(scounts, displs, f.p) : 0;
  /* (In place, the root's block of out stays zero: its adjoint stays.) */
  void *out = f.is_root ? adcc_mpi_temp(f.kind, NULL, n) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, drecv, (size_t)rcount);
  MPI_Gatherv(f.in_place ? MPI_IN_PLACE : t, rcount, rtype, out, scounts,
              displs, stype, root, comm);
  if (f.is_root)
    adcc_mpi_add(f.kind, dsend, out, n);
  if (!f.in_place)
    adcc_mpi_zero(f.kind, drecv, (size_t)rcount);
  free(t);
  free(out);
  free(tape);
}

/*--- allgatherv ----------------------------------------------------------*/

static enum adcc_mpi_kind allgatherv_kind(const void *send, MPI_Datatype stype,
                                          MPI_Datatype rtype, MPI_Comm comm) {
  return adcc_mpi_kind_of(send == MPI_IN_PLACE ? rtype : stype,
                          "MPI_Allgatherv", comm);
}

int adcc_mpi_allgatherv_fwd(const void *send, const void *dsend, int scount,
                            MPI_Datatype stype, void *recv, void *drecv,
                            const int *rcounts, const int *displs,
                            MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = allgatherv_kind(send, stype, rtype, comm);
  int rc =
      MPI_Allgatherv(send, scount, stype, recv, rcounts, displs, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int in_place = send == MPI_IN_PLACE;
  size_t n = adcc_mpi_extent(rcounts, displs, adcc_mpi_size(comm));
  void *t = in_place ? NULL : adcc_mpi_temp(kind, dsend, (size_t)scount);
  void *out = adcc_mpi_temp(kind, drecv, n);
  MPI_Allgatherv(in_place ? MPI_IN_PLACE : t, scount, stype, out, rcounts,
                 displs, rtype, comm);
  adcc_mpi_copy(kind, drecv, out, n);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_allgatherv_aug(const void *send, int scount, MPI_Datatype stype,
                            void *recv, const int *rcounts, const int *displs,
                            MPI_Datatype rtype, MPI_Comm comm, void **tape) {
  enum adcc_mpi_kind kind = allgatherv_kind(send, stype, rtype, comm);
  *tape = kind != ADCC_MPI_INACTIVE
              ? adcc_mpi_keep_counts(rcounts, displs, adcc_mpi_size(comm), comm)
              : NULL;
  return MPI_Allgatherv(send, scount, stype, recv, rcounts, displs, rtype,
                        comm);
}

void adcc_mpi_allgatherv_rev(const void *send, void *dsend, int scount,
                             MPI_Datatype stype, void *drecv,
                             MPI_Datatype rtype, MPI_Comm comm, void *tape) {
  enum adcc_mpi_kind kind = allgatherv_kind(send, stype, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int p = adcc_mpi_size(comm), rank = adcc_mpi_rank(comm);
  const int *rcounts = tape, *displs = rcounts + p;
  size_t total = 0;
  for (int r = 0; r < p; ++r)
    total += (size_t)rcounts[r];
  /* The blocks' adjoints, laid end to end in rank order. */
  void *in = adcc_mpi_temp(kind, NULL, total);
  size_t at = 0;
  for (int r = 0; r < p; ++r) {
    adcc_mpi_copy(kind, element(kind, in, at),
                  element(kind, drecv, (size_t)displs[r]), (size_t)rcounts[r]);
    at += (size_t)rcounts[r];
  }
  size_t mine = (size_t)rcounts[rank];
  void *t = adcc_mpi_temp(kind, NULL, mine);
  MPI_Reduce_scatter(in, t, rcounts, rtype, MPI_SUM, comm);
  zero_blocks(kind, drecv, rcounts, displs, p, -1);
  if (send == MPI_IN_PLACE)
    adcc_mpi_copy(kind, element(kind, drecv, (size_t)displs[rank]), t, mine);
  else
    adcc_mpi_add(kind, dsend, t, (size_t)scount);
  free(in);
  free(t);
  free(tape);
}
