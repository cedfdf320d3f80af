/*===- alltoallw.c - MPI_Alltoallw of differentiated code -----------------===*
 *
 * MPI_Alltoallw gives every block its own datatype and a displacement in
 * bytes. A block of MPI_DOUBLE or MPI_FLOAT carries derivatives, one of an
 * integer type none (its count is 0 in the derivatives' exchanges); any
 * other datatype stops the program (adcc_mpi_kind_of).
 *
 * Forward mode runs the all-to-all a second time on the tangents, with the
 * program's displacements and datatypes. Reverse mode runs the adjoint
 * all-to-all: the adjoint of the block rank r received from rank j goes
 * back to rank j, into the block it sent to r (send blocks may overlap: the
 * adjoints arrive end to end and are added in at the program's
 * displacements), as for MPI_Alltoallv (alltoallv.c). The counts,
 * displacements and datatypes are the augmented call's tape record.
 * MPI_IN_PLACE works: the adjoints of the received blocks go back and
 * replace them.
 *
 * MPI_Ialltoallw starts a pending record keyed by the program's request
 * variable, as the other nonblocking collectives do (ivgathers.c): forward
 * mode starts the tangents' all-to-all right after the program's (every
 * rank in the same order), and the wait of the program's request waits for
 * it too; reverse mode keeps the record above at the start, and runs the
 * blocking adjoint all-to-all at the reverse of the start
 * (adcc_mpi_icollective_rev).
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_requests.h"

#include <stdlib.h>
#include <string.h>

static const char Call[] = "MPI_Alltoallw";

/* One side of the exchange: counts, byte displacements, datatypes. */
struct side {
  const int *counts, *displs;
  const MPI_Datatype *types;
};

static void *bytes_at(const void *buf, size_t at) {
  return buf ? (char *)buf + at : NULL;
}

static void *zeroed(size_t bytes, MPI_Comm comm) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    adcc_mpi_fail(comm, Call, "out of memory");
  return p;
}

/* The counts of the derivatives' exchange: a block of an integer type
 * carries none. */
static int *active_counts(struct side s, int ranks, MPI_Comm comm) {
  int *c = zeroed(sizeof(int) * (size_t)ranks, comm);
  for (int r = 0; r < ranks; ++r)
    if (s.counts[r] > 0 &&
        adcc_mpi_kind_of(s.types[r], Call, comm) != ADCC_MPI_INACTIVE)
      c[r] = s.counts[r];
  return c;
}

/* The bytes the active blocks reach. */
static size_t extent(struct side s, const int *active, int ranks,
                     MPI_Comm comm) {
  size_t end = 0;
  for (int r = 0; r < ranks; ++r) {
    if (!active[r])
      continue;
    size_t size = adcc_mpi_size_of(adcc_mpi_kind_of(s.types[r], Call, comm));
    size_t e = (size_t)s.displs[r] + size * (size_t)active[r];
    if (e > end)
      end = e;
  }
  return end;
}

int adcc_mpi_alltoallw_fwd(const void *send, const void *dsend,
                           const int *scounts, const int *sdispls,
                           const MPI_Datatype *stypes, void *recv, void *drecv,
                           const int *rcounts, const int *rdispls,
                           const MPI_Datatype *rtypes, MPI_Comm comm) {
  int rc = MPI_Alltoallw(send, scounts, sdispls, stypes, recv, rcounts,
                         rdispls, rtypes, comm);
  int ranks = adcc_mpi_size(comm), in_place = send == MPI_IN_PLACE;
  struct side r = {rcounts, rdispls, rtypes};
  int *rc_active = active_counts(r, ranks, comm);
  void *trecv = drecv, *own_recv = NULL;
  if (!drecv)
    trecv = own_recv = zeroed(extent(r, rc_active, ranks, comm), comm);
  if (in_place) {
    MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, trecv, rc_active, rdispls,
                  rtypes, comm);
  } else {
    struct side s = {scounts, sdispls, stypes};
    int *sc_active = active_counts(s, ranks, comm);
    const void *tsend = dsend;
    void *own_send = NULL;
    if (!dsend)
      tsend = own_send = zeroed(extent(s, sc_active, ranks, comm), comm);
    MPI_Alltoallw(tsend, sc_active, sdispls, stypes, trecv, rc_active,
                  rdispls, rtypes, comm);
    free(sc_active);
    free(own_send);
  }
  free(rc_active);
  free(own_recv);
  return rc;
}

