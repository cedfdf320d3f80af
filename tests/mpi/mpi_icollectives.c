/* Derivatives through the nonblocking collectives MPI_Igather,
 * MPI_Iscatter and MPI_Iallgather (in place too, float data beside double)
 * and MPI_Ireduce/MPI_Iallreduce with MPI_MIN and MPI_MAX (in place too,
 * floats too),
 * started together and waited for in different orders on even and odd
 * ranks; forward and reverse mode on every rank, checked against central
 * differences of the whole program and against each other (mpi_check.h),
 * and a maximum tied on every rank (the derivative goes to the lowest
 * rank, as for the blocking reductions). Run with 2 to 8 ranks. */
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

static int size_of(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/* Every rank's two values gathered at rank 1 by MPI_Igather, and at rank
 * 0 in place (its own block already there); the roots weigh what they
 * got, overlapped with local work. */
double igather(double *x, int n) {
  int rank = rank_of(), size = size_of();
  double mine[2] = {x[0] * x[1], sin(x[2]) + x[3]};
  double at1[2 * MAXP] = {0}, at0[2 * MAXP] = {0};
  at0[2 * rank] = x[1] * x[3];
  at0[2 * rank + 1] = exp(0.2 * x[0]);
  MPI_Request req[2];
  MPI_Igather(mine, 2, MPI_DOUBLE, at1, 2, MPI_DOUBLE, 1, MPI_COMM_WORLD,
              &req[0]);
  if (rank == 0)
    MPI_Igather(MPI_IN_PLACE, 2, MPI_DOUBLE, at0, 2, MPI_DOUBLE, 0,
                MPI_COMM_WORLD, &req[1]);
  else
    MPI_Igather(&at0[2 * rank], 2, MPI_DOUBLE, NULL, 2, MPI_DOUBLE, 0,
                MPI_COMM_WORLD, &req[1]);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += cos(x[i]);
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  for (int j = 0; rank < 2 && j < 2 * size; ++j)
    y += (rank == 1 ? at1[j] : at0[j]) * (1.0 + 0.1 * j) * x[j % n];
  return y;
}

/* Rank 0 scatters values it computes (two per rank) by MPI_Iscatter; rank
 * 1 scatters floats in place (its own block stays in its buffer). */
double iscatter(double *x, int n) {
  int rank = rank_of(), size = size_of();
  double all[2 * MAXP], got[2];
  float fall[2 * MAXP], fgot[2] = {0, 0};
  for (int j = 0; j < 2 * size; ++j) {
    all[j] = x[j % n] * (1.0 + 0.2 * j) + x[(j + 1) % n] * x[j % n];
    fall[j] = (float)(x[(j + 2) % n] * (0.5 + 0.1 * j));
  }
  MPI_Request req[2];
  MPI_Iscatter(all, 2, MPI_DOUBLE, got, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD,
               &req[0]);
  if (rank == 1)
    MPI_Iscatter(fall, 2, MPI_FLOAT, MPI_IN_PLACE, 2, MPI_FLOAT, 1,
                 MPI_COMM_WORLD, &req[1]);
  else
    MPI_Iscatter(NULL, 2, MPI_FLOAT, fgot, 2, MPI_FLOAT, 1, MPI_COMM_WORLD,
                 &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  const float *mine = rank == 1 ? &fall[2] : fgot;
  return got[0] * x[2] + got[1] * got[0] + mine[0] * x[0] + mine[1] * x[3];
}

/* MPI_Iallgather of two values per rank, and of a block in place. */
double iallgather(double *x, int n) {
  int rank = rank_of(), size = size_of();
  double mine[2] = {x[0] + x[1] * x[2], tanh(x[3])};
  double every[2 * MAXP], inplace[2 * MAXP] = {0};
  inplace[2 * rank] = x[2] * x[2];
  inplace[2 * rank + 1] = x[0] * x[3];
  MPI_Request req[2];
  MPI_Iallgather(mine, 2, MPI_DOUBLE, every, 2, MPI_DOUBLE, MPI_COMM_WORLD,
                 &req[0]);
  MPI_Iallgather(MPI_IN_PLACE, 2, MPI_DOUBLE, inplace, 2, MPI_DOUBLE,
                 MPI_COMM_WORLD, &req[1]);
  if (rank % 2) {
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  }
  double y = 0;
  for (int j = 0; j < 2 * size; ++j)
    y += every[j] * inplace[(j + 1) % (2 * size)] * x[(j + rank) % n];
  return y;
}

/* MPI_Iallreduce with MPI_MAX, MPI_Ireduce with MPI_MIN to rank 1 and an
 * in-place MPI_Iallreduce with MPI_MIN, waited for in different orders;
 * each element's extremum is on another rank. */
double iminmax(double *x, int n) {
  int rank = rank_of();
  double v[N], hi[N], w[2], lo[2] = {0, 0};
  for (int i = 0; i < n; ++i)
    v[i] = sin(3.0 * x[i] + 1.7 * i * rank) * (1.0 + 0.1 * x[(i + 1) % n]);
  w[0] = cos(2.0 * x[0] + rank);
  w[1] = x[1] * x[2] * (1 + 0.3 * rank * rank) - 0.2 * rank;
  double inplace[2] = {x[3] * cos(1.3 * rank + x[0]),
                       exp(0.3 * x[2]) * sin(rank + 0.5)};
  MPI_Request req[3];
  MPI_Iallreduce(v, hi, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req[0]);
  MPI_Ireduce(w, lo, 2, MPI_DOUBLE, MPI_MIN, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Iallreduce(MPI_IN_PLACE, inplace, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD,
                 &req[2]);
  if (rank % 2 == 0) {
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  } else {
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  }
  double y = lo[0] * lo[1] + inplace[0] * x[1] + inplace[1];
  for (int i = 0; i < n; ++i)
    y += hi[i] * x[i];
  return y;
}

/* Float data: MPI_Iallreduce with MPI_MAX of floats. */
double fmaxes(double *x, int n) {
  int rank = rank_of();
  float v[N], hi[N];
  for (int i = 0; i < n; ++i)
    v[i] = (float)(sin(2.0 * x[i] + 1.3 * i * rank) + 0.1 * x[(i + 1) % n]);
  MPI_Request req;
  MPI_Iallreduce(v, hi, n, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += hi[i] * x[i];
  return y;
}


/* The same value on every rank: MPI_Iallreduce(MPI_MAX) sends the whole
 * derivative to rank 0 (and forward mode takes rank 0's tangent). */
double tied(double *x, int n) {
  (void)n;
  double v = x[0] * x[0], m = 0;
  MPI_Request req;
  MPI_Iallreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  return m;
}

static void check_ties(void) {
  int rank = rank_of();
  double x[N] = {1.5, 0, 0, 0}, grad[N] = {0}, dir[N] = {1.0 + rank, 0, 0, 0};
  __enzyme_autodiff((void *)tied, enzyme_dup, x, grad, enzyme_const, N);
  /* d(sum over ranks of the max)/dx_0 on rank 0: size * 2 x_0 */
  mpi_expect_close("tied gradient", 0, grad[0], rank == 0 ? size_of() * 3.0 : 0,
                   0);
  double t =
      __enzyme_fwddiff((void *)tied, enzyme_dup, x, dir, enzyme_const, N);
  mpi_expect_close("tied tangent", 0, t, 3.0, 0);
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("igather", igather, x, N, 1e-6, 1e-6);
  /* (float data: a step float resolves) */
  mpi_check_derivatives("iscatter", iscatter, x, N, 1e-3, 1e-3);
  mpi_check_derivatives("iallgather", iallgather, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("iminmax", iminmax, x, N, 1e-6, 1e-6);
  /* (float data: a step float resolves) */
  mpi_check_derivatives("fmaxes", fmaxes, x, N, 1e-3, 1e-3);
  check_ties();
  return mpi_check_finish();
}
