/*===- collectives.c - Derivatives of MPI collective operations ---------===*
 *
 * Forward mode runs each collective a second time on the tangents (a
 * reduction by MPI_MIN or MPI_MAX sums the tangents of the ranks that hold
 * each extremum, one rank per element). Reverse mode runs the adjoint
 * collective in the reverse sweep:
 *   broadcast            <-> sum-reduction to the root
 *   reduce(sum)          <-> broadcast from the root
 *   allreduce(sum)       <-> allreduce(sum) of the result's adjoints
 *   reduce/allreduce(min, max): as for sum, the adjoint going to the rank
 *                          that held the extremum (the lowest rank on ties,
 *                          MPI_MINLOC/MPI_MAXLOC's choice), 0 to the others
 *   gather, scatter, allgather: gathers.c
 *   barrier              <-> barrier
 * Adjoints of a result buffer are zeroed once sent back (it was
 * overwritten). MPI_IN_PLACE is supported.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

/*--- broadcast -----------------------------------------------------------*/

int adcc_mpi_bcast_fwd(void *buf, void *dbuf, int count, MPI_Datatype type,
                       int root, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Bcast", comm);
  int rc = MPI_Bcast(buf, count, type, root, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  void *t = adcc_mpi_temp(kind, dbuf, (size_t)count);
  MPI_Bcast(t, count, type, root, comm);
  adcc_mpi_copy(kind, dbuf, t, (size_t)count);
  free(t);
  return rc;
}

int adcc_mpi_bcast_aug(void *buf, int count, MPI_Datatype type, int root,
                       MPI_Comm comm) {
  adcc_mpi_kind_of(type, "MPI_Bcast", comm);
  return MPI_Bcast(buf, count, type, root, comm);
}

void adcc_mpi_bcast_rev(void *dbuf, int count, MPI_Datatype type, int root,
                        MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Bcast", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int is_root = adcc_mpi_rank(comm) == root;
  void *t = adcc_mpi_temp(kind, dbuf, (size_t)count);
  void *sum = is_root ? adcc_mpi_temp(kind, NULL, (size_t)count) : NULL;
  MPI_Reduce(t, sum, count, type, MPI_SUM, root, comm);
  if (is_root)
    adcc_mpi_copy(kind, dbuf, sum, (size_t)count);
  else
    adcc_mpi_zero(kind, dbuf, (size_t)count);
  free(t);
  free(sum);
}

/*--- reduce and allreduce ------------------------------------------------*/

/* The tape of a reduction by MPI_MIN or MPI_MAX: which elements this rank
 * won. */
static unsigned char *winners(enum adcc_mpi_kind kind, enum adcc_mpi_op op,
                              const void *values, int count, MPI_Comm comm) {
  if (op == ADCC_MPI_SUM)
    return NULL;
  unsigned char *won = calloc((size_t)(count ? count : 1), 1);
  if (!won)
    adcc_mpi_fail(comm, "MPI_Reduce/MPI_Allreduce", "out of memory");
  adcc_mpi_winners(kind, op, values, count, comm, won);
  return won;
}

/* The forward mode of MPI_Reduce (\p all: MPI_Allreduce). */
static int reduce_fwd(int all, const void *send, const void *dsend, void *recv,
                      void *drecv, int count, MPI_Datatype type, MPI_Op op,
                      int root, MPI_Comm comm) {
  const char *call = all ? "MPI_Allreduce" : "MPI_Reduce";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  enum adcc_mpi_op how =
      kind == ADCC_MPI_INACTIVE ? ADCC_MPI_SUM : adcc_mpi_op_of(op, call, comm);
  int in_place = send == MPI_IN_PLACE;
  const void *values = in_place ? recv : send;
  const void *tangents = in_place ? drecv : dsend;
  int gets = all || adcc_mpi_rank(comm) == root;
  unsigned char *won = kind == ADCC_MPI_INACTIVE
                           ? NULL
                           : winners(kind, how, values, count, comm);
  int rc = all ? MPI_Allreduce(send, recv, count, type, op, comm)
               : MPI_Reduce(send, recv, count, type, op, root, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  void *t = adcc_mpi_temp(kind, tangents, (size_t)count);
  if (won)
    adcc_mpi_select(kind, t, tangents, won, (size_t)count);
  void *sum = gets ? adcc_mpi_temp(kind, NULL, (size_t)count) : NULL;
  if (all)
    MPI_Allreduce(t, sum, count, type, MPI_SUM, comm);
  else
    MPI_Reduce(t, sum, count, type, MPI_SUM, root, comm);
  if (gets)
    adcc_mpi_copy(kind, drecv, sum, (size_t)count);
  free(t);
  free(sum);
  free(won);
  return rc;
}

int adcc_mpi_reduce_fwd(const void *send, const void *dsend, void *recv,
                        void *drecv, int count, MPI_Datatype type, MPI_Op op,
                        int root, MPI_Comm comm) {
  return reduce_fwd(0, send, dsend, recv, drecv, count, type, op, root, comm);
}

int adcc_mpi_allreduce_fwd(const void *send, const void *dsend, void *recv,
                           void *drecv, int count, MPI_Datatype type, MPI_Op op,
                           MPI_Comm comm) {
  return reduce_fwd(1, send, dsend, recv, drecv, count, type, op, 0, comm);
}

/* The augmented MPI_Reduce (\p all: MPI_Allreduce); the tape holds the
 * winners of a minimum or maximum. */
static int reduce_aug(int all, const void *send, void *recv, int count,
                      MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                      void **tape) {
  const char *call = all ? "MPI_Allreduce" : "MPI_Reduce";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  *tape = NULL;
  if (kind != ADCC_MPI_INACTIVE)
    *tape = winners(kind, adcc_mpi_op_of(op, call, comm),
                    send == MPI_IN_PLACE ? recv : send, count, comm);
  return all ? MPI_Allreduce(send, recv, count, type, op, comm)
             : MPI_Reduce(send, recv, count, type, op, root, comm);
}

int adcc_mpi_reduce_aug(const void *send, void *recv, int count,
                        MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                        void **tape) {
  return reduce_aug(0, send, recv, count, type, op, root, comm, tape);
}

int adcc_mpi_allreduce_aug(const void *send, void *recv, int count,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           void **tape) {
  return reduce_aug(1, send, recv, count, type, op, 0, comm, tape);
}

/* The reverse of MPI_Reduce (\p all: MPI_Allreduce): the result's adjoint,
 * broadcast (summed over the ranks for an allreduce), goes to the inputs
 * (those that won, for a minimum or maximum). */
static void reduce_rev(int all, const void *send, void *dsend, void *drecv,
                       int count, MPI_Datatype type, int root, MPI_Comm comm,
                       void *tape) {
  const char *call = all ? "MPI_Allreduce" : "MPI_Reduce";
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  unsigned char *won = tape;
  int has = all || adcc_mpi_rank(comm) == root;
  void *t = adcc_mpi_temp(kind, has ? drecv : NULL, (size_t)count);
  if (all)
    MPI_Allreduce(MPI_IN_PLACE, t, count, type, MPI_SUM, comm);
  else
    MPI_Bcast(t, count, type, root, comm);
  if (has)
    adcc_mpi_zero(kind, drecv, (size_t)count);
  void *into = send == MPI_IN_PLACE ? drecv : dsend;
  if (won)
    adcc_mpi_add_selected(kind, into, t, won, (size_t)count);
  else
    adcc_mpi_add(kind, into, t, (size_t)count);
  free(t);
  free(won);
}

void adcc_mpi_reduce_rev(const void *send, void *dsend, void *drecv, int count,
                         MPI_Datatype type, int root, MPI_Comm comm,
                         void *tape) {
  reduce_rev(0, send, dsend, drecv, count, type, root, comm, tape);
}

void adcc_mpi_allreduce_rev(const void *send, void *dsend, void *drecv,
                            int count, MPI_Datatype type, MPI_Comm comm,
                            void *tape) {
  reduce_rev(1, send, dsend, drecv, count, type, 0, comm, tape);
}

/*--- barrier -------------------------------------------------------------*/

int adcc_mpi_barrier(MPI_Comm comm) { return MPI_Barrier(comm); }
void adcc_mpi_barrier_rev(MPI_Comm comm) { MPI_Barrier(comm); }
