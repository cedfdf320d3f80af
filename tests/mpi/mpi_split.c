/* Split reverse mode (__enzyme_augmentfwd, then __enzyme_reverse with its
 * tape) of code with non-blocking messages and a reduction: the adjoint
 * messages go when __enzyme_reverse runs, on every rank. The loss is the
 * same on every rank (MPI_Allreduce), so rank 0 alone seeds it: J = sum over
 * r of x_{r-1} x_r on a ring, dJ/dx_r = x_{r-1} + x_{r+1}. */
#include "mpi_check.h"

extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double ring(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double got, y;
  MPI_Request r[2];
  MPI_Irecv(&got, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
            &r[0]);
  MPI_Isend(x, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  double v = got * x[0];
  MPI_Allreduce(&v, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = 1 + 0.5 * rank, dx = 0;
  void *tape = __enzyme_augmentfwd((void *)ring, enzyme_dup, &x, &dx);
  __enzyme_reverse((void *)ring, enzyme_dup, &x, &dx, rank == 0 ? 1.0 : 0.0,
                   tape);
  double want =
      (1 + 0.5 * ((rank + size - 1) % size)) + (1 + 0.5 * ((rank + 1) % size));
  mpi_expect_close("split dx", 0, dx, want, 1e-14);
  return mpi_check_finish();
}
