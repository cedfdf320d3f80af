/*===- exchanges.c - All-to-all, prefix sums, reduce-scatters -------------===*
 *
 * Forward mode runs each collective a second time on the tangents (all
 * three are linear in their data for MPI_SUM). Reverse mode runs the
 * adjoint collective in the reverse sweep:
 *   alltoall                 <-> alltoall of the received adjoints (block j
 *                                of rank r goes back to block r of rank j)
 *   scan(sum)                <-> reverse prefix sum: x_q's adjoint is the
 *                                sum of y_r's adjoints over r >= q
 *   exscan(sum)              <-> the same over r > q (rank 0's receive
 *                                buffer, which MPI does not write, keeps
 *                                its adjoint)
 *   reduce_scatter(_block)   <-> allgather(v) of the adjoints of the blocks
 * A reverse prefix sum is the total (MPI_Allreduce) minus the inclusive
 * prefix (MPI_Scan) of the adjoints: two collectives, no communicator of
 * reversed ranks. MPI_Reduce_scatter's counts are the augmented call's
 * tape record (the program's array may be gone in the reverse sweep).
 * Adjoints of a result buffer are zeroed once sent back (it
 * was overwritten). MPI_IN_PLACE works in each. Prefix sums and
 * reduce-scatters by MPI_MIN or MPI_MAX have no rule: the program stops.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_internal.h"

#include <stdlib.h>

/* dst[i] += a[i] - b[i] (dst null: nothing). */
static void add_difference(enum adcc_mpi_kind kind, void *dst, const void *a,
                           const void *b, size_t n) {
  if (!dst)
    return;
  for (size_t i = 0; i < n; ++i) {
    if (kind == ADCC_MPI_DOUBLE)
      ((double *)dst)[i] += ((const double *)a)[i] - ((const double *)b)[i];
    else
      ((float *)dst)[i] += ((const float *)a)[i] - ((const float *)b)[i];
  }
}

void adcc_mpi_need_sum(MPI_Op op, const char *call, MPI_Comm comm) {
  if (adcc_mpi_op_of(op, call, comm) != ADCC_MPI_SUM)
    adcc_mpi_fail(comm, call,
                  "only MPI_SUM has a derivative rule for this collective "
                  "(a prefix or reduce-scatter by MPI_MIN or MPI_MAX has "
                  "none yet)");
}

/*--- alltoall ------------------------------------------------------------*/

static enum adcc_mpi_kind alltoall_kind(const void *send, MPI_Datatype stype,
                                        MPI_Datatype rtype, MPI_Comm comm) {
  return adcc_mpi_kind_of(send == MPI_IN_PLACE ? rtype : stype, "MPI_Alltoall",
                          comm);
}

