/* A derivative asked for here of a function defined in another file
 * (mpi_cross_tu_lib.c, compiled separately) that calls MPI: made when adcc
 * links the program, with the MPI rules (docs/api.md, docs/parallel.md).
 * run-mpi.sh compiles the two files with -c and links them. */
#include "mpi_check.h"

double energy(double *x, int n);
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[N], dx[N] = {0}, dir[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.4 + 0.3 * i - 0.2 * rank;
    dir[i] = 1 - 0.25 * i + 0.1 * rank;
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  double t =
      __enzyme_fwddiff((void *)energy, enzyme_dup, x, dir, enzyme_const, N);
  mpi_check("energy", energy, x, N, dx, dir, t);
  return mpi_check_finish();
}
