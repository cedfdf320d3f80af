/* Derivatives through MPI point-to-point messages: blocking MPI_Send and
 * MPI_Recv (a wildcard source among them), MPI_Isend/MPI_Irecv completed by
 * MPI_Waitall and by separate MPI_Wait calls, integer messages (no
 * derivative) beside them, a chain whose ends talk to MPI_PROC_NULL
 * (non-blocking and MPI_Sendrecv), two messages of one tag whose waits
 * run in opposite orders on the two sides; forward and reverse mode on
 * every rank, checked against central differences of the whole program
 * and against each other (mpi_check.h). Run with 2 or more ranks. */
#include "mpi_check.h"

enum { N = 4 };

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

/* Blocking ring: even ranks send first, odd ranks receive first. */
double ring_blocking(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
  int steps = 3 + rank, steps_left;
  if (rank % 2 == 0) {
    MPI_Send(out, n, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
    MPI_Send(&steps, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&steps_left, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    MPI_Recv(in, n, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    MPI_Recv(&steps_left, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
    MPI_Send(&steps, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
  }
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += sin(in[i]) * x[i] * steps_left;
  return y;
}

/* Non-blocking exchange with both neighbours (a halo exchange), completed
 * by MPI_Waitall, then a second one by separate waits. */
double halo_nonblocking(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double from_left, from_right;
  MPI_Request req[4];
  MPI_Irecv(&from_left, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&from_right, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&x[n - 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&x[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  double u[N + 2];
  u[0] = from_left;
  u[n + 1] = from_right;
  for (int i = 0; i < n; ++i)
    u[i + 1] = x[i];
  double y = 0;
  for (int i = 1; i <= n; ++i)
    y += (u[i - 1] - 2 * u[i] + u[i + 1]) * (u[i - 1] - 2 * u[i] + u[i + 1]);
  double back[N], got[N];
  for (int i = 0; i < n; ++i)
    back[i] = exp(0.1 * y) * u[i + 1];
  MPI_Request r_recv, r_send;
  MPI_Irecv(got, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &r_recv);
  MPI_Isend(back, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &r_send);
  MPI_Wait(&r_send, MPI_STATUS_IGNORE);
  MPI_Wait(&r_recv, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i)
    y += got[i] * x[i];
  return y;
}

/* A chain, not a ring: the ends talk to MPI_PROC_NULL (nothing arrives,
 * nothing goes), blocking and non-blocking. */
double chain(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  double from_up[N] = {0}, from_down[N] = {0};
  MPI_Request req[4];
  MPI_Irecv(from_up, n, MPI_DOUBLE, up, 4, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(from_down, n, MPI_DOUBLE, down, 5, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(x, n, MPI_DOUBLE, down, 4, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(x, n, MPI_DOUBLE, up, 5, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  double sq[N], back[N] = {0};
  for (int i = 0; i < n; ++i)
    sq[i] = x[i] * from_up[i] + from_down[i] * from_down[i];
  MPI_Sendrecv(sq, n, MPI_DOUBLE, down, 6, back, n, MPI_DOUBLE, up, 6,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += sq[i] + back[i] * x[i];
  return y;
}

/* Two messages of one source, destination and tag whose receives complete
 * in the other order than their sends (separate waits): the adjoint
 * messages must still pair as the primal's did. */
double crossed_waits(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double a[2] = {x[0] * x[1], sin(x[2])}, b[2];
  MPI_Request s1, s2, q1, q2;
  MPI_Irecv(&b[0], 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &q1);
  MPI_Irecv(&b[1], 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &q2);
  MPI_Isend(&a[0], 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &s1);
  MPI_Isend(&a[1], 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &s2);
  MPI_Wait(&s1, MPI_STATUS_IGNORE);
  MPI_Wait(&s2, MPI_STATUS_IGNORE);
  MPI_Wait(&q2, MPI_STATUS_IGNORE);
  MPI_Wait(&q1, MPI_STATUS_IGNORE);
  return b[0] * x[3] + 3 * b[1] * b[1] + (n > 4 ? x[4] : 0);
}

static void direction(double *dir) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < N; ++i)
    dir[i] = 0.3 + 0.1 * i - 0.05 * rank;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  double dir[N], grad[N] = {0}, grad2[N] = {0};
  direction(dir);
  __enzyme_autodiff((void *)ring_blocking, enzyme_dup, x, grad, enzyme_const,
                    N);
  double t = __enzyme_fwddiff((void *)ring_blocking, enzyme_dup, x, dir,
                              enzyme_const, N);
  mpi_check("ring_blocking", ring_blocking, x, N, grad, dir, t);
  __enzyme_autodiff((void *)halo_nonblocking, enzyme_dup, x, grad2,
                    enzyme_const, N);
  t = __enzyme_fwddiff((void *)halo_nonblocking, enzyme_dup, x, dir,
                       enzyme_const, N);
  mpi_check("halo_nonblocking", halo_nonblocking, x, N, grad2, dir, t);
  double grad3[N] = {0};
  __enzyme_autodiff((void *)chain, enzyme_dup, x, grad3, enzyme_const, N);
  t = __enzyme_fwddiff((void *)chain, enzyme_dup, x, dir, enzyme_const, N);
  mpi_check("chain", chain, x, N, grad3, dir, t);
  double grad4[N] = {0};
  __enzyme_autodiff((void *)crossed_waits, enzyme_dup, x, grad4, enzyme_const,
                    N);
  t = __enzyme_fwddiff((void *)crossed_waits, enzyme_dup, x, dir, enzyme_const,
                       N);
  mpi_check("crossed_waits", crossed_waits, x, N, grad4, dir, t);
  return mpi_check_finish();
}
