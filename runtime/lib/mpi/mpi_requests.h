/*===- mpi_requests.h - Pending non-blocking messages --------------------===*/
#ifndef ADCC_RUNTIME_MPI_REQUESTS_H
#define ADCC_RUNTIME_MPI_REQUESTS_H

#include "mpi_internal.h"

/* Which call started a request of differentiated code. */
enum adcc_mpi_started {
  ADCC_MPI_P2P,    /* MPI_Isend, MPI_Irecv, MPI_Start of their kind */
  ADCC_MPI_IBCAST, /* the nonblocking collectives (icollectives.c) */
  ADCC_MPI_IREDUCE,
  ADCC_MPI_IALLREDUCE,
  ADCC_MPI_IGATHER, /* igathers.c */
  ADCC_MPI_ISCATTER,
  ADCC_MPI_IALLGATHER,
  ADCC_MPI_IALLTOALL,
  ADCC_MPI_ISCAN, /* iexchanges.c */
  ADCC_MPI_IREDUCE_SCATTER_BLOCK,
  ADCC_MPI_IREDUCE_SCATTER,
  ADCC_MPI_IEXSCAN,
  ADCC_MPI_IGATHERV, /* ivgathers.c */
  ADCC_MPI_IALLGATHERV,
  ADCC_MPI_ISCATTERV,
  ADCC_MPI_IALLTOALLV,
  ADCC_MPI_IALLTOALLW, /* alltoallw.c */
  ADCC_MPI_INEIGHBOR_ALLGATHER, /* ineighbors.c */
  ADCC_MPI_INEIGHBOR_ALLTOALL,
  ADCC_MPI_INEIGHBOR_ALLGATHERV,
  ADCC_MPI_INEIGHBOR_ALLTOALLV,
  ADCC_MPI_INEIGHBOR_ALLTOALLW,
};

/* One MPI_Isend, MPI_Irecv, MPI_Start (of a persistent request) or
 * nonblocking collective of differentiated code, from the call to its
 * wait (forward mode) or to the reverse of the call (reverse mode). */
struct adcc_mpi_pending {
  MPI_Request *request;   /* the program's request variable */
  unsigned long sequence; /* posting order on this rank */
  const char *call;       /* (for messages) */
  enum adcc_mpi_started started;
  int receive;
  enum adcc_mpi_kind kind;
  void *buf, *dbuf; /* the program's buffer and its shadow (may be null) */
  int count;        /* elements posted; received, after the wait */
  MPI_Datatype type;
  int peer, tag; /* after a receive's wait: its actual source and tag */
  MPI_Comm comm;
  void *temp;          /* forward: the packed buffer; reverse: the adjoint's */
  MPI_Request reverse; /* reverse: the adjoint message */
  int ready;           /* reverse: its wait was reversed */
  int posted;          /* reverse: the adjoint message is posted */
  int keep_temp;       /* temp belongs to a persistent request */
  /* Collectives: forward, the packed input (freed at the wait) and whether
   * this rank gets the result; reverse, the send buffer (MPI_IN_PLACE
   * too) and its shadow. */
  void *sent;
  const void *send;
  int gets, root;
  /* Gathers and scatters: the receive side's count and datatype (count
   * and type are the send side's); forward mode, how the wait unpacks
   * temp into buf and dbuf (null: one packed block, when gets). */
  int count2;
  MPI_Datatype type2;
  void (*unpack)(struct adcc_mpi_pending *);
  /* Nonblocking MPI_MIN or MPI_MAX reductions: the operator; reverse
   * mode, temp holds the values this rank sent. */
  enum adcc_mpi_op choice;
  /* MPI_Ireduce_scatter: forward, the packed blocks' counts (MPI reads
   * them until the wait); reverse, the program's counts. */
  int *counts;
  /* MPI_Ialltoallw: reverse, the counts, displacements and datatypes the
   * adjoint all-to-all needs (alltoallw.c). */
  void *record;
};

/* A new record for the request variable \p request; \p reverse: of an
 * augmented sweep, whose adjoint message adcc_mpi_ready posts. */
struct adcc_mpi_pending *adcc_mpi_start(MPI_Request *request, int reverse);
/* The reverse of the wait of \p p: posts the adjoint messages, by \p post,
 * in the reverse of the order the program started the requests (every
 * rank does, so that adjoint messages of one source, destination and tag
 * match as the primal's did, whatever order the waits ran in): p's and
 * those of earlier requests whose waits were reversed, down to the first
 * whose wait was not. */
void adcc_mpi_ready(struct adcc_mpi_pending *p,
                    void (*post)(struct adcc_mpi_pending *));
/* The record of \p request, removed from the table; null when the request
 * was not started by differentiated code or carries no derivative. */
struct adcc_mpi_pending *adcc_mpi_take(MPI_Request *request);

/* [buf | dbuf] of n elements each (a null dbuf: zeros), freed with free;
 * and the reverse: n values, then n tangents, split into buf and dbuf. */
/* A blocking send (MPI_Send, MPI_Ssend, ...) and a non-blocking one
 * (MPI_Isend, MPI_Issend, ...): the send modes share their rules. */
typedef int (*adcc_mpi_send_fn)(const void *, int, MPI_Datatype, int, int,
                                MPI_Comm);
typedef int (*adcc_mpi_isend_fn)(const void *, int, MPI_Datatype, int, int,
                                 MPI_Comm, MPI_Request *);
/* MPI_Send's forward rule, sending by \p send (\p call: for messages);
 * MPI_Send's reverse; MPI_Isend's forward and augmented rules, sending by
 * \p isend. */
