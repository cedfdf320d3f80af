/* Derivatives through MPI_Sendrecv_replace, persistent requests
 * (MPI_Send_init, MPI_Recv_init, MPI_Start, MPI_Startall, MPI_Request_free)
 * and the nonblocking collectives MPI_Ibcast, MPI_Ireduce and
 * MPI_Iallreduce, completed by MPI_Wait, MPI_Waitall and MPI_Test; forward
 * and reverse mode on every rank, checked against central differences of
 * the whole program and against each other (mpi_check.h). Run with 2 or
 * more ranks. */
#include "mpi_check.h"

enum { N = 4, MAXP = 8 };

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static int rank_of(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

static void neighbours(int *left, int *right) {
  int rank = rank_of(), size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  *right = (rank + 1) % size;
  *left = (rank + size - 1) % size;
}

/* A ring shift in one buffer: each rank's values go right, the left
 * neighbour's replace them; twice, with the second shift's status kept. */
double ring_replace(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double a[N];
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * x[(i + 1) % n] + sin(x[i]);
  MPI_Sendrecv_replace(a, n, MPI_DOUBLE, right, 51, left, 51, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  double y = 0;
  for (int i = 0; i < n; ++i) {
    y += a[i] * x[i];
    a[i] = a[i] * a[i] + x[(i + 2) % n];
  }
  MPI_Status st;
  MPI_Sendrecv_replace(a, n, MPI_DOUBLE, left, 52, MPI_ANY_SOURCE, 52,
                       MPI_COMM_WORLD, &st);
  for (int i = 0; i < n; ++i)
    y += cos(a[i]) * x[(i + 1) % n];
  return y;
}

/* A time loop whose halo exchange uses persistent requests made once,
 * started every step by MPI_Startall and completed by MPI_Waitall, with an
 * integer persistent message beside them started by MPI_Start and waited
 * for by MPI_Wait; freed at the end. */
double persistent_halo(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double u[N], edge[2], halo[2];
  int count_out = 3, count_in = 0;
  for (int i = 0; i < n; ++i)
    u[i] = x[i];
  MPI_Request req[4], ints;
  MPI_Recv_init(&halo[0], 1, MPI_DOUBLE, left, 61, MPI_COMM_WORLD, &req[0]);
  MPI_Recv_init(&halo[1], 1, MPI_DOUBLE, right, 62, MPI_COMM_WORLD, &req[1]);
  MPI_Send_init(&edge[1], 1, MPI_DOUBLE, right, 61, MPI_COMM_WORLD, &req[2]);
  MPI_Send_init(&edge[0], 1, MPI_DOUBLE, left, 62, MPI_COMM_WORLD, &req[3]);
  MPI_Send_init(&count_out, 1, MPI_INT, right, 63, MPI_COMM_WORLD, &ints);
  double y = 0;
  for (int step = 0; step < 3; ++step) {
    edge[0] = u[0];
    edge[1] = u[n - 1];
    MPI_Startall(4, req);
    MPI_Start(&ints);
    MPI_Recv(&count_in, 1, MPI_INT, left, 63, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MPI_Wait(&ints, MPI_STATUS_IGNORE);
    double next[N];
    for (int i = 0; i < n; ++i) {
      double l = i > 0 ? u[i - 1] : halo[0];
      double r = i + 1 < n ? u[i + 1] : halo[1];
      next[i] = u[i] + 0.2 * (l - 2 * u[i] + r) + 0.05 * sin(u[i]) * count_in;
    }
    for (int i = 0; i < n; ++i)
      u[i] = next[i];
    y += halo[0] * halo[1];
  }
  for (int i = 0; i < 4; ++i)
    MPI_Request_free(&req[i]);
  MPI_Request_free(&ints);
  for (int i = 0; i < n; ++i)
    y += u[i] * u[i] * (1 + 0.1 * i);
  return y;
}

/* A persistent send and receive started one at a time and polled by
 * MPI_Test. */
double persistent_test(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = exp(0.3 * x[i]) * x[(i + 1) % n];
  MPI_Request s, r;
  MPI_Send_init(out, n, MPI_DOUBLE, right, 71, MPI_COMM_WORLD, &s);
  MPI_Recv_init(in, n, MPI_DOUBLE, left, 71, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Start(&s);
  for (int got = 0, sent = 0; !got || !sent;) {
    if (!got)
      MPI_Test(&r, &got, MPI_STATUS_IGNORE);
    if (!sent)
      MPI_Test(&s, &sent, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += in[i] * in[i] * x[i] + in[i];
  return y;
}

/* MPI_Ibcast from rank 1 of values computed there, overlapped with local
 * work; float data in a second broadcast, waited for together. */
double ibcast(double *x, int n) {
  const int root = 1;
  double v[N], local = 0;
  float f[2];
  for (int i = 0; i < n; ++i)
    v[i] = x[i] * x[(i + 1) % n];
  f[0] = (float)(x[0] + x[3]);
  f[1] = (float)(x[1] * x[2]);
  MPI_Request req[2];
  MPI_Ibcast(v, n, MPI_DOUBLE, root, MPI_COMM_WORLD, &req[0]);
  MPI_Ibcast(f, 2, MPI_FLOAT, 0, MPI_COMM_WORLD, &req[1]);
  for (int i = 0; i < n; ++i)
    local += sin(x[i]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double y = local;
  for (int i = 0; i < n; ++i)
    y += v[i] * x[i] * (1 + f[i % 2]);
  return y;
}

/* MPI_Iallreduce (and one in place) and MPI_Ireduce to rank 1, started
 * together; ranks wait for them in different orders, and a blocking
 * MPI_Allreduce sits between the start and the wait on some ranks and
 * after it on others (the adjoints must still start in one order on every
 * rank). */
double ireductions(double *x, int n) {
  int rank = rank_of();
  const int root = 1;
  double part[N], total[N], at_root[2] = {0, 0}, sq[2], both = 0;
  for (int i = 0; i < n; ++i)
    part[i] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
  sq[0] = x[0] * x[2];
  sq[1] = sin(x[1]);
  double inplace[2] = {x[3] * x[0], exp(0.1 * x[2])};
  MPI_Request req[3];
  MPI_Iallreduce(part, total, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                 &req[0]);
  MPI_Ireduce(sq, at_root, 2, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD,
              &req[1]);
  MPI_Iallreduce(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_SUM,
                 MPI_COMM_WORLD, &req[2]);
  if (rank % 2 == 0) {
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    double mine = x[0] * total[1];
    MPI_Allreduce(&mine, &both, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
  } else {
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    double mine = x[0] * total[1];
    MPI_Allreduce(&mine, &both, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double y = both * x[2] + at_root[0] * at_root[1] + inplace[0] * inplace[1];
  for (int i = 0; i < n; ++i)
    y += total[i] * x[i];
  return y;
}


int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("ring_replace", ring_replace, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("persistent_halo", persistent_halo, x, N, 1e-6,
                        1e-6);
  mpi_check_derivatives("persistent_test", persistent_test, x, N, 1e-6,
                        1e-6);
  /* (float data: a step float resolves) */
  mpi_check_derivatives("ibcast", ibcast, x, N, 1e-3, 1e-3);
  mpi_check_derivatives("ireductions", ireductions, x, N, 1e-6, 1e-6);
  return mpi_check_finish();
}
