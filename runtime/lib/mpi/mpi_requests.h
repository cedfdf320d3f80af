/*===- mpi_requests.h - Pending non-blocking messages --------------------===*/
#ifndef ADCC_RUNTIME_MPI_REQUESTS_H
#define ADCC_RUNTIME_MPI_REQUESTS_H

#include "mpi_internal.h"

/* One MPI_Isend or MPI_Irecv of differentiated code, from the call to its
 * wait (forward mode) or to the reverse of the call (reverse mode). */
struct adcc_mpi_pending {
  MPI_Request *request;   /* the program's request variable */
  unsigned long sequence; /* posting order on this rank */
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

/* Forward mode: a completed request's tangents arrive (a receive's packed
 * buffer is split into the buffer and its shadow); frees \p p. */
void adcc_mpi_finish(struct adcc_mpi_pending *p, MPI_Status *status);
/* Reverse mode: a completed request (\p p may be null) notes a receive's
 * actual source, tag and count. */
void adcc_mpi_received(struct adcc_mpi_pending *p, MPI_Status *status);
/* Reverse mode: the reverse of a wait posts the adjoint message of \p p. */
void adcc_mpi_post(struct adcc_mpi_pending *p);

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

#endif
