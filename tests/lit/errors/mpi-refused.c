// MPI calls that adcc cannot differentiate are errors at their line, in
// forward and reverse mode, at -O0 and -O2: one-sided communication,
// MPI_Comm_spawn, MPI_Op_create, and predefined datatypes and reduction
// operators without a derivative rule (docs/parallel.md#mpi). The MPI
// declarations are OpenMPI's ABI, written here so that the test needs no
// MPI installation.
// RUN: %expect-exit 1 %adcc -O0 -c -DWIN %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIN
// RUN: %expect-exit 1 %adcc -O2 -c -DWIN -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIN
// RUN: %expect-exit 1 %adcc -O0 -c -DSPAWN %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPAWN
// RUN: %expect-exit 1 %adcc -O2 -c -DOPCREATE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPCREATE
// RUN: %expect-exit 1 %adcc -O0 -c -DDATATYPE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATATYPE
// RUN: %expect-exit 1 %adcc -O2 -c -DDATATYPE -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATATYPE
// RUN: %expect-exit 1 %adcc -O0 -c -DPROD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROD
// Nonblocking reductions have rules for MPI_SUM, MPI_MIN and MPI_MAX, as
// the blocking ones; a call without a rule (MPI_Reduce_local; until
// 2026-12-06 this was MPI_Ineighbor_alltoall, then MPI_Ineighbor_allgatherv,
// which have rules now) is a call
// nothing defines, named at its line.
// RUN: %expect-exit 1 %adcc -O0 -c -DIPROD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=IPROD
// RUN: %expect-exit 1 %adcc -O2 -c -DIPROD -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=IPROD
// RUN: %expect-exit 1 %adcc -O2 -DISCAN %s -o %t.iscan 2>&1 | FileCheck %s --check-prefix=ISCAN
// RUN: %expect-exit 1 %adcc -O0 -DISCAN -DFORWARD %s -o %t.iscan 2>&1 | FileCheck %s --check-prefix=ISCAN
// Prefix sums and reduce-scatters have a rule for MPI_SUM only.
// RUN: %expect-exit 1 %adcc -O2 -c -DISCANMAX %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ISCANMAX
// RUN: %expect-exit 1 %adcc -O0 -c -DIEXSCANMAX -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=IEXSCANMAX
// RUN: %expect-exit 1 %adcc -O0 -c -DSCANMAX %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCANMAX
// RUN: %expect-exit 1 %adcc -O2 -c -DSCANMAX -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCANMAX
// RUN: %expect-exit 1 %adcc -O2 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// An integer reduction by MPI_PROD beside them carries no derivative: fine.
// RUN: %adcc -O2 -c -DINTPROD %s -o /dev/null
// MPI_DATATYPE_NULL on the ignored side of an in-place call is no datatype
// without a rule (MPI ignores it): fine, in both modes.
// RUN: %adcc -O0 -c -DINPLACE %s -o /dev/null
// RUN: %adcc -O2 -c -DINPLACE -DFORWARD %s -o /dev/null
// ... but not beside a send buffer that is not MPI_IN_PLACE.
// RUN: %expect-exit 1 %adcc -O0 -c -DNULLTYPE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NULLTYPE
typedef struct ompi_communicator_t *MPI_Comm;
typedef struct ompi_datatype_t *MPI_Datatype;
typedef struct ompi_op_t *MPI_Op;
typedef struct ompi_win_t *MPI_Win;
typedef struct ompi_info_t *MPI_Info;
typedef long MPI_Aint;
typedef struct ompi_request_t *MPI_Request;
typedef struct ompi_status_public_t MPI_Status;
extern struct ompi_predefined_t ompi_mpi_comm_world, ompi_mpi_double,
    ompi_mpi_long_double, ompi_mpi_int, ompi_mpi_op_sum, ompi_mpi_op_prod,
    ompi_mpi_op_max, ompi_mpi_info_null, ompi_mpi_datatype_null;
#define MPI_COMM_WORLD ((MPI_Comm)&ompi_mpi_comm_world)
#define MPI_DOUBLE ((MPI_Datatype)&ompi_mpi_double)
#define MPI_LONG_DOUBLE ((MPI_Datatype)&ompi_mpi_long_double)
#define MPI_INT ((MPI_Datatype)&ompi_mpi_int)
#define MPI_SUM ((MPI_Op)&ompi_mpi_op_sum)
#define MPI_PROD ((MPI_Op)&ompi_mpi_op_prod)
#define MPI_MAX ((MPI_Op)&ompi_mpi_op_max)
#define MPI_DATATYPE_NULL ((MPI_Datatype)&ompi_mpi_datatype_null)
#define MPI_IN_PLACE ((void *)1)
int MPI_Win_create(void *, MPI_Aint, int, MPI_Info, MPI_Comm, MPI_Win *);
int MPI_Put(const void *, int, MPI_Datatype, int, MPI_Aint, int,
            MPI_Datatype, MPI_Win);
int MPI_Comm_spawn(const char *, char **, int, MPI_Info, int, MPI_Comm,
                   MPI_Comm *, int *);
typedef void MPI_User_function(void *, void *, int *, MPI_Datatype *);
int MPI_Op_create(MPI_User_function *, int, MPI_Op *);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Allgather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                  MPI_Comm);
int MPI_Iallreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm,
                   MPI_Request *);
int MPI_Iscan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm,
              MPI_Request *);
