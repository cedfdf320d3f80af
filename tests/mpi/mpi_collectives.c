/* Derivatives through MPI collectives: MPI_Bcast, MPI_Reduce and
 * MPI_Allreduce by MPI_SUM, MPI_MIN and MPI_MAX (MPI_IN_PLACE too),
 * MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Barrier, in double and float,
 * forward and reverse mode, checked against central differences of the
 * whole program and against each other (mpi_check.h). Run with 2 or more
 * ranks. */
#include "mpi_check.h"

enum { N = 4, MAXP = 8 };

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

/* Root 0's values broadcast; the sum and the elementwise maximum and
 * minimum over the ranks, at the root and everywhere. */
double reductions(double *x, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double b[N];
  for (int i = 0; i < n; ++i)
    b[i] = x[i] * x[i];
  MPI_Bcast(b, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double local[N], sum[N], mx[N], mn[N];
  for (int i = 0; i < n; ++i)
    local[i] = sin(x[i]) + b[i] * x[i];
  MPI_Reduce(local, sum, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(local, mx, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(local, mn, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += mx[i] * (i + 1) - mn[i] * mn[i] + (rank == 0 ? sum[i] * sum[i] : 0);
  /* in place: the sum of every rank's y, and its maximum at the root */
  double t[2] = {y, y * x[0]};
  MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double m = y;
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&m, NULL, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return 0.1 * t[0] * t[1] + (rank == 0 ? m : 0);
}

/* Gather at root 1 % P, scatter back something made of all values,
 * allgather in float. */
double gathers(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = 1 % size;
  double all[N * MAXP], mine[N];
  MPI_Gather(x, n, MPI_DOUBLE, all, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
  double spread[N * MAXP];
  if (rank == root)
    for (int i = 0; i < n * size; ++i)
      spread[i] = all[i] * all[(i + 1) % (n * size)];
  MPI_Scatter(spread, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
  float f[N], fall[N * MAXP];
  for (int i = 0; i < n; ++i)
    f[i] = (float)(x[i] * mine[i]);
  MPI_Allgather(f, n, MPI_FLOAT, fall, n, MPI_FLOAT, MPI_COMM_WORLD);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += mine[i] * cos(x[i]);
  for (int i = 0; i < n * size; ++i)
    y += (double)fall[i] * (rank + 1) * 0.5;
  return y;
}

/* Ties: every rank holds the same values; the maximum's derivative goes to
 * the lowest rank (MPI_MAXLOC's choice), the minimum's too. */
double ties(double *x, int n) {
  double mx[N], mn[N];
  MPI_Allreduce(x, mx, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(x, mn, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += mx[i] + 2 * mn[i];
  return y;
}

static void check_ties(int rank, int size) {
  double x[N], dx[N] = {0}, dir[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 1.5 + i;
    dir[i] = 1 + rank;
  }
  __enzyme_autodiff((void *)ties, enzyme_dup, x, dx, enzyme_const, N);
  double t =
      __enzyme_fwddiff((void *)ties, enzyme_dup, x, dir, enzyme_const, N);
  /* J = sum over ranks of (max + 2 min): d/dx_0 = 3 P on rank 0, else 0 */
  for (int i = 0; i < N; ++i)
    mpi_expect_close("ties", i, dx[i], rank == 0 ? 3.0 * size : 0, 1e-14);
  mpi_expect_close("ties tangent", -1, t, 3.0 * N, 1e-14);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP) {
    if (rank == 0)
      printf("at most %d ranks\n", MAXP);
    MPI_Finalize();
    return 1;
  }
  double x[N], dir[N], grad[N] = {0}, grad2[N] = {0};
  for (int i = 0; i < N; ++i) {
    /* distinct values on each rank: no ties of MPI_MIN/MPI_MAX */
    x[i] = 0.3 + 0.2 * i + 0.37 * rank * (i % 2 ? 1 : -1);
    dir[i] = 0.5 - 0.1 * i + 0.07 * rank;
  }
  __enzyme_autodiff((void *)reductions, enzyme_dup, x, grad, enzyme_const, N);
  double t =
      __enzyme_fwddiff((void *)reductions, enzyme_dup, x, dir, enzyme_const, N);
  mpi_check("reductions", reductions, x, N, grad, dir, t);
  __enzyme_autodiff((void *)gathers, enzyme_dup, x, grad2, enzyme_const, N);
  t = __enzyme_fwddiff((void *)gathers, enzyme_dup, x, dir, enzyme_const, N);
  /* (float: a looser finite-difference check) */
  mpi_check_with("gathers", gathers, x, N, grad2, dir, t, 1e-3, 1e-3);
  check_ties(rank, size);
  return mpi_check_finish();
}
