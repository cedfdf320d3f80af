/* A datatype or operator without a derivative rule that the compiler
 * cannot see at the call (held in a variable; at -O0 it is loaded) stops
 * the program at the call with a message naming it, rather than giving a
 * wrong derivative (run-mpi.sh with MPI_EXPECT_ERROR: the run must fail and
 * print it). */
#include <mpi.h>
#include <stdio.h>

void __enzyme_autodiff(void *, ...);

static MPI_Op op_of(int k) { return k ? MPI_PROD : MPI_SUM; }

double f(double *x, int k) {
  double y;
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, op_of(k), MPI_COMM_WORLD);
  return y * y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x = 1.5, dx = 0;
  volatile int k = 1;
  __enzyme_autodiff((void *)f, &x, &dx, k);
  printf("no error: %g\n", dx);
  MPI_Finalize();
  return 0;
}