/* The tape record: the active counts, displacements and datatypes of both
 * sides (the send side's zeros in place). */
struct kept {
  int ranks, in_place;
  int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Datatype *stypes, *rtypes;
};

void *adcc_mpi_alltoallw_keep(const void *send, const int *scounts,
                              const int *sdispls, const MPI_Datatype *stypes,
                              const int *rcounts, const int *rdispls,
                              const MPI_Datatype *rtypes, MPI_Comm comm) {
  int ranks = adcc_mpi_size(comm);
  size_t n = (size_t)(ranks ? ranks : 1);
  struct kept *k = zeroed(sizeof *k, comm);
  k->ranks = ranks;
  k->in_place = send == MPI_IN_PLACE;
  k->sdispls = zeroed(sizeof(int) * n, comm);
  k->rdispls = zeroed(sizeof(int) * n, comm);
  k->stypes = zeroed(sizeof(MPI_Datatype) * n, comm);
  k->rtypes = zeroed(sizeof(MPI_Datatype) * n, comm);
  struct side r = {rcounts, rdispls, rtypes};
  k->rcounts = active_counts(r, ranks, comm);
  if (k->in_place) {
    k->scounts = zeroed(sizeof(int) * n, comm);
  } else {
    struct side s = {scounts, sdispls, stypes};
    k->scounts = active_counts(s, ranks, comm);
  }
  for (int j = 0; j < ranks; ++j) {
    k->rdispls[j] = rdispls[j];
    k->rtypes[j] = rtypes[j];
    k->stypes[j] = k->in_place ? rtypes[j] : stypes[j];
    k->sdispls[j] = k->in_place ? 0 : sdispls[j];
  }
  return k;
}

int adcc_mpi_alltoallw_aug(const void *send, const int *scounts,
                           const int *sdispls, const MPI_Datatype *stypes,
                           void *recv, const int *rcounts, const int *rdispls,
                           const MPI_Datatype *rtypes, MPI_Comm comm,
                           void **tape) {
  *tape = adcc_mpi_alltoallw_keep(send, scounts, sdispls, stypes, rcounts,
                                  rdispls, rtypes, comm);
  return MPI_Alltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls,
                       rtypes, comm);
}

static void release(struct kept *k) {
  free(k->scounts);
  free(k->sdispls);
  free(k->rcounts);
  free(k->rdispls);
  free(k->stypes);
  free(k->rtypes);
  free(k);
}

void adcc_mpi_alltoallw_rev(const void *send, void *dsend, void *drecv,
                            MPI_Comm comm, void *tape) {
  (void)send;
  struct kept *k = tape;
  int ranks = k->ranks;
  struct side r = {k->rcounts, k->rdispls, k->rtypes};
  size_t rn = extent(r, k->rcounts, ranks, comm);
  void *in = zeroed(rn, comm);
  if (drecv)
    memcpy(in, drecv, rn);
  if (k->in_place) {
    MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, in, k->rcounts, k->rdispls,
                  k->rtypes, comm);
    if (drecv)
      for (int j = 0; j < ranks; ++j) {
        enum adcc_mpi_kind kind = adcc_mpi_kind_of(k->rtypes[j], Call, comm);
        if (k->rcounts[j])
          adcc_mpi_copy(kind, bytes_at(drecv, (size_t)k->rdispls[j]),
                        bytes_at(in, (size_t)k->rdispls[j]),
                        (size_t)k->rcounts[j]);
      }
    free(in);
    release(k);
    return;
  }
  /* The adjoints of the sent blocks, end to end. */
  int *packed = zeroed(sizeof(int) * (size_t)(ranks ? ranks : 1), comm);
  size_t total = 0;
  for (int j = 0; j < ranks; ++j) {
    packed[j] = (int)total;
    if (k->scounts[j])
      total += adcc_mpi_size_of(adcc_mpi_kind_of(k->stypes[j], Call, comm)) *
               (size_t)k->scounts[j];
  }
  void *back = zeroed(total, comm);
  MPI_Alltoallw(in, k->rcounts, k->rdispls, k->rtypes, back, k->scounts,
                packed, k->stypes, comm);
  for (int j = 0; j < ranks; ++j) {
    if (k->scounts[j])
      adcc_mpi_add(adcc_mpi_kind_of(k->stypes[j], Call, comm),
                   bytes_at(dsend, (size_t)k->sdispls[j]),
                   bytes_at(back, (size_t)packed[j]), (size_t)k->scounts[j]);
    if (k->rcounts[j])
      adcc_mpi_zero(adcc_mpi_kind_of(k->rtypes[j], Call, comm),
                    bytes_at(drecv, (size_t)k->rdispls[j]),
                    (size_t)k->rcounts[j]);
  }
  free(in);
  free(back);
  free(packed);
  release(k);
}

