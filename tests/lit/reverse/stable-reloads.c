// A value the loop reads from memory that nothing in the differentiated
// function writes is read again by the reverse sweep, not recorded per
// iteration: here the coefficients of a struct passed by pointer, read at
// every point of a time loop whose two buffers are the function's own heap
// blocks, swapped each step (the stores go through phis of the two blocks:
// followed to both), with MPI calls in the loop that write only their
// receive buffers, requests and statuses (docs/parallel.md#mpi). What is
// recorded per point is the point's old value alone (8 bytes).
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// (OpenMPI's ABI, written here so that the test needs no MPI.)
typedef struct ompi_communicator_t *MPI_Comm;
typedef struct ompi_datatype_t *MPI_Datatype;
typedef struct ompi_request_t *MPI_Request;
typedef struct ompi_status_public_t MPI_Status;
extern struct ompi_predefined_t ompi_mpi_comm_world, ompi_mpi_double;
#define MPI_COMM_WORLD ((MPI_Comm)&ompi_mpi_comm_world)
#define MPI_DOUBLE ((MPI_Datatype)&ompi_mpi_double)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
int MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm,
              MPI_Request *);
int MPI_Waitall(int, MPI_Request *, MPI_Status *);
int MPI_Comm_rank(MPI_Comm, int *);

void *calloc(unsigned long, unsigned long);
void free(void *);
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

typedef struct {
  int n, steps, peer;
  double nu, r;
} grid;

double loss(const double *u0, const grid *g) {
  int n = g->n, rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *u = calloc(n + 2, sizeof(double));
  double *next = calloc(n + 2, sizeof(double));
  for (int k = 0; k < n; ++k)
    u[k + 1] = u0[k];
  for (int t = 0; t < g->steps; ++t) {
    MPI_Request req[2];
    MPI_Irecv(u, 1, MPI_DOUBLE, g->peer, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(u + 1, 1, MPI_DOUBLE, g->peer, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int k = 1; k <= n; ++k) {
      double c = u[k];
      next[k] = c + g->nu * (u[k - 1] + u[k + 1] - 2 * c) - g->r * c * c * c;
    }
    double *swap = u;
    u = next;
    next = swap;
  }
  double s = 0;
  for (int k = 1; k <= n; ++k)
    s += u[k] * u[k];
  free(u);
  free(next);
  return s;
}

void grad(const double *u0, double *du0, const grid *g) {
  __enzyme_autodiff((void *)loss, enzyme_dup, u0, du0, enzyme_const, g);
}

// The only double recorded in the stencil loop is the point's value c
// (before: g->nu and g->r too, 24 bytes per point); the loads of g->nu and
// g->r are rebuilt (read again) in the reverse sweep.
// CHECK-LABEL: adcc: reverse mode of 'loss'
// CHECK-NOT: record double
// CHECK: recompute ptr %[[NU:[0-9]+]] for 'load' (each loop iteration)
// CHECK-NOT: record double
// CHECK: recompute double %{{[0-9]+}} for 'call' (each loop iteration)
// CHECK-NOT: record double
// CHECK: record double %[[C:[0-9]+]] for 'fmul' (each loop iteration)
// CHECK-NEXT: (in the array sized by the trip count of the loop at block
// CHECK-NOT: record double
// CHECK: share the record of double %[[C]] for 'call' (each loop iteration)
// CHECK-NOT: record double
// The loss's loop records u[k].
// CHECK: record double %{{[0-9]+}} for 'call' (each loop iteration)
// CHECK-NOT: record double
// CHECK: once, at the return
