/*===- gathers.c - Derivatives of MPI_Gather, MPI_Scatter, MPI_Allgather -===*
 *
 * Forward mode runs the call a second time on the tangents; reverse mode
 * runs the adjoint collective in the reverse sweep:
 *   gather    <-> scatter of the gathered adjoints from the root
 *   scatter   <-> gather of the scattered adjoints to the root
 *   allgather <-> reduce_scatter(sum) of the gathered adjoints
 * The gathered (scattered) buffer's adjoints are zeroed once sent back: it
 * was overwritten.
 *
 * MPI_IN_PLACE: a block that is both input and output (the root's block of
 * an in-place gather or scatter, each rank's own block of an in-place
 * allgather) keeps its value, so its tangent stays and its adjoint stays
 * (for allgather: the sum over the ranks of the adjoints of that block).
 * The in-place buffer's datatype then decides whether derivatives travel
 * (the other one is ignored, as MPI ignores it).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

/* Zeroes the n elements of buf except those at [keep, keep + each). */
static void zero_except(enum adcc_mpi_kind kind, void *buf, size_t n,
                        size_t keep, size_t each) {
  if (!buf)
    return;
  size_t size = adcc_mpi_size_of(kind);
  adcc_mpi_zero(kind, buf, keep);
  adcc_mpi_zero(kind, (char *)buf + size * (keep + each), n - keep - each);
}

/* The element \p at of buf (null stays null). */
static void *element(enum adcc_mpi_kind kind, void *buf, size_t at) {
  return buf ? (char *)buf + adcc_mpi_size_of(kind) * at : NULL;
}

/*--- gather --------------------------------------------------------------*/

/* Whether this rank is the root, whether the call is in place there, and
 * the kind of the buffers whose derivatives travel. */
struct rooted {
  int is_root, in_place;
  enum adcc_mpi_kind kind;
};

static struct rooted gather_form(const void *send, MPI_Datatype stype,
                                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct rooted f;
  f.is_root = adcc_mpi_rank(comm) == root;
  f.in_place = f.is_root && send == MPI_IN_PLACE;
  f.kind = adcc_mpi_kind_of(f.in_place ? rtype : stype, "MPI_Gather", comm);
  return f;
}