int adcc_mpi_alltoall_fwd(const void *send, const void *dsend, int scount,
                          MPI_Datatype stype, void *recv, void *drecv,
                          int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = alltoall_kind(send, stype, rtype, comm);
  int rc = MPI_Alltoall(send, scount, stype, recv, rcount, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int in_place = send == MPI_IN_PLACE;
  size_t p = (size_t)adcc_mpi_size(comm);
  void *t = in_place ? NULL : adcc_mpi_temp(kind, dsend, p * (size_t)scount);
  void *out = adcc_mpi_temp(kind, in_place ? drecv : NULL, p * (size_t)rcount);
  MPI_Alltoall(in_place ? MPI_IN_PLACE : t, scount, stype, out, rcount, rtype,
               comm);
  adcc_mpi_copy(kind, drecv, out, p * (size_t)rcount);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_alltoall_aug(const void *send, int scount, MPI_Datatype stype,
                          void *recv, int rcount, MPI_Datatype rtype,
                          MPI_Comm comm) {
  alltoall_kind(send, stype, rtype, comm);
  return MPI_Alltoall(send, scount, stype, recv, rcount, rtype, comm);
}

void adcc_mpi_alltoall_rev(const void *send, void *dsend, int scount,
                           MPI_Datatype stype, void *drecv, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm) {
  enum adcc_mpi_kind kind = alltoall_kind(send, stype, rtype, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  size_t p = (size_t)adcc_mpi_size(comm);
  if (send == MPI_IN_PLACE) {
    /* (The received blocks replaced the sent ones: their adjoints go back
     * and replace the received ones'.) */
    void *t = adcc_mpi_temp(kind, drecv, p * (size_t)rcount);
    MPI_Alltoall(MPI_IN_PLACE, rcount, rtype, t, rcount, rtype, comm);
    adcc_mpi_copy(kind, drecv, t, p * (size_t)rcount);
    free(t);
    return;
  }
  void *in = adcc_mpi_temp(kind, drecv, p * (size_t)rcount);
  void *t = adcc_mpi_temp(kind, NULL, p * (size_t)scount);
  MPI_Alltoall(in, rcount, rtype, t, scount, stype, comm);
  adcc_mpi_add(kind, dsend, t, p * (size_t)scount);
  adcc_mpi_zero(kind, drecv, p * (size_t)rcount);
  free(in);
  free(t);
}

/*--- scan and exscan -----------------------------------------------------*/

int adcc_mpi_scan_fwd(const void *send, const void *dsend, void *recv,
                      void *drecv, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Scan", comm);
  if (kind != ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, "MPI_Scan", comm);
  int rc = MPI_Scan(send, recv, count, type, op, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int in_place = send == MPI_IN_PLACE;
  void *t = adcc_mpi_temp(kind, in_place ? drecv : dsend, (size_t)count);
  void *out = adcc_mpi_temp(kind, NULL, (size_t)count);
  MPI_Scan(t, out, count, type, MPI_SUM, comm);
  adcc_mpi_copy(kind, drecv, out, (size_t)count);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_scan_aug(const void *send, void *recv, int count,
                      MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (adcc_mpi_kind_of(type, "MPI_Scan", comm) != ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, "MPI_Scan", comm);
  return MPI_Scan(send, recv, count, type, op, comm);
}

/* The adjoints of the inputs of an inclusive (\p exclusive 0) or exclusive
 * prefix sum whose results' adjoints are \p dy (rank 0's ignored for an
 * exclusive one): sum over the ranks r >= q (r > q) of dy_r, in a new
 * buffer. */
static void *suffix_sums(enum adcc_mpi_kind kind, const void *dy, int count,
                         MPI_Datatype type, int exclusive, MPI_Comm comm) {
  size_t n = (size_t)count;
  void *t = adcc_mpi_temp(kind, dy, n);
  if (exclusive && adcc_mpi_rank(comm) == 0)
    adcc_mpi_zero(kind, t, n);
  void *total = adcc_mpi_temp(kind, NULL, n);
  void *prefix = adcc_mpi_temp(kind, NULL, n);
  MPI_Allreduce(t, total, count, type, MPI_SUM, comm);
  MPI_Scan(t, prefix, count, type, MPI_SUM, comm);
  /* inclusive: total - prefix + own; exclusive: total - prefix */
  adcc_mpi_zero(kind, exclusive ? t : NULL, n);
  add_difference(kind, t, total, prefix, n);
  free(total);
  free(prefix);
  return t;
}

void adcc_mpi_scan_rev(const void *send, void *dsend, void *drecv, int count,
                       MPI_Datatype type, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Scan", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  void *s = suffix_sums(kind, drecv, count, type, 0, comm);
  if (send == MPI_IN_PLACE) {
    adcc_mpi_copy(kind, drecv, s, (size_t)count);
  } else {
    adcc_mpi_add(kind, dsend, s, (size_t)count);
    adcc_mpi_zero(kind, drecv, (size_t)count);
  }
  free(s);
}

int adcc_mpi_exscan_fwd(const void *send, const void *dsend, void *recv,
                        void *drecv, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Exscan", comm);
  if (kind != ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, "MPI_Exscan", comm);
  int rc = MPI_Exscan(send, recv, count, type, op, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int in_place = send == MPI_IN_PLACE;
  void *t = adcc_mpi_temp(kind, in_place ? drecv : dsend, (size_t)count);
  void *out = adcc_mpi_temp(kind, NULL, (size_t)count);
  MPI_Exscan(t, out, count, type, MPI_SUM, comm);
  /* (Rank 0's receive buffer is not written: its tangent stays.) */
  if (adcc_mpi_rank(comm) != 0)
    adcc_mpi_copy(kind, drecv, out, (size_t)count);
  free(t);
  free(out);
  return rc;
}

int adcc_mpi_exscan_aug(const void *send, void *recv, int count,
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (adcc_mpi_kind_of(type, "MPI_Exscan", comm) != ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, "MPI_Exscan", comm);
  return MPI_Exscan(send, recv, count, type, op, comm);
}

void adcc_mpi_exscan_rev(const void *send, void *dsend, void *drecv, int count,
                         MPI_Datatype type, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, "MPI_Exscan", comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int first = adcc_mpi_rank(comm) == 0;
  void *s = suffix_sums(kind, drecv, count, type, 1, comm);
  if (send == MPI_IN_PLACE) {
    /* (Rank 0's buffer held its input and keeps it: its adjoint stays and
     * gets the others'; elsewhere the result replaced the input.) */
    if (first)
      adcc_mpi_add(kind, drecv, s, (size_t)count);
    else
      adcc_mpi_copy(kind, drecv, s, (size_t)count);
  } else {
    adcc_mpi_add(kind, dsend, s, (size_t)count);
    if (!first)
      adcc_mpi_zero(kind, drecv, (size_t)count);
  }
  free(s);
}

/*--- reduce_scatter_block and reduce_scatter -----------------------------*/

/* The displacements of blocks of \p counts elements laid end to end, and
 * their total (freed by the caller). */
static int *displacements(const int *counts, int p, size_t *total) {
  int *d = malloc(sizeof(int) * (size_t)(p ? p : 1));
  if (!d)
    adcc_mpi_fail(MPI_COMM_WORLD, "MPI_Reduce_scatter", "out of memory");
  size_t at = 0;
  for (int r = 0; r < p; ++r) {
    d[r] = (int)at;
    at += (size_t)counts[r];
  }
  *total = at;
  return d;
}

/* Forward mode of both: the same reduce-scatter of the tangents. \p counts
 * null: blocks of \p count (MPI_Reduce_scatter_block). */
static int reduce_scatter_fwd(const char *call, const void *send,
                              const void *dsend, void *recv, void *drecv,
                              int count, const int *counts, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind != ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, call, comm);
  int rc = counts ? MPI_Reduce_scatter(send, recv, counts, type, op, comm)
                  : MPI_Reduce_scatter_block(send, recv, count, type, op, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return rc;
  int p = adcc_mpi_size(comm), rank = adcc_mpi_rank(comm);
  size_t total = (size_t)count * (size_t)p;
  int *d = counts ? displacements(counts, p, &total) : NULL;
  size_t mine = counts ? (size_t)counts[rank] : (size_t)count;
  int in_place = send == MPI_IN_PLACE;
  void *t = adcc_mpi_temp(kind, in_place ? drecv : dsend, total);
  void *out = adcc_mpi_temp(kind, NULL, mine);
  if (counts)
    MPI_Reduce_scatter(t, out, counts, type, MPI_SUM, comm);
  else
    MPI_Reduce_scatter_block(t, out, count, type, MPI_SUM, comm);
  adcc_mpi_copy(kind, drecv, out, mine);
  free(t);
  free(out);
  free(d);
  return rc;
}

/* Reverse of both: every rank's block adjoint goes to every rank's send
 * buffer at that block (an allgather). */
static void reduce_scatter_rev(const char *call, const void *send, void *dsend,
                               void *drecv, int count, const int *counts,
                               MPI_Datatype type, MPI_Comm comm) {
  enum adcc_mpi_kind kind = adcc_mpi_kind_of(type, call, comm);
  if (kind == ADCC_MPI_INACTIVE)
    return;
  int p = adcc_mpi_size(comm), rank = adcc_mpi_rank(comm);
  size_t total = (size_t)count * (size_t)p;
  int *d = counts ? displacements(counts, p, &total) : NULL;
  size_t mine = counts ? (size_t)counts[rank] : (size_t)count;
  void *own = adcc_mpi_temp(kind, drecv, mine);
  void *all = adcc_mpi_temp(kind, NULL, total);
  if (counts)
    MPI_Allgatherv(own, (int)mine, type, all, counts, d, type, comm);
  else
    MPI_Allgather(own, count, type, all, count, type, comm);
  if (send == MPI_IN_PLACE) {
    /* (The whole input was in the receive buffer; the result replaced its
     * first block.) */
    adcc_mpi_copy(kind, drecv, all, total);
  } else {
    adcc_mpi_add(kind, dsend, all, total);
    adcc_mpi_zero(kind, drecv, mine);
  }
  free(own);
  free(all);
  free(d);
}

int adcc_mpi_reduce_scatter_block_fwd(const void *send, const void *dsend,
                                      void *recv, void *drecv, int count,
                                      MPI_Datatype type, MPI_Op op,
                                      MPI_Comm comm) {
  return reduce_scatter_fwd("MPI_Reduce_scatter_block", send, dsend, recv,
                            drecv, count, NULL, type, op, comm);
}

int adcc_mpi_reduce_scatter_block_aug(const void *send, void *recv, int count,
                                      MPI_Datatype type, MPI_Op op,
                                      MPI_Comm comm) {
  if (adcc_mpi_kind_of(type, "MPI_Reduce_scatter_block", comm) !=
      ADCC_MPI_INACTIVE)
    adcc_mpi_need_sum(op, "MPI_Reduce_scatter_block", comm);
  return MPI_Reduce_scatter_block(send, recv, count, type, op, comm);
}

void adcc_mpi_reduce_scatter_block_rev(const void *send, void *dsend,
                                       void *drecv, int count,
                                       MPI_Datatype type, MPI_Comm comm) {
  reduce_scatter_rev("MPI_Reduce_scatter_block", send, dsend, drecv, count,
                     NULL, type, comm);
}

int adcc_mpi_reduce_scatter_fwd(const void *send, const void *dsend, void *recv,
                                void *drecv, const int *counts,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter_fwd("MPI_Reduce_scatter", send, dsend, recv, drecv, 0,
                            counts, type, op, comm);
}

int adcc_mpi_reduce_scatter_aug(const void *send, void *recv, const int *counts,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                void **tape) {
  *tape = NULL;
  if (adcc_mpi_kind_of(type, "MPI_Reduce_scatter", comm) != ADCC_MPI_INACTIVE) {
    adcc_mpi_need_sum(op, "MPI_Reduce_scatter", comm);
    int p = adcc_mpi_size(comm);
    int *kept = malloc(sizeof(int) * (size_t)(p ? p : 1));
    if (!kept)
      adcc_mpi_fail(comm, "MPI_Reduce_scatter", "out of memory");
    for (int r = 0; r < p; ++r)
      kept[r] = counts[r];
    *tape = kept;
  }
  return MPI_Reduce_scatter(send, recv, counts, type, op, comm);
}

void adcc_mpi_reduce_scatter_rev(const void *send, void *dsend, void *drecv,
                                 MPI_Datatype type, MPI_Comm comm, void *tape) {
  if (!tape)
    return;
  reduce_scatter_rev("MPI_Reduce_scatter", send, dsend, drecv, 0, tape, type,
                     comm);
  free(tape);
}