int MPI_Iexscan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm,
                MPI_Request *);
int MPI_Scan(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Reduce_local(const void *, void *, int, MPI_Datatype, MPI_Op);
int MPI_Wait(MPI_Request *, MPI_Status *);

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifdef WIN
double f(double *x) {
  MPI_Win w;
  MPI_Win_create(x, 8, 8, (MPI_Info)&ompi_mpi_info_null, MPI_COMM_WORLD, &w);
  MPI_Put(x, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, w);
  return x[0] * x[0];
}
// WIN: mpi-refused.c:[[#@LINE-4]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: 'MPI_Win_create' (one-sided communication (MPI windows)) cannot be differentiated
#endif

#ifdef SPAWN
double f(double *x) {
  MPI_Comm child;
  MPI_Comm_spawn("worker", 0, 2, (MPI_Info)&ompi_mpi_info_null, 0,
                 MPI_COMM_WORLD, &child, 0);
  return x[0] * x[0];
}
// SPAWN: mpi-refused.c:[[#@LINE-4]]:3: error: cannot differentiate 'f' in reverse mode: 'MPI_Comm_spawn' (spawning processes) cannot be differentiated
#endif

#ifdef OPCREATE
static void mul(void *in, void *inout, int *n, MPI_Datatype *t) {}
double f(double *x) {
  MPI_Op op;
  MPI_Op_create(mul, 1, &op);
  double y;
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return y;
}
// OPCREATE: mpi-refused.c:[[#@LINE-5]]:3: error: cannot differentiate 'f' in reverse mode: 'MPI_Op_create' (a user-defined reduction operator) cannot be differentiated
#endif

#ifdef DATATYPE
double f(double *x) {
  long double l = x[0], s;
  MPI_Allreduce(&l, &s, 1, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return (double)s * x[0];
}
// DATATYPE: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: the datatype MPI_LONG_DOUBLE of 'MPI_Allreduce' has no derivative rule
#endif

#ifdef PROD
double f(double *x) {
  double y;
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  return y;
}
// PROD: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'f' in reverse mode: the reduction operator MPI_PROD of 'MPI_Allreduce' has no derivative rule: MPI_SUM, MPI_MIN and MPI_MAX have
#endif

#ifdef INTPROD
double f(double *x) {
  int n = (int)x[1], m;
  MPI_Allreduce(&n, &m, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  return x[0] * m;
}
#endif

#ifdef INPLACE
double f(double *x) {
  double all[4] = {x[0], x[1], x[0] * x[1], 0};
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_DOUBLE,
                MPI_COMM_WORLD);
  return all[0] * all[3];
}
#endif

#ifdef NULLTYPE
double f(double *x) {
  double all[4];
  MPI_Allgather(x, 2, MPI_DATATYPE_NULL, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  return all[0] * all[3];
}
// NULLTYPE: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'f' in reverse mode: the datatype MPI_DATATYPE_NULL of 'MPI_Allgather' has no derivative rule
#endif

#ifdef IPROD
double f(double *x) {
  double y;
  MPI_Request r;
  MPI_Iallreduce(x, &y, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, (MPI_Status *)0);
  return y * x[0];
}
// IPROD: mpi-refused.c:[[#@LINE-4]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: the reduction operator MPI_PROD of 'MPI_Iallreduce' has no derivative rule: MPI_SUM, MPI_MIN and MPI_MAX have
#endif

#ifdef ISCAN
double f(double *x) {
  double all[2] = {x[1], x[2]};
  MPI_Reduce_local(x, all, 2, MPI_DOUBLE, MPI_SUM);
  return all[0] * all[1];
}
// ISCAN: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'MPI_Reduce_local': adcc has no derivative rule for this MPI call (docs/parallel.md#mpi lists the calls with one)
#endif

#ifdef IEXSCANMAX
double f(double *x) {
  double all[2];
  MPI_Request r;
  MPI_Iexscan(x, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, (MPI_Status *)0);
  return all[0] * all[1];
}
// IEXSCANMAX: mpi-refused.c:[[#@LINE-4]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: the reduction operator MPI_MAX of 'MPI_Iexscan' has no derivative rule: only MPI_SUM has for this collective
#endif

#ifdef SCANMAX
double f(double *x) {
  double y;
  MPI_Scan(x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return y * x[0];
}
// SCANMAX: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: the reduction operator MPI_MAX of 'MPI_Scan' has no derivative rule: only MPI_SUM has for this collective
#endif

#ifdef ISCANMAX
double f(double *x) {
  double y;
  MPI_Request r;
  MPI_Iscan(x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, (MPI_Status *)0);
  return y * x[0];
}
// ISCANMAX: mpi-refused.c:[[#@LINE-4]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: the reduction operator MPI_MAX of 'MPI_Iscan' has no derivative rule: only MPI_SUM has for this collective
#endif

#ifdef SPLIT
double f(double *x) {
  double y;
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return y * x[0];
}
// SPLIT: mpi-refused.c:[[#@LINE-3]]:3: error: cannot differentiate 'f' in forward mode: split forward mode of MPI calls is not supported
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double h(double *x, double *dx) {
  void *tape = __enzyme_augmentfwd((void *)f, x, dx);
  return __enzyme_fwdsplit((void *)f, x, dx, tape);
}
#endif

#ifdef FORWARD
double g(double *x, double *dx) {
  return __enzyme_fwddiff((void *)f, x, dx);
}
#else
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }
#endif