int adcc_mpi_gather_fwd(const void *send, const void *dsend, int scount,
                        MPI_Datatype stype, void *recv, void *drecv, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct rooted f = gather_form(send, stype, rtype, root, comm);
  int rc = MPI_Gather(send, scount, stype, recv, rcount, rtype, root, comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return rc;
  size_t all = (size_t)rcount * (size_t)adcc_mpi_size(comm);
  void *out =
      f.is_root ? adcc_mpi_temp(f.kind, f.in_place ? drecv : NULL, all) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, dsend, (size_t)scount);
  MPI_Gather(f.in_place ? MPI_IN_PLACE : t, scount, stype, out, rcount, rtype,
             root, comm);
  if (f.is_root)
    adcc_mpi_copy(f.kind, drecv, out, all);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_gather_aug(const void *send, int scount, MPI_Datatype stype,
                        void *recv, int rcount, MPI_Datatype rtype, int root,
                        MPI_Comm comm) {
  gather_form(send, stype, rtype, root, comm);
  return MPI_Gather(send, scount, stype, recv, rcount, rtype, root, comm);
}

void adcc_mpi_gather_rev(const void *send, void *dsend, int scount,
                         MPI_Datatype stype, void *drecv, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct rooted f = gather_form(send, stype, rtype, root, comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return;
  size_t all = (size_t)rcount * (size_t)adcc_mpi_size(comm);
  void *in = f.is_root ? adcc_mpi_temp(f.kind, drecv, all) : NULL;
  if (f.in_place) {
    MPI_Scatter(in, rcount, rtype, MPI_IN_PLACE, rcount, rtype, root, comm);
    zero_except(f.kind, drecv, all, (size_t)root * (size_t)rcount,
                (size_t)rcount);
  } else {
    void *t = adcc_mpi_temp(f.kind, NULL, (size_t)scount);
    MPI_Scatter(in, rcount, rtype, t, scount, stype, root, comm);
    adcc_mpi_add(f.kind, dsend, t, (size_t)scount);
    if (f.is_root)
      adcc_mpi_zero(f.kind, drecv, all);
    free(t);
  }
  free(in);
}

/*--- scatter -------------------------------------------------------------*/

static struct rooted scatter_form(MPI_Datatype stype, const void *recv,
                                  MPI_Datatype rtype, int root,
                                  MPI_Comm comm) {
  struct rooted f;
  f.is_root = adcc_mpi_rank(comm) == root;
  f.in_place = f.is_root && recv == MPI_IN_PLACE;
  f.kind = adcc_mpi_kind_of(f.in_place ? stype : rtype, "MPI_Scatter", comm);
  return f;
}

int adcc_mpi_scatter_fwd(const void *send, const void *dsend, int scount,
                         MPI_Datatype stype, void *recv, void *drecv,
                         int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm) {
  struct rooted f = scatter_form(stype, recv, rtype, root, comm);
  int rc = MPI_Scatter(send, scount, stype, recv, rcount, rtype, root, comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return rc;
  size_t all = (size_t)scount * (size_t)adcc_mpi_size(comm);
  void *in = f.is_root ? adcc_mpi_temp(f.kind, dsend, all) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, NULL, (size_t)rcount);
  MPI_Scatter(in, scount, stype, f.in_place ? MPI_IN_PLACE : t, rcount, rtype,
              root, comm);
  if (!f.in_place)
    adcc_mpi_copy(f.kind, drecv, t, (size_t)rcount);
  free(in);
  free(t);
  return rc;
}

int adcc_mpi_scatter_aug(const void *send, int scount, MPI_Datatype stype,
                         void *recv, int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm) {
  scatter_form(stype, recv, rtype, root, comm);
  return MPI_Scatter(send, scount, stype, recv, rcount, rtype, root, comm);
}

void adcc_mpi_scatter_rev(void *dsend, int scount, MPI_Datatype stype,
                          const void *recv, void *drecv, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct rooted f = scatter_form(stype, recv, rtype, root, comm);
  if (f.kind == ADCC_MPI_INACTIVE)
    return;
  size_t all = (size_t)scount * (size_t)adcc_mpi_size(comm);
  /* (In place, the root's block of out stays zero: its adjoint stays.) */
  void *out = f.is_root ? adcc_mpi_temp(f.kind, NULL, all) : NULL;
  void *t = f.in_place ? NULL : adcc_mpi_temp(f.kind, drecv, (size_t)rcount);
  MPI_Gather(f.in_place ? MPI_IN_PLACE : t, rcount, rtype, out, scount, stype,
             root, comm);
  if (f.is_root)
    adcc_mpi_add(f.kind, dsend, out, all);
  if (!f.in_place)
    adcc_mpi_zero(f.kind, drecv, (size_t)rcount);
  free(t);
  free(out);
}

/*--- allgather -----------------------------------------------------------*/

static enum adcc_mpi_kind allgather_kind(const void *send, MPI_Datatype stype,
                                         MPI_Datatype rtype, MPI_Comm comm) {
  return adcc_mpi_kind_of(send == MPI_IN_PLACE ? rtype : stype,
                          "MPI_Allgather", comm);
}

int adcc_mpi_allgather_fwd(const void *send, const void *dsend, int scount,
                           MPI_Datatype stype, void *recv, void *drecv,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = allgather_kind(send, stype, rtype, comm);
  int rc = MPI_Allgather(send, scount, stype, recv, rcount, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int in_place = send == MPI_IN_PLACE;
  size_t all = (size_t)rcount * (size_t)adcc_mpi_size(comm);
  void *t = in_place ? NULL : adcc_mpi_temp(kind, dsend, (size_t)scount);
  void *out = adcc_mpi_temp(kind, in_place ? drecv : NULL, all);
  MPI_Allgather(in_place ? MPI_IN_PLACE : t, scount, stype, out, rcount, rtype,
                comm);
  adcc_mpi_copy(kind, drecv, out, all);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_allgather_aug(const void *send, int scount, MPI_Datatype stype,
                           void *recv, int rcount, MPI_Datatype rtype,
                           MPI_Comm comm) {
  allgather_kind(send, stype, rtype, comm);
  return MPI_Allgather(send, scount, stype, recv, rcount, rtype, comm);
}

void adcc_mpi_allgather_rev(const void *send, void *dsend, int scount,
                            MPI_Datatype stype, void *drecv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = allgather_kind(send, stype, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int in_place = send == MPI_IN_PLACE;
  size_t all = (size_t)rcount * (size_t)adcc_mpi_size(comm);
  void *in = adcc_mpi_temp(kind, drecv, all);
  void *t = adcc_mpi_temp(kind, NULL, (size_t)rcount);
  MPI_Reduce_scatter_block(in, t, rcount, rtype, MPI_SUM, comm);
  adcc_mpi_zero(kind, drecv, all);
  if (in_place)
    adcc_mpi_copy(kind,
                  element(kind, drecv,
                          (size_t)adcc_mpi_rank(comm) * (size_t)rcount),
                  t, (size_t)rcount);
  else
    adcc_mpi_add(kind, dsend, t, (size_t)scount);
  free(in);
  free(t);
}
