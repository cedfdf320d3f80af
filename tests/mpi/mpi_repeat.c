/* A gradient and a tangent of MPI code called 1000 times each: nothing the
 * derivatives start or make may outlive the call. After every reverse-mode
 * call no adjoint message sent from a kept copy (the adjoint of a blocking
 * receive) is left pending (adcc_mpi_kept_sends, a query of the runtime);
 * the communicators the function duplicates and frees are freed (a
 * communicator duplicated after the calls gets the handle number one
 * duplicated before them got: OpenMPI reuses freed numbers); the heap does
 * not grow from call 100 to call 1000; and MPI_Finalize returns. The
 * derivatives are checked against central differences too (mpi_check.h).
 * Run with 2 to 4 ranks. */
#include "mpi_check.h"

#include <malloc.h>

enum { N = 4, BIG = 2048, CALLS = 1000 };

int adcc_mpi_kept_sends(void);

/* A ring by blocking messages (large ones: a rendezvous), on a duplicated
 * communicator freed at the end; a halo by non-blocking ones; a sum. */
double step(double *x, int n) {
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (rank + 1) % p, left = (rank + p - 1) % p;
  MPI_Comm ring;
  MPI_Comm_dup(MPI_COMM_WORLD, &ring);
  double out[BIG], in[BIG];
  for (int i = 0; i < BIG; ++i)
    out[i] = x[i % n] * (1 + i % 7);
  if (rank % 2 == 0) {
    MPI_Send(out, BIG, MPI_DOUBLE, right, 1, ring);
    MPI_Recv(in, BIG, MPI_DOUBLE, left, 1, ring, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, BIG, MPI_DOUBLE, left, 1, ring, MPI_STATUS_IGNORE);
    MPI_Send(out, BIG, MPI_DOUBLE, right, 1, ring);
  }
  MPI_Comm_free(&ring);
  double halo[2], edge[2] = {x[0] * x[1], sin(x[n - 1])};
  MPI_Request reqs[4];
  MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &reqs[1]);
  MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &reqs[2]);
  MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &reqs[3]);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  double local = halo[0] * halo[1], total;
  for (int i = 0; i < BIG; i += 97)
    local += in[i] * in[i] * 1e-3;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total * x[2] / p;
}

static int comm_number(void) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  int f = (int)MPI_Comm_c2f(c);
  MPI_Comm_free(&c);
  return f;
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, 4);
  if (rank < 0)
    return 1;
  double x[N], grad[N], dir[N] = {0.3, -0.2, 0.5, 0.1};
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 + 0.1 * i + 0.05 * rank;
  int before = comm_number();
  size_t heap = 0;
  for (int call = 0; call < CALLS; ++call) {
    if (call == 100)
      heap = mallinfo2().uordblks;
    for (int i = 0; i < N; ++i)
      grad[i] = 0;
    __enzyme_autodiff((void *)step, enzyme_dup, x, grad, enzyme_const, N);
    if (adcc_mpi_kept_sends() != 0) {
      printf("FAIL rank %d: call %d returned with %d adjoint sends pending\n",
             rank, call, adcc_mpi_kept_sends());
      ++mpi_check_failures;
      break;
    }
    __enzyme_fwddiff((void *)step, enzyme_dup, x, dir, enzyme_const, N);
  }
  size_t grown = mallinfo2().uordblks - heap;
  /* (Any block leaked per call, 32 bytes at least with malloc's header,
   * would pass 28 kB; MPI's own lists grow by a few kB.) */
  if (!mpi_check_failures && mallinfo2().uordblks > heap && grown > 24000) {
    printf("FAIL rank %d: the heap grew by %zu bytes over %d calls\n", rank,
           grown, CALLS - 100);
    ++mpi_check_failures;
  }
  int after = comm_number();
  if (after != before) {
    printf("FAIL rank %d: a communicator got number %d, before the calls "
           "%d: the derivatives leave communicators\n",
           rank, after, before);
    ++mpi_check_failures;
  }
  double t =
      __enzyme_fwddiff((void *)step, enzyme_dup, x, dir, enzyme_const, N);
  mpi_check("step", step, x, N, grad, dir, t);
  return mpi_check_finish();
}
