// MPI calls in differentiated code become calls of the runtime's rule
// functions (rules/MpiRules.cpp, docs/parallel.md#mpi): the calls that
// complete requests (MPI_Test, MPI_Testany, MPI_Testall, MPI_Testsome,
// MPI_Waitany, MPI_Waitsome) record the requests they completed and reverse
// as MPI_Wait does; an in-place gather passes its send buffer (the value,
// then its shadow) to the reverse, which tells the in-place form from the
// other. The MPI
// declarations are OpenMPI's ABI, written here so that the test needs no
// MPI installation.
// RUN: %adcc -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=REV
// RUN: %adcc -O0 -S -emit-llvm -DFORWARD %s -o - | FileCheck %s --check-prefix=FWD
typedef struct ompi_communicator_t *MPI_Comm;
typedef struct ompi_datatype_t *MPI_Datatype;
typedef struct ompi_request_t *MPI_Request;
typedef struct ompi_status_public_t MPI_Status;
extern struct ompi_predefined_t ompi_mpi_comm_world, ompi_mpi_double,
    ompi_mpi_datatype_null;
#define MPI_COMM_WORLD ((MPI_Comm)&ompi_mpi_comm_world)
#define MPI_DOUBLE ((MPI_Datatype)&ompi_mpi_double)
#define MPI_DATATYPE_NULL ((MPI_Datatype)&ompi_mpi_datatype_null)
#define MPI_IN_PLACE ((void *)1)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
int MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm,
              MPI_Request *);
int MPI_Test(MPI_Request *, int *, MPI_Status *);
int MPI_Testany(int, MPI_Request *, int *, int *, MPI_Status *);
int MPI_Testall(int, MPI_Request *, int *, MPI_Status *);
int MPI_Testsome(int, MPI_Request *, int *, int *, MPI_Status *);
int MPI_Waitany(int, MPI_Request *, int *, MPI_Status *);
int MPI_Waitsome(int, MPI_Request *, int *, int *, MPI_Status *);
int MPI_Gather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
               int, MPI_Comm);

double f(double *x) {
  double in[2], all[8] = {0};
  MPI_Request r[2];
  int flag, which, count, idx[2];
  MPI_Irecv(in, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  MPI_Testany(2, r, &which, &flag, MPI_STATUS_IGNORE);
  MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  MPI_Testsome(2, r, &count, idx, MPI_STATUSES_IGNORE);
  MPI_Waitany(2, r, &which, MPI_STATUS_IGNORE);
  MPI_Waitsome(2, r, &count, idx, MPI_STATUSES_IGNORE);
  all[0] = x[0] * in[0];
  MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  return all[0] * all[1];
}

#ifdef FORWARD
double __enzyme_fwddiff(void *, ...);
double g(double *x, double *dx) { return __enzyme_fwddiff((void *)f, x, dx); }
// FWD-DAG: call i32 @adcc_mpi_test_fwd(
// FWD-DAG: call i32 @adcc_mpi_testany_fwd(
// FWD-DAG: call i32 @adcc_mpi_testall_fwd(
// FWD-DAG: call i32 @adcc_mpi_testsome_fwd(
// FWD-DAG: call i32 @adcc_mpi_waitany_fwd(
// FWD-DAG: call i32 @adcc_mpi_waitsome_fwd(
// FWD-DAG: call { i32, i32 } @adcc.mpi.fwd.MPI_Gather(ptr inttoptr (i64 1 to ptr), ptr null,
// FWD-DAG: call i32 @adcc_mpi_gather_fwd(ptr %0, ptr %1, i32 %2,
#else
void __enzyme_autodiff(void *, ...);
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }
// REV-DAG: call i32 @adcc_mpi_test_aug(
// REV-DAG: call i32 @adcc_mpi_testany_aug(
// REV-DAG: call i32 @adcc_mpi_testall_aug(
// REV-DAG: call i32 @adcc_mpi_testsome_aug(
// REV-DAG: call i32 @adcc_mpi_waitany_aug(
// REV-DAG: call i32 @adcc_mpi_waitsome_aug(
// REV-DAG: call void @adcc_mpi_completed_rev(
// REV-DAG: call void @adcc_mpi_waitall_rev(
// REV-DAG: call void @adcc.mpi.rev.MPI_Gather(ptr inttoptr (i64 1 to ptr), ptr null,
// REV-DAG: call void @adcc_mpi_gather_rev(ptr %0, ptr %1, i32 %2,
#endif
