/* Derivatives through the send modes other than MPI_Send: MPI_Ssend in a
 * ring (even ranks send first), MPI_Rsend and MPI_Irsend after the
 * receives were posted (a barrier between), MPI_Bsend with every rank
 * sending before it receives (only buffering makes that safe) with the
 * buffer attached outside the differentiated code and attached and
 * detached inside it, and MPI_Issend completed by MPI_Waitall; forward and
 * reverse mode on every rank, checked against central differences of the
 * whole program and against each other (mpi_check.h). Run with 2 or more
 * ranks. */
#include "mpi_check.h"

enum { N = 4 };

static void neighbours(int *rank, int *left, int *right) {
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  *right = (*rank + 1) % size;
  *left = (*rank + size - 1) % size;
}

static double combine(const double *x, const double *in, int n) {
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += sin(in[i]) * x[i] + 0.25 * in[i] * in[(i + 1) % n];
  return y;
}

double ssend_ring(double *x, int n) {
  int rank, left, right;
  neighbours(&rank, &left, &right);
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
  if (rank % 2 == 0) {
    MPI_Ssend(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
  }
  return combine(x, in, n);
}

/* The same on a communicator the function makes (MPI_Comm_dup,
 * MPI_Comm_split) and frees: those calls carry no derivative. */
double ssend_own_comm(double *x, int n) {
  MPI_Comm dup, all;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(dup, 0, 0, &all); /* (one colour, the same order) */
  int rank, size;
  MPI_Comm_rank(all, &rank);
  MPI_Comm_size(all, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = sin(x[i]) * x[(i + 1) % n];
  if (rank % 2 == 0) {
    MPI_Ssend(out, n, MPI_DOUBLE, right, 3, all);
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, all, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, all, MPI_STATUS_IGNORE);
    MPI_Ssend(out, n, MPI_DOUBLE, right, 3, all);
  }
  MPI_Comm_free(&all);
  MPI_Comm_free(&dup);
  return combine(x, in, n);
}

double rsend_ring(double *x, int n) {
  int rank, left, right;
  neighbours(&rank, &left, &right);
  double out[N], in[N], in2[N];
  for (int i = 0; i < n; ++i)
    out[i] = cos(x[i]) * x[(i + 2) % n];
  MPI_Request req[2];
  MPI_Irecv(in, n, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(in2, n, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &req[1]);
  MPI_Barrier(MPI_COMM_WORLD); /* (every receive is posted) */
  MPI_Rsend(out, n, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
  MPI_Request back;
  MPI_Irsend(x, n, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &back);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Wait(&back, MPI_STATUS_IGNORE);
  return combine(x, in, n) + combine(in2, x, n);
}

/* Every rank sends before it receives: with MPI_Bsend that is safe. */
double bsend_attached(double *x, int n) {
  int rank, left, right;
  neighbours(&rank, &left, &right);
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = exp(0.3 * x[i]) - x[(i + 3) % n];
  MPI_Bsend(out, n, MPI_DOUBLE, right, 6, MPI_COMM_WORLD);
  MPI_Recv(in, n, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return combine(x, in, n);
}

/* The same with its own buffer, attached and detached in the function. */
double bsend_own_buffer(double *x, int n) {
  static char space[4 * (MPI_BSEND_OVERHEAD + N * sizeof(double))];
  MPI_Buffer_attach(space, sizeof space);
  int rank, left, right;
  neighbours(&rank, &left, &right);
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[(i + 1) % n];
  MPI_Bsend(out, n, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
  MPI_Bsend(&out[1], n - 1, MPI_DOUBLE, left, 8, MPI_COMM_WORLD);
  double in2[N] = {0};
  MPI_Recv(in, n, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(in2, n - 1, MPI_DOUBLE, right, 8, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  void *detached;
  int size;
  MPI_Buffer_detach(&detached, &size);
  return combine(x, in, n) + 0.5 * combine(in2, x, n);
}

/* Messages far above the eager limit: every rank sends before it receives
 * (safe with MPI_Bsend), and so in the reverse sweep every rank sends the
 * adjoint of its receive before it receives the adjoint of its send. Until
 * 2026-12-06 that adjoint send blocked (MPI_Send) and the reverse sweep
 * hung. */
enum { LARGE = 20000 };
static double large_in[LARGE];
double bsend_large(double *x, int n) {
  int rank, left, right;
  neighbours(&rank, &left, &right);
  MPI_Bsend(x, n, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
  MPI_Recv(large_in, n, MPI_DOUBLE, left, 11, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += large_in[i] * x[i];
  return y;
}

/* y_r = sum_i x_{r-1}[i] x_r[i]: dJ/dx_r[i] = x_{r-1}[i] + x_{r+1}[i]. */
static void check_large(void) {
  static double x[LARGE], dx[LARGE], v[LARGE];
  static char space[2 * (MPI_BSEND_OVERHEAD + LARGE * sizeof(double))];
  int rank, left, right;
  neighbours(&rank, &left, &right);
  MPI_Buffer_attach(space, sizeof space);
  for (int i = 0; i < LARGE; ++i) {
    x[i] = rank + 0.001 * i;
    dx[i] = 0;
    v[i] = 1;
  }
  __enzyme_autodiff((void *)bsend_large, enzyme_dup, x, dx, enzyme_const,
                    LARGE);
  double t = __enzyme_fwddiff((void *)bsend_large, enzyme_dup, x, v,
                              enzyme_const, LARGE);
  void *detached;
  int size;
  MPI_Buffer_detach(&detached, &size);
  double want_t = 0;
  for (int i = 0; i < LARGE; i += 997)
    mpi_expect_close("bsend_large", i, dx[i], left + right + 0.002 * i, 1e-12);
  for (int i = 0; i < LARGE; ++i)
    want_t += left + 0.001 * i + x[i]; /* (x_{r-1}[i] + x_r[i]) */
  mpi_expect_close("bsend_large tangent", -1, t, want_t, 1e-12);
}

double issend_halo(double *x, int n) {
  int rank, left, right;
  neighbours(&rank, &left, &right);
  double from_left[N], from_right[N];
  MPI_Request req[4];
  MPI_Irecv(from_left, n, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(from_right, n, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req[1]);
  MPI_Issend(x, n, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &req[2]);
  MPI_Issend(x, n, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  return combine(x, from_left, n) * combine(from_right, x, n);
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, 8);
  if (rank < 0)
    return 0;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("ssend_ring", ssend_ring, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("ssend_own_comm", ssend_own_comm, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("rsend_ring", rsend_ring, x, N, 1e-6, 1e-6);
  static char space[64 * (MPI_BSEND_OVERHEAD + N * sizeof(double))];
  MPI_Buffer_attach(space, sizeof space);
  mpi_check_derivatives("bsend_attached", bsend_attached, x, N, 1e-6, 1e-6);
  void *detached;
  int size;
  MPI_Buffer_detach(&detached, &size);
  mpi_check_derivatives("bsend_own_buffer", bsend_own_buffer, x, N, 1e-6,
                        1e-6);
  mpi_check_derivatives("issend_halo", issend_halo, x, N, 1e-6, 1e-6);
  check_large();
  return mpi_check_finish();
}
