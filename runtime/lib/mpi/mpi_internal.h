/*===- mpi_internal.h - Shared pieces of the MPI derivative rules -------===*
 *
 * The derivatives of MPI calls (docs/parallel.md#mpi) are C functions of
 * the runtime that adcc's generated code calls in place of the calls
 * (adcore/lib/rules/MpiRules.cpp lists which). A buffer's datatype decides
 * whether it carries derivatives: MPI_DOUBLE and MPI_FLOAT do, integer
 * types do not (the call then runs as in the primal), anything else stops
 * the program with a message naming the call.
 *
 * Shadows (tangents in forward mode, adjoints in reverse mode) may be null
 * where the buffer holds no derivative on this rank: zeros are sent, and
 * what arrives is dropped, so that every rank posts the same messages.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_RUNTIME_MPI_INTERNAL_H
#define ADCC_RUNTIME_MPI_INTERNAL_H

#include <mpi.h>
#include <stddef.h>

/* How a datatype's buffers carry derivatives. */
enum adcc_mpi_kind {
  ADCC_MPI_INACTIVE, /* integers, bytes: no derivative */
  ADCC_MPI_DOUBLE,
  ADCC_MPI_FLOAT,
};

/* The kind of \p type; stops the program (naming \p call) for a datatype
 * that has no derivative rule (derived types, long double, pairs). */
enum adcc_mpi_kind adcc_mpi_kind_of(MPI_Datatype type, const char *call,
                                    MPI_Comm comm);
size_t adcc_mpi_size_of(enum adcc_mpi_kind kind);

/* This rank's number in \p comm, and the number of ranks. */
int adcc_mpi_rank(MPI_Comm comm);
int adcc_mpi_size(MPI_Comm comm);

/* The tag of the adjoint message of a message tagged \p tag: tag +
 * MPI_TAG_UB / 2 + 1, so that a receive of the primal with MPI_ANY_SOURCE
 * and a tag, still waiting on one rank, cannot match an adjoint message
 * that a neighbour already in its reverse sweep sends it; stops the
 * program for tags above MPI_TAG_UB / 2. */
int adcc_mpi_adjoint_tag(int tag, MPI_Comm comm);

/* Prints "adcc runtime: error: <call>: <message>" and aborts the job. */
_Noreturn void adcc_mpi_fail(MPI_Comm comm, const char *call,
                             const char *message);

/* Element-wise helpers over \p n elements of \p kind; a null \p dst or
 * \p src stands for a buffer of zeros (nothing to add, nothing to copy). */
void adcc_mpi_add(enum adcc_mpi_kind kind, void *dst, const void *src,
                  size_t n);
void adcc_mpi_zero(enum adcc_mpi_kind kind, void *dst, size_t n);
void adcc_mpi_copy(enum adcc_mpi_kind kind, void *dst, const void *src,
                   size_t n);
/* n elements of zeros, or a copy of src (freed with free). */
void *adcc_mpi_temp(enum adcc_mpi_kind kind, const void *src, size_t n);

/* Which reduction a derivative rule follows: MPI_SUM, or a choice of one
 * rank's value (MPI_MIN, MPI_MAX); anything else stops the program. */
enum adcc_mpi_op { ADCC_MPI_SUM, ADCC_MPI_MIN, ADCC_MPI_MAX };
enum adcc_mpi_op adcc_mpi_op_of(MPI_Op op, const char *call, MPI_Comm comm);

/* For a minimum or maximum over the ranks of \p n values of \p send: 1 in
 * won[i] where this rank holds the extremum of element i (the lowest such
 * rank on ties, as MPI_MINLOC and MPI_MAXLOC choose), 0 elsewhere. */
void adcc_mpi_winners(enum adcc_mpi_kind kind, enum adcc_mpi_op op,
                      const void *send, int n, MPI_Comm comm,
                      unsigned char *won);
/* dst[i] = won[i] ? src[i] : 0 (src null: zeros). */
void adcc_mpi_select(enum adcc_mpi_kind kind, void *dst, const void *src,
                     const unsigned char *won, size_t n);
/* dst[i] += won[i] ? src[i] : 0. */
void adcc_mpi_add_selected(enum adcc_mpi_kind kind, void *dst, const void *src,
                           const unsigned char *won, size_t n);

/* The reverses of the blocking collectives (collectives.c), which those of
 * the nonblocking ones run too; \p tape: the winners of a minimum or
 * maximum, null for a sum. */
void adcc_mpi_bcast_rev(void *dbuf, int count, MPI_Datatype type, int root,
                        MPI_Comm comm);
void adcc_mpi_reduce_rev(const void *send, void *dsend, void *drecv, int count,
                         MPI_Datatype type, int root, MPI_Comm comm,
                         void *tape);
void adcc_mpi_allreduce_rev(const void *send, void *dsend, void *drecv,
                            int count, MPI_Datatype type, MPI_Comm comm,
                            void *tape);
/* The reverses of the blocking gathers and scatters (gathers.c), which
 * those of the nonblocking ones run too. */
void adcc_mpi_gather_rev(const void *send, void *dsend, int scount,
                         MPI_Datatype stype, void *drecv, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm);
void adcc_mpi_scatter_rev(void *dsend, int scount, MPI_Datatype stype,
                          const void *recv, void *drecv, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm);
void adcc_mpi_allgather_rev(const void *send, void *dsend, int scount,
                            MPI_Datatype stype, void *drecv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm);
/* The reverse of the blocking all-to-all (exchanges.c), which that of the
 * nonblocking one runs too. */
