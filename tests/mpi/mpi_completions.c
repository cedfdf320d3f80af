/* Derivatives through the MPI calls that complete some of a set of
 * requests, and through the in-place forms of the gathering collectives:
 * MPI_Test polled until it completes a receive (and a send), MPI_Waitany
 * completing a halo exchange one request at a time, MPI_Waitsome looping
 * until all are done, MPI_Testany, MPI_Testsome and MPI_Testall polled
 * likewise, then MPI_Gather and MPI_Scatter with MPI_IN_PLACE at
 * the root and MPI_Allgather with MPI_IN_PLACE on every rank; forward and
 * reverse mode on every rank, checked against central differences of the
 * whole program and against each other (mpi_check.h). Run with 2 or more
 * ranks. */
#include "mpi_check.h"

enum { N = 4, MAXP = 8 };

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static void neighbours(int *left, int *right) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  *right = (rank + 1) % size;
  *left = (rank + size - 1) % size;
}

/* A ring message whose receive and send are polled with MPI_Test. */
double ring_test(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double out[N], in[N];
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[(i + 1) % n];
  MPI_Request rq, sq;
  MPI_Irecv(in, n, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &rq);
  MPI_Isend(out, n, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &sq);
  int got = 0, sent = 0, polls = 0;
  while (!got || !sent) {
    MPI_Status st;
    if (!got)
      MPI_Test(&rq, &got, &st);
    if (!sent)
      MPI_Test(&sq, &sent, MPI_STATUS_IGNORE);
    ++polls;
  }
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += cos(in[i]) * x[i] + (polls > 0 ? 0.5 : 1.0) * in[i] * in[i];
  return y;
}

/* A halo exchange whose four requests complete through MPI_Waitany, one at
 * a time, in whatever order they finish; an integer message beside them
 * carries no derivative. */
