/* Derivatives through matched probes: MPI_Mprobe then MPI_Get_count and
 * MPI_Mrecv of a message whose length the receiver learns from the probe
 * (a ring: rank r sends 2 + r % 2 doubles to r + 1), the same by
 * MPI_Improbe polled until a message is there and MPI_Imrecv with a wait
 * (floats), and a probe of MPI_PROC_NULL (no message, no derivative);
 * forward and reverse mode on every rank, checked against central
 * differences of the whole program and against each other (mpi_check.h).
 * Run with 2 to 8 ranks. */
#include "mpi_check.h"

enum { N = 4, MAXP = 8 };

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

double mprobe(double *x, int n) {
  int rank = rank_of(), size = size_of();
  double out[3] = {x[0] * x[1], sin(x[2]), x[3] * x[3] * (1 + rank)};
  MPI_Request sent;
  MPI_Isend(out, 2 + rank % 2, MPI_DOUBLE, (rank + 1) % size, 5, MPI_COMM_WORLD,
            &sent);
  MPI_Message message;
  MPI_Status status;
  MPI_Mprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &message, &status);
  int count = 0, received = 0;
  MPI_Get_count(&status, MPI_DOUBLE, &count);
  double in[3] = {0, 0, 0};
  MPI_Mrecv(in, count, MPI_DOUBLE, &message, &status);
  MPI_Get_count(&status, MPI_DOUBLE, &received);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
  /* (nothing from no process) */
  MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &message, &status);
  double none[1] = {x[1]};
  MPI_Mrecv(none, 1, MPI_DOUBLE, &message, MPI_STATUS_IGNORE);
  double y = none[0] * x[2];
  for (int k = 0; k < received; ++k)
    y += in[k] * in[k] * x[(k + 1) % n] * (1 + 0.1 * count);
  return y;
}

double improbe(double *x, int n) {
  int rank = rank_of(), size = size_of();
  float out[2] = {(float)(x[0] * x[2]), (float)exp(0.3 * x[1])};
  MPI_Request sent, got;
  MPI_Isend(out, 2, MPI_FLOAT, (rank + size - 1) % size, 6, MPI_COMM_WORLD,
            &sent);
  MPI_Message message;
  MPI_Status status;
  int flag = 0;
  while (!flag)
    MPI_Improbe((rank + 1) % size, 6, MPI_COMM_WORLD, &flag, &message, &status);
  float in[2] = {0, 0};
  MPI_Imrecv(in, 2, MPI_FLOAT, &message, &got);
  double y = cos(x[3]);
  MPI_Wait(&got, MPI_STATUS_IGNORE);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
  return y + in[0] * x[1] + in[1] * in[0];
}

int main(int argc, char **argv) {
  int rank = mpi_check_init(&argc, &argv, MAXP);
  if (rank < 0)
    return 1;
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  mpi_check_derivatives("mprobe", mprobe, x, N, 1e-6, 1e-6);
  /* (float data: a step float resolves) */
  mpi_check_derivatives("improbe", improbe, x, N, 1e-3, 1e-3);
  return mpi_check_finish();
}