/* exchanges.c: stops the program unless \p op is MPI_SUM; the reverses of
 * the blocking prefix sum and reduce-scatters (the last frees \p counts). */
void adcc_mpi_need_sum(MPI_Op op, const char *call, MPI_Comm comm);
void adcc_mpi_scan_rev(const void *send, void *dsend, void *drecv, int count,
                       MPI_Datatype type, MPI_Comm comm);
void adcc_mpi_reduce_scatter_block_rev(const void *send, void *dsend,
                                       void *drecv, int count,
                                       MPI_Datatype type, MPI_Comm comm);
void adcc_mpi_reduce_scatter_rev(const void *send, void *dsend, void *drecv,
                                 MPI_Datatype type, MPI_Comm comm, void *counts);
void adcc_mpi_alltoall_rev(const void *send, void *dsend, int scount,
                           MPI_Datatype stype, void *drecv, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm);
void adcc_mpi_exscan_rev(const void *send, void *dsend, void *drecv, int count,
                         MPI_Datatype type, MPI_Comm comm);
/* vgathers.c: the elements blocks reach (max over r < p of displs[r] +
 * counts[r]); a copy of \p counts and \p displs (p each), the tape record
 * of a reverse, null where \p counts is; the reverses of the blocking
 * gathers and scatters of blocks of several sizes (which free \p tape). */
size_t adcc_mpi_extent(const int *counts, const int *displs, int p);
int *adcc_mpi_keep_counts(const int *counts, const int *displs, int p,
                          MPI_Comm comm);
void adcc_mpi_gatherv_rev(const void *send, void *dsend, int scount,
                          MPI_Datatype stype, void *drecv, MPI_Datatype rtype,
                          int root, MPI_Comm comm, void *tape);
void adcc_mpi_scatterv_rev(void *dsend, MPI_Datatype stype, const void *recv,
                           void *drecv, int rcount, MPI_Datatype rtype,
                           int root, MPI_Comm comm, void *tape);
void adcc_mpi_allgatherv_rev(const void *send, void *dsend, int scount,
                             MPI_Datatype stype, void *drecv,
                             MPI_Datatype rtype, MPI_Comm comm, void *tape);
/* alltoallv.c: the counts and displacements the reverse needs (freed by
 * it); the reverse of the blocking all-to-all of blocks of several
 * sizes. */
int *adcc_mpi_alltoallv_keep(const void *send, const int *scounts,
                             const int *sdispls, const int *rcounts,
                             const int *rdispls, MPI_Comm comm);
void adcc_mpi_alltoallv_rev(const void *send, void *dsend, MPI_Datatype stype,
                            void *drecv, MPI_Datatype rtype, MPI_Comm comm,
                            void *tape);
/* alltoallw.c: the record the reverse of MPI_Alltoallw needs, and that
 * reverse (which frees \p tape). */
void *adcc_mpi_alltoallw_keep(const void *send, const int *scounts,
                              const int *sdispls, const MPI_Datatype *stypes,
                              const int *rcounts, const int *rdispls,
                              const MPI_Datatype *rtypes, MPI_Comm comm);
void adcc_mpi_alltoallw_rev(const void *send, void *dsend, void *drecv,
                            MPI_Comm comm, void *tape);

/* neighbors.c: the numbers of in- and out-neighbours of \p comm's process
 * topology (stops the program where it has none); for reverse mode, the
 * adjoint exchange of a neighbourhood collective on \p comm: the
 * communicator it runs on (comm, or for a distributed graph the transposed
 * graph, made by adcc_mpi_adjoint_topology and freed by _free), the
 * numbers of comm's received blocks (whose adjoints it sends) and sent
 * blocks (whose adjoints it receives), and by neighbour number 1 where the
 * neighbour is MPI_PROC_NULL (a Cartesian grid's edge), whose block MPI
 * neither writes nor sends. The reverses of MPI_Neighbor_allgather and
 * MPI_Neighbor_alltoall, which those of the nonblocking ones run too. */
void adcc_mpi_neighbor_degrees(MPI_Comm comm, const char *call, int *in,
                               int *out);
struct adcc_mpi_adjoint_topo {
  MPI_Comm comm;
  int in, out, made;
  unsigned char *none;
};
void adcc_mpi_adjoint_topology(MPI_Comm comm, const char *call,
                               struct adcc_mpi_adjoint_topo *t);
void adcc_mpi_adjoint_topology_free(struct adcc_mpi_adjoint_topo *t);
void adcc_mpi_neighbor_allgather_rev(void *dsend, int scount,
                                     MPI_Datatype stype, void *drecv,
                                     int rcount, MPI_Datatype rtype,
                                     MPI_Comm comm);
void adcc_mpi_neighbor_alltoall_rev(void *dsend, int scount, MPI_Datatype stype,
                                    void *drecv, int rcount, MPI_Datatype rtype,
                                    MPI_Comm comm);
/* The same for the nonblocking forms (\p alltoall: MPI_Ineighbor_alltoall,
 * else MPI_Ineighbor_allgather), whose adjoint exchange is nonblocking
 * too: OpenMPI pairs the blocks of a neighbour that appears twice as the
 * blocking calls do not (neighbors.c); and the adjoint exchange itself,
 * MPI_Neighbor_alltoall or MPI_Ineighbor_alltoall and its wait. */
void adcc_mpi_ineighbor_rev(int alltoall, void *dsend, int scount,
                            MPI_Datatype stype, void *drecv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm,
                            const char *call);
void adcc_mpi_neighbor_exchange(const void *send, int scount,
                                MPI_Datatype stype, void *recv, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                int nonblocking);

#endif
