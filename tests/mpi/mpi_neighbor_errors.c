/* Reverse mode of a neighbourhood collective on a communicator whose
 * topology is a distributed graph (a ring in one direction: the neighbour
 * lists are not symmetric) stops the program with a message rather than
 * giving a wrong gradient (run-mpi.sh with MPI_EXPECT_ERROR: the run must
 * fail and print it); forward mode differentiates it. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static MPI_Comm ring;

double f(double *x) {
  double got;
  MPI_Neighbor_alltoall(x, 1, MPI_DOUBLE, &got, 1, MPI_DOUBLE, ring);
  return got * got;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int from = (rank + size - 1) % size, to = (rank + 1) % size;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1,
                                 &to, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring);
  double x = 1.5 + rank, dx = 1;
  /* forward: the tangent of got^2 is 2 got dgot, got = the left rank's x */
  double t = __enzyme_fwddiff((void *)f, &x, &dx);
  if (fabs(t - 2 * (1.5 + from)) > 1e-12) {
    printf("FAIL: tangent %g\n", t);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  dx = 0;
  __enzyme_autodiff((void *)f, &x, &dx);
  printf("no error: %g\n", dx);
  MPI_Finalize();
  return 0;
}
