/* A persistent request made outside the differentiated call and started
 * inside it: adcc cannot know what it sends, so the start stops the
 * program with a message naming the call, rather than a message without
 * its derivatives (run-mpi.sh with MPI_EXPECT_ERROR: the run must fail and
 * print it). */
#include <mpi.h>
#include <stdio.h>

void __enzyme_autodiff(void *, ...);

static double buf[2];
static MPI_Request req;

double f(double *x) {
  buf[0] = x[0] * x[0];
  buf[1] = x[0];
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  return buf[0] + buf[1];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Send_init(buf, 2, MPI_DOUBLE, rank, 5, MPI_COMM_WORLD, &req);
  double x = 1.5, dx = 0;
  __enzyme_autodiff((void *)f, &x, &dx);
  printf("no error: %g\n", dx);
  MPI_Finalize();
  return 0;
}