/*--- MPI_Ialltoallw -------------------------------------------------------*/

static const char ICall[] = "MPI_Ialltoallw";

/* The wait of the program's request: the tangents' all-to-all. */
static void wait_tangents(struct adcc_mpi_pending *p) {
  MPI_Wait(&p->reverse, MPI_STATUS_IGNORE);
}

/* (Not among the point-to-point records whose adjoint messages the reverse
 * of a wait posts: the adjoint collective runs at the reverse of the
 * start.) */
static struct adcc_mpi_pending *begin(MPI_Request *request, MPI_Comm comm) {
  struct adcc_mpi_pending *p = adcc_mpi_start(request, 0);
  p->started = ADCC_MPI_IALLTOALLW;
  p->call = ICall;
  p->kind = ADCC_MPI_DOUBLE; /* (each block has its own) */
  p->comm = comm;
  return p;
}

int adcc_mpi_ialltoallw_fwd(const void *send, const void *dsend,
                            const int *scounts, const int *sdispls,
                            const MPI_Datatype *stypes, void *recv, void *drecv,
                            const int *rcounts, const int *rdispls,
                            const MPI_Datatype *rtypes, MPI_Comm comm,
                            MPI_Request *request) {
  int rc = MPI_Ialltoallw(send, scounts, sdispls, stypes, recv, rcounts,
                          rdispls, rtypes, comm, request);
  int ranks = adcc_mpi_size(comm);
  struct adcc_mpi_pending *p = begin(request, comm);
  p->unpack = wait_tangents;
  /* (MPI reads the counts until the wait: both sides' in one array, freed
   * there with the zeros that stand for missing shadows.) */
  struct side r = {rcounts, rdispls, rtypes};
  int *active = active_counts(r, ranks, comm);
  size_t n = ranks > 0 ? (size_t)ranks : 1;
  int *counts = zeroed(sizeof(int) * 2 * n, comm);
  for (int j = 0; j < ranks; ++j)
    counts[j] = active[j];
  free(active);
  p->counts = counts;
  void *trecv = drecv;
  if (!drecv)
    trecv = p->temp = zeroed(extent(r, counts, ranks, comm), comm);
  if (send == MPI_IN_PLACE) {
    MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, trecv, counts, rdispls,
                   rtypes, comm, &p->reverse);
    return rc;
  }
  struct side s = {scounts, sdispls, stypes};
  active = active_counts(s, ranks, comm);
  for (int j = 0; j < ranks; ++j)
    counts[ranks + j] = active[j];
  free(active);
  const void *tsend = dsend;
  if (!dsend)
    tsend = p->sent = zeroed(extent(s, counts + ranks, ranks, comm), comm);
  MPI_Ialltoallw(tsend, counts + ranks, sdispls, stypes, trecv, counts, rdispls,
                 rtypes, comm, &p->reverse);
  return rc;
}

int adcc_mpi_ialltoallw_aug(const void *send, void *dsend, const int *scounts,
                            const int *sdispls, const MPI_Datatype *stypes,
                            void *recv, void *drecv, const int *rcounts,
                            const int *rdispls, const MPI_Datatype *rtypes,
                            MPI_Comm comm, MPI_Request *request, void **tape) {
  struct adcc_mpi_pending *p = begin(request, comm);
  p->send = send;
  p->sent = dsend;
  p->dbuf = drecv;
  p->record = adcc_mpi_alltoallw_keep(send, scounts, sdispls, stypes, rcounts,
                                      rdispls, rtypes, comm);
  *tape = p;
  return MPI_Ialltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls,
                        rtypes, comm, request);
}

void adcc_mpi_ialltoallw_rev(struct adcc_mpi_pending *p) {
  adcc_mpi_alltoallw_rev(p->send, p->sent, p->dbuf, p->comm, p->record);
  p->record = NULL;
}
