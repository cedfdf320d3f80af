/* Derivatives through MPI_Alltoall and MPI_Ialltoall, MPI_Scan and MPI_Exscan
 * (sum), MPI_Reduce_scatter_block and MPI_Reduce_scatter (sum), MPI_Gatherv,
 * MPI_Scatterv and MPI_Allgatherv (blocks of several sizes with gaps
 * between them), each also with MPI_IN_PLACE; and through messages
 * received after MPI_Probe or MPI_Iprobe with the count MPI_Get_count
 * gives, and sent by MPI_Ibsend. Forward and reverse mode, checked against
 * central differences of the whole program and against each other
 * (mpi_check.h). Run with 2 to 4 ranks. */
#include "mpi_check.h"

#include <string.h>

enum { N = 8, MAXP = 4 };

static int rank_of(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

static int size_of(void) {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/* Two elements to every rank, and the same in place. */
double alltoall(double *x, int n) {
  int rank = rank_of(), p = size_of();
  double y[N], got[N], buf[N];
  for (int i = 0; i < 2 * p; ++i)
    y[i] = sin(x[i]) * (rank + 1) + x[(i + 1) % n];
  MPI_Alltoall(y, 2, MPI_DOUBLE, got, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < 2 * p; ++i)
    buf[i] = got[i] * x[i];
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_DOUBLE,
               MPI_COMM_WORLD);
  /* nonblocking, one in place, waited for in different orders on even and
   * odd ranks */
  double z[N], zgot[N], zin[N];
  for (int i = 0; i < 2 * p; ++i) {
    z[i] = buf[i] * x[(i + 2) % n];
    zin[i] = got[i] + x[i];
  }
  MPI_Request reqs[2];
  MPI_Ialltoall(z, 2, MPI_DOUBLE, zgot, 2, MPI_DOUBLE, MPI_COMM_WORLD,
                &reqs[0]);
  MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, zin, 2, MPI_DOUBLE,
                MPI_COMM_WORLD, &reqs[1]);
  if (rank % 2) {
    MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  }
  double s = 0;
  for (int i = 0; i < 2 * p; ++i)
    s +=
        got[i] * got[i] * (i + 1) + buf[i] * cos(x[i]) + zgot[i] * zin[i] * 0.5;
  return s + x[n - 1] * x[0];
}

/* Inclusive and exclusive prefix sums, apart and in place. Rank 0's
 * receive buffer of MPI_Exscan is not written: its value (and derivative)
 * stays. */