int adcc_mpi_send_fwd_as(adcc_mpi_send_fn send, const char *call,
                         const void *buf, const void *dbuf, int count,
                         MPI_Datatype type, int dest, int tag, MPI_Comm comm);
void adcc_mpi_send_rev_as(const char *call, void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int adcc_mpi_isend_fwd_as(adcc_mpi_isend_fn isend, const char *call,
                          const void *buf, const void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request);
int adcc_mpi_isend_aug_as(adcc_mpi_isend_fn isend, const char *call,
                          const void *buf, void *dbuf, int count,
                          MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request, void **tape);

/* Sends \p count elements of \p buffer (malloc'd; the runtime frees it)
 * non-blocking and returns: the send completes in the background, as a
 * buffered send (sendmodes.c); \p adjoint: an adjoint message of reverse
 * mode, which the reverse sweep waits for before it returns. */
int adcc_mpi_isend_kept(void *buffer, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm, int adjoint);

void *adcc_mpi_pack(enum adcc_mpi_kind kind, const void *buf,
                    const void *dbuf, int n);
void adcc_mpi_split(enum adcc_mpi_kind kind, const void *packed, void *buf,
                    void *dbuf, int n);

/* Forward mode: a completed request's tangents arrive (a receive's packed
 * buffer is split into the buffer and its shadow); frees \p p. */
void adcc_mpi_finish(struct adcc_mpi_pending *p, MPI_Status *status);
/* Reverse mode: a completed request (\p p may be null) notes a receive's
 * actual source, tag and count. */
void adcc_mpi_received(struct adcc_mpi_pending *p, MPI_Status *status);
/* Reverse mode: the reverse of a wait posts the adjoint message of \p p. */
void adcc_mpi_post(struct adcc_mpi_pending *p);
/* Reverse mode: the reverse of the call that started a point-to-point
 * request (\p tape: its record, or null) completes its adjoint message. */
void adcc_mpi_complete(void *tape);

/* The tape of a call that completes several requests: their records (null
 * where a request carries no derivative); adcc_mpi_waitall_rev reverses
 * it. */
struct adcc_mpi_waited {
  int n;
  struct adcc_mpi_pending *p[];
};
struct adcc_mpi_waited *adcc_mpi_waited_new(int n, const char *call);
void adcc_mpi_waitall_rev(void *tape);
/* The reverse of a call that completed one request (its record, or null). */
void adcc_mpi_completed_rev(void *tape);

/* The adjoint collective of a nonblocking gather or scatter (igathers.c),
 * at the reverse of its start. */
void adcc_mpi_igathers_rev(struct adcc_mpi_pending *p);
/* Forward mode: notes a status a probe filled (probes.c), whose counts by
 * MPI_DOUBLE or MPI_FLOAT are then the primal's. */
void adcc_mpi_note_probed(MPI_Status *status);
/* The same for MPI_Iscan and the nonblocking reduce-scatters
 * (iexchanges.c). */
void adcc_mpi_iexchanges_rev(struct adcc_mpi_pending *p);
/* The same for MPI_Igatherv, MPI_Iallgatherv, MPI_Iscatterv and
 * MPI_Ialltoallv (ivgathers.c). */
void adcc_mpi_ivgathers_rev(struct adcc_mpi_pending *p);
/* The same for MPI_Ialltoallw (alltoallw.c). */
void adcc_mpi_ialltoallw_rev(struct adcc_mpi_pending *p);
/* The same for MPI_Ineighbor_allgather, MPI_Ineighbor_alltoall and their
 * v and w forms (ineighbors.c). */
void adcc_mpi_ineighbors_rev(struct adcc_mpi_pending *p);

/* vneighbors.c: the blocks of a neighbourhood collective of several block
 * sizes, both sides, as MPI_Neighbor_alltoallw takes them (the counts of
 * blocks that carry derivatives; displacements in bytes); the tape record
 * of its reverse (\p nonblocking: of a nonblocking call, whose adjoint
 * exchange is nonblocking too), which frees it; whether the ranks exchange derivatives
 * (else nothing is exchanged); forward mode's exchange of the tangents,
 * started into \p request (zeros for a missing shadow in *zeros_send,
 * *zeros_recv: freed, with the blocks, after the wait). */
struct adcc_mpi_nblocks;
struct adcc_mpi_nblocks *
adcc_mpi_neighbor_allgatherv_keep(int scount, MPI_Datatype stype,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm);
struct adcc_mpi_nblocks *
adcc_mpi_neighbor_alltoallv_keep(const int *scounts, const int *sdispls,
                                 MPI_Datatype stype, const int *rcounts,
                                 const int *rdispls, MPI_Datatype rtype,
                                 MPI_Comm comm);
struct adcc_mpi_nblocks *adcc_mpi_neighbor_alltoallw_keep(
    const int *scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
    const int *rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
    MPI_Comm comm);
void adcc_mpi_neighbor_blocks_rev(void *dsend, void *drecv, MPI_Comm comm,
                                  struct adcc_mpi_nblocks *k, const char *call,
                                  int nonblocking);
void adcc_mpi_neighbor_blocks_free(struct adcc_mpi_nblocks *k);
int adcc_mpi_neighbor_blocks_active(const struct adcc_mpi_nblocks *k);
void adcc_mpi_neighbor_blocks_start(const void *dsend, void *drecv,
                                    struct adcc_mpi_nblocks *k, MPI_Comm comm,
                                    MPI_Request *request, void **zeros_send,
                                    void **zeros_recv, const char *call);

#endif