double halo_waitany(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double from_left[2], from_right[2];
  int tag_left = 0, mine = 7;
  MPI_Request req[5];
  MPI_Irecv(from_left, 2, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(from_right, 2, MPI_DOUBLE, right, 22, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&x[n - 2], 2, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&x[0], 2, MPI_DOUBLE, left, 22, MPI_COMM_WORLD, &req[3]);
  MPI_Irecv(&tag_left, 1, MPI_INT, left, 23, MPI_COMM_WORLD, &req[4]);
  MPI_Send(&mine, 1, MPI_INT, right, 23, MPI_COMM_WORLD);
  for (int done = 0; done < 5; ++done) {
    int which;
    MPI_Status st;
    MPI_Waitany(5, req, &which, &st);
  }
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += x[i] * (from_left[i % 2] - from_right[(i + 1) % 2]) * tag_left;
  return y + from_left[0] * from_right[1];
}

/* The same exchange completed by MPI_Waitsome until nothing is left
 * (MPI_UNDEFINED), statuses ignored. */
double halo_waitsome(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double a[N], from_left[N], from_right[N];
  for (int i = 0; i < n; ++i)
    a[i] = sin(x[i]) + x[i];
  MPI_Request req[4];
  MPI_Irecv(from_left, n, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, n, MPI_DOUBLE, right, 31, MPI_COMM_WORLD, &req[1]);
  MPI_Irecv(from_right, n, MPI_DOUBLE, right, 32, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(a, n, MPI_DOUBLE, left, 32, MPI_COMM_WORLD, &req[3]);
  for (;;) {
    int count, which[4];
    MPI_Waitsome(4, req, &count, which, MPI_STATUSES_IGNORE);
    if (count == MPI_UNDEFINED)
      break;
  }
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += from_left[i] * from_right[(i + 1) % n] + x[i] * from_left[i];
  return y;
}

/* The same exchange polled: MPI_Testany for the first two requests to
 * complete, MPI_Testsome for the rest (statuses kept), and a second
 * exchange polled by MPI_Testall. */
double halo_tests(double *x, int n) {
  int left, right;
  neighbours(&left, &right);
  double a[N], from_left[N], from_right[N];
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * x[i] - 0.5 * x[(i + 1) % n];
  MPI_Request req[4];
  MPI_Irecv(from_left, n, MPI_DOUBLE, left, 41, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, n, MPI_DOUBLE, right, 41, MPI_COMM_WORLD, &req[1]);
  MPI_Irecv(from_right, n, MPI_DOUBLE, right, 42, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(a, n, MPI_DOUBLE, left, 42, MPI_COMM_WORLD, &req[3]);
  for (int done = 0; done < 2;) {
    int which, flag;
    MPI_Status st;
    MPI_Testany(4, req, &which, &flag, &st);
    done += flag && which != MPI_UNDEFINED;
  }
  for (;;) {
    int count, which[4];
    MPI_Status sts[4];
    MPI_Testsome(4, req, &count, which, sts);
    if (count == MPI_UNDEFINED)
      break;
  }
  double b[N], back[N];
  for (int i = 0; i < n; ++i)
    b[i] = from_left[i] * from_right[i] + a[i];
  MPI_Request more[2];
  MPI_Irecv(back, n, MPI_DOUBLE, right, 43, MPI_COMM_WORLD, &more[0]);
  MPI_Isend(b, n, MPI_DOUBLE, left, 43, MPI_COMM_WORLD, &more[1]);
  for (int flag = 0; !flag;)
    MPI_Testall(2, more, &flag, MPI_STATUSES_IGNORE);
  double y = 0;
  for (int i = 0; i < n; ++i)
    y += back[i] * x[(i + 2) % n] + b[i];
  return y;
}

/* MPI_Gather and MPI_Scatter with MPI_IN_PLACE at the root (1): the root's
 * own block is already in place in the gathered (scattered) buffer. */
double gather_scatter_in_place(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int root = 1;
  double mine[2] = {x[0] * x[1], exp(0.3 * x[2])};
  double all[2 * MAXP];
  if (rank == root) {
    all[2 * root] = mine[0];
    all[2 * root + 1] = mine[1];
    MPI_Gather(MPI_IN_PLACE, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, root,
               MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) /* (the root transforms every block) */
      all[2 * r] = all[2 * r] * all[2 * r + 1] + r;
    MPI_Scatter(all, 2, MPI_DOUBLE, MPI_IN_PLACE, 2, MPI_DOUBLE, root,
                MPI_COMM_WORLD);
    mine[0] = all[2 * root];
    mine[1] = all[2 * root + 1];
  } else {
    MPI_Gather(mine, 2, MPI_DOUBLE, NULL, 2, MPI_DOUBLE, root,
               MPI_COMM_WORLD);
    MPI_Scatter(NULL, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, root,
                MPI_COMM_WORLD);
  }
  return mine[0] * x[3] + mine[1] * mine[0] + (n > 4 ? x[4] : 0);
}

/* MPI_Allgather with MPI_IN_PLACE on every rank: each rank's block is
 * written into the gathered buffer first. */
double allgather_in_place(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double all[2 * MAXP];
  all[2 * rank] = x[0] * x[1] + x[2];
  all[2 * rank + 1] = sin(x[3]);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_DOUBLE,
                MPI_COMM_WORLD);
  double y = 0;
  for (int r = 0; r < 2 * size; ++r)
    y += all[r] * all[r] * (1 + 0.1 * r) * x[(r + rank) % n];
  return y;
}


int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || size > MAXP) {
    if (rank == 0)
      printf("run with 2 to %d ranks\n", MAXP);
    MPI_Finalize();
    return 1;
  }
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("ring_test", ring_test, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("halo_waitany", halo_waitany, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("halo_waitsome", halo_waitsome, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("halo_tests", halo_tests, x, N, 1e-6, 1e-6);
  mpi_check_derivatives("gather_scatter_in_place", gather_scatter_in_place, x,
                        N, 1e-6, 1e-6);
  mpi_check_derivatives("allgather_in_place", allgather_in_place, x, N, 1e-6,
                        1e-6);
  return mpi_check_finish();
}