double prefixes(double *x, int n) {
  int rank = rank_of();
  double y[4], s[4], e[4], in[4], ein[4];
  for (int i = 0; i < 4; ++i) {
    y[i] = x[i] * x[i] + x[i + 4];
    e[i] = 0.5 * x[i];
    in[i] = x[i] * x[i + 4];
    ein[i] = x[i + 4] * (rank + 1);
  }
  MPI_Scan(y, s, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(y, e, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(MPI_IN_PLACE, in, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(MPI_IN_PLACE, ein, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double r = 0;
  for (int i = 0; i < 4; ++i)
    r += s[i] * cos(x[i]) + e[i] * e[i] * (i + 1) + in[i] * x[i + 4] +
         ein[i] * ein[i] * 0.5;
  (void)n;
  return r;
}

/* Reduce-scatters of equal blocks of 2 and of blocks of r + 1 elements. */
double reduce_scatters(double *x, int n) {
  int rank = rank_of(), p = size_of();
  double y[N], got[2], inplace[N];
  for (int i = 0; i < 2 * p; ++i) {
    y[i] = x[i] * x[(i + 3) % n] + rank;
    inplace[i] = sin(x[i]);
  }
  MPI_Reduce_scatter_block(y, got, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_SUM,
                           MPI_COMM_WORLD);
  int counts[MAXP];
  int total = 0;
  for (int r = 0; r < p; ++r)
    total += counts[r] = r + 1;
  double z[N + 2], v[MAXP], vin[N + 2];
  for (int i = 0; i < total; ++i) {
    z[i] = x[i % n] * (i + 1) + x[(i + 1) % n] * x[(i + 1) % n];
    vin[i] = x[i % n] * x[(i + 5) % n];
  }
  MPI_Reduce_scatter(z, v, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter(MPI_IN_PLACE, vin, counts, MPI_DOUBLE, MPI_SUM,
                     MPI_COMM_WORLD);
  double s = got[0] * got[1] + inplace[0] * x[1] + inplace[1] * inplace[1];
  for (int i = 0; i <= rank; ++i)
    s += v[i] * v[i] * 0.25 + vin[i] * x[i];
  return s;
}

/* Blocks of r + 1 elements at displacements with a gap of one element
 * between them: the gaps keep their values. */
static void blocks(int p, int *counts, int *displs) {
  for (int r = 0; r < p; ++r) {
    counts[r] = r + 1;
    displs[r] = r * (r + 1) / 2 + r;
  }
}

double vgathers(double *x, int n) {
  int rank = rank_of(), p = size_of();
  int counts[MAXP], displs[MAXP];
  blocks(p, counts, displs);
  int extent = displs[p - 1] + counts[p - 1];
  int root = 1 % p;
  /* gatherv to root, in place at root 0 */
  double mine[MAXP], all[16], all2[16];
  for (int i = 0; i < counts[rank]; ++i)
    mine[i] = x[i] * x[i + 4];
  for (int i = 0; i < extent; ++i)
    all[i] = all2[i] = x[i % n] * 0.5;
  MPI_Gatherv(mine, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
              root, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < counts[0]; ++i)
      all2[displs[0] + i] = cos(x[i]);
    MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all2, counts, displs,
                MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    MPI_Gatherv(mine, counts[rank], MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
  }
  /* scatterv from the root of what it gathered, in place at root 0 */
  double spread[16], back[MAXP], back2[MAXP];
  if (rank == root)
    for (int i = 0; i < extent; ++i)
      spread[i] = all[i] * all[(i + 1) % extent];
  MPI_Scatterv(spread, counts, displs, MPI_DOUBLE, back, counts[rank],
               MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < counts[rank]; ++i)
    back2[i] = x[i + 2] * 3;
  if (rank == 0)
    MPI_Scatterv(all2, counts, displs, MPI_DOUBLE, MPI_IN_PLACE, 0,
                 MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  else
    MPI_Scatterv(NULL, NULL, NULL, MPI_DOUBLE, back2, counts[rank], MPI_DOUBLE,
                 0, MPI_COMM_WORLD);
  /* allgatherv, and in place */
  double every[16], every2[16];
  for (int i = 0; i < extent; ++i)
    every[i] = every2[i] = x[(i + 3) % n];
  MPI_Allgatherv(back, counts[rank], MPI_DOUBLE, every, counts, displs,
                 MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < counts[rank]; ++i)
    every2[displs[rank] + i] = back2[i] * x[i];
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, every2, counts, displs,
                 MPI_DOUBLE, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < extent; ++i)
    s += every[i] * every[i] * (rank + 1) + every2[i] * (i + 1) +
         (rank == root ? all[i] * 0.1 : 0) +
         (rank == 0 ? all2[i] * all2[i] : 0);
  for (int i = 0; i < counts[rank]; ++i)
    s += back[i] * back2[i];
  return s;
}

/* The same collectives in float. */
double floats(double *x, int n) {
  int rank = rank_of(), p = size_of();
  float y[N], got[N], s[4], rs[2];
  for (int i = 0; i < 2 * p; ++i)
    y[i] = (float)(x[i] * x[(i + 1) % n]);
  MPI_Alltoall(y, 2, MPI_FLOAT, got, 2, MPI_FLOAT, MPI_COMM_WORLD);
  MPI_Scan(got, s, 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(y, rs, 2, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  int counts[MAXP], displs[MAXP];
  blocks(p, counts, displs);
  float mine[MAXP], every[16] = {0};
  for (int i = 0; i < counts[rank]; ++i)
    mine[i] = (float)sin(x[i + 1]);
  MPI_Allgatherv(mine, counts[rank], MPI_FLOAT, every, counts, displs,
                 MPI_FLOAT, MPI_COMM_WORLD);
  double r = 0;
  for (int i = 0; i < 4; ++i)
    r += (double)s[i] * s[i] * 0.5 + (double)got[i] * x[i];
  for (int i = 0; i < 16; ++i)
    r += (double)every[i] * (i + 1) * 0.1;
  return r + (double)rs[0] * rs[1];
}

/* A ring of messages whose receiver learns the count by MPI_Probe or by
 * polling MPI_Iprobe, and a ring of MPI_Ibsend (the buffer attached by
 * main). The result is scaled by the counts: a count of the packed
 * message (twice the elements) in forward mode would double the tangent. */
double probes(double *x, int n) {
  int rank = rank_of(), p = size_of();
  int right = (rank + 1) % p, left = (rank + p - 1) % p;
  double out[3], in[8];
  memset(in, 0, sizeof in);
  for (int i = 0; i < 3; ++i)
    out[i] = x[i] * x[i + 3];
  MPI_Request req;
  MPI_Isend(out, 3, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req);
  MPI_Status st;
  MPI_Probe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  MPI_Recv(in, count, MPI_DOUBLE, st.MPI_SOURCE, 7, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < count; ++i)
    s += in[i] * in[i] * (i + 1);
  s *= count;
  /* Iprobe polled; an integer message beside it */
  double out2[2] = {sin(x[6]), x[7] * x[0]}, in2[8] = {0};
  int tag_int = rank, got_int = -1;
  MPI_Isend(out2, 2, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &req);
  MPI_Sendrecv(&tag_int, 1, MPI_INT, right, 9, &got_int, 1, MPI_INT, left, 9,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int flag = 0;
  while (!flag)
    MPI_Iprobe(right, 8, MPI_COMM_WORLD, &flag, &st);
  int count2 = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &count2);
  MPI_Recv(in2, count2, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &st);
  int after = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &after);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < count2; ++i)
    s += in2[i] * x[i] * count2 * after;
  /* MPI_Ibsend in a ring, every rank sending first */
  double out3[2] = {x[1] * x[2], cos(x[5])}, in3[2];
  MPI_Ibsend(out3, 2, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req);
  MPI_Recv(in3, 2, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  s += in3[0] * in3[1] + got_int * x[4];
  (void)n;
  return s;
}

/* Messages whose send buffer holds no derivative on the sending rank
 * (constants) into buffers that do on the receiving one: the message
 * still carries (zero) tangents, as the receiver expects. Until
 * 2026-12-06 forward mode sent such a message unpacked, and the receiver
 * took half of it for values and half for tangents. */
double constant_sender(double *x, int n) {
  int rank = rank_of(), p = size_of();
  int right = (rank + 1) % p, left = (rank + p - 1) % p;
  static const double boundary[2] = {1.5, -0.5};
  double in[2] = {x[0], x[1]};
  if (rank % 2 == 0) {
    MPI_Send(boundary, 2, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
    MPI_Recv(in, 2, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, 2, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(boundary, 2, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
  }
  double total = 0, c = 2.0;
  MPI_Allreduce(&c, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  (void)n;
  return in[0] * x[2] + in[1] * x[3] * x[3] + total * x[4];
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  static char attached[1 << 16];
  MPI_Buffer_attach(attached, sizeof attached);
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.15 * i - 0.11 * rank * (i % 3 ? 1 : -1);
  mpi_check_derivatives("alltoall", alltoall, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("prefixes", prefixes, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("reduce_scatters", reduce_scatters, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("vgathers", vgathers, x, N, 1e-6, 1e-6);
  /* (float: a looser finite-difference check) */
  mpi_check_derivatives("floats", floats, x, N, 1e-3, 1e-3);
  mpi_check_derivatives("probes", probes, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("constant_sender", constant_sender, x, N, 1e-6, 1e-6);
  void *b;
  int bytes;
  MPI_Buffer_detach(&b, &bytes);
  return mpi_check_finish();
}
