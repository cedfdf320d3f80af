/* OpenMP taskloops in differentiated code: a taskloop without private or
 * firstprivate data in its task record becomes a loop that starts a task
 * per chunk (prepare/OpenMPTaskloops.cpp), whose derivatives run as tasks
 * (docs/parallel.md#tasks). Gradients against central differences,
 * tangents against gradients, teams of 1, 2 and 4 threads (omp_check.h),
 * twice: grainsize (in the taskgroup Clang adds), num_tasks over a
 * downward strided loop with atomic sums, the default chunks of a
 * nogroup taskloop that only the region's end waits for, and taskloops
 * with data of their own, copied per chunk: firstprivate values with
 * derivatives that chunks change (each chunk starts from the creator's),
 * private temporaries, and a lastprivate value. */
enum { N = 37 };
#include "omp_check.h"
double loop_tasks(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(4)
    for (int i = 0; i < n; ++i)
      y[i] = x[i] * sin(x[(i + 1) % n]);
  }
  for (int i = 0; i < n; ++i)
    s += y[i] * y[(i + 2) % n];
  return s;
}
double loop_num_tasks(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  {
#pragma omp taskloop num_tasks(5)
    for (int i = n - 1; i >= 0; i -= 2) {
      y[i] = x[3] * x[i] * x[i];
#pragma omp atomic
      s += y[i] * x[(i + 3) % n];
    }
  }
  return s;
}
double loop_default(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp single nowait
#pragma omp taskloop nogroup
    for (int i = 0; i < n; ++i)
      y[i] = exp(0.1 * x[i]) * x[(i + 4) % n];
  }
  for (int i = 0; i < n; ++i)
    s += y[i] * y[i];
  return s;
}
double loop_firstprivate(const double *x, double *y, int n) {
  double s = 0, scale = x[0] * 2;
  int off = 3;
#pragma omp parallel shared(s)
#pragma omp single
  {
#pragma omp taskloop firstprivate(scale, off) grainsize(4)
    for (int i = 0; i < n; ++i) {
      scale = scale * 1.01 + 0.1 * x[1];
      y[i] = scale * sin(x[(i + off) % n]);
    }
  }
  for (int i = 0; i < n; ++i)
    s += y[i] * y[(i + 1) % n];
  return s;
}
double loop_lastprivate(const double *x, double *y, int n) {
  double s = 0, last = 0, t;
#pragma omp parallel shared(s, last)
#pragma omp single
  {
#pragma omp taskloop private(t) lastprivate(last) num_tasks(3)
    for (int i = 0; i < n; ++i) {
      t = x[i] * x[(i + 2) % n];
      y[i] = t * t + x[4];
      last = y[i] * x[5];
    }
  }
  for (int i = 0; i < n; ++i)
    s += y[i] * x[i];
  return s + last * last;
}
DERIVATIVES(loop_tasks)
DERIVATIVES(loop_firstprivate)
DERIVATIVES(loop_lastprivate)
DERIVATIVES(loop_num_tasks)
DERIVATIVES(loop_default)
int main(void) {
  for (int run = 0; run < 2; ++run) {
    CHECK_GRADIENT(loop_tasks, 1e-6, 1e-6);
    CHECK_GRADIENT(loop_num_tasks, 1e-6, 1e-6);
    CHECK_GRADIENT(loop_default, 1e-6, 1e-6);
    CHECK_GRADIENT(loop_firstprivate, 1e-6, 1e-6);
    CHECK_GRADIENT(loop_lastprivate, 1e-6, 1e-6);
  }
  return check_finish();
}
