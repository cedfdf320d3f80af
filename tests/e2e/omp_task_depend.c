/* OpenMP tasks with depend clauses in differentiated code: the tangent
 * tasks and the augmented tasks keep the dependences of the primal's, and
 * the reverses of a sync point's tasks are spawned the last created first
 * with the same dependences, so that the reverse of a task that read what
 * another wrote runs before the other's reverse (docs/parallel.md#tasks).
 * Gradients against central differences, tangents against gradients,
 * teams of 1, 2 and 4 threads (omp_check.h), twice: a chain of flow, anti
 * and output dependences on scalars of the work array, a pipeline of
 * blocks with array sections, an inoutset/mutexinoutset accumulation,
 * dependences on an iterator's elements, and chains every thread creates
 * on its own slice. */
enum { N = 24 };
#include "omp_check.h"
double chain(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  {
#pragma omp task depend(out : y[0])
    y[0] = x[0] * x[1] + sin(x[2]);
#pragma omp task depend(in : y[0]) depend(out : y[1])
    y[1] = y[0] * y[0] * x[3];
#pragma omp task depend(inout : y[0])
    y[0] = cos(y[0]) * x[4]; /* after the read above: anti-dependence */
#pragma omp task depend(out : y[1])
    y[1] = y[1] * x[5] + y[1]; /* output dependence on y[1] */
#pragma omp task depend(in : y[0], y[1]) depend(out : s)
    s = y[0] * y[1] + x[6];
#pragma omp task depend(inout : s)
    s = s * s;
  }
  (void)n;
  return s;
}
double pipeline(const double *x, double *y, int n) {
  double s = 0;
  enum { B = 6 };
#pragma omp parallel shared(s)
#pragma omp single
  for (int k = 0; k + B <= n; k += B) {
#pragma omp task depend(out : y[k : B]) firstprivate(k)
    for (int i = k; i < k + B; ++i)
      y[i] = x[i] * x[(i + 1) % n];
#pragma omp task depend(inout : y[k : B]) firstprivate(k)
    for (int i = k; i < k + B; ++i)
      y[i] = sin(y[i]) + y[(i - k + 1) % B + k];
#pragma omp task depend(in : y[k : B]) depend(inout : s) firstprivate(k)
    for (int i = k; i < k + B; ++i)
      s += y[i] * x[(i + 2) % n];
  }
  return s;
}
double accumulate(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  {
#pragma omp task depend(out : y[0])
    y[0] = 0.5 * x[0];
    for (int i = 1; i < n; ++i) {
#pragma omp task depend(mutexinoutset : y[0]) firstprivate(i)
      y[0] += x[i] * x[(i + 5) % n];
    }
#pragma omp task depend(in : y[0]) depend(out : y[1])
    y[1] = y[0] * y[0];
#pragma omp task depend(inoutset : y[1]) firstprivate(n)
    y[2] = y[1] * x[1];
#pragma omp task depend(inoutset : y[1]) firstprivate(n)
    y[3] = y[1] * x[2];
#pragma omp task depend(out : y[1])
    y[1] = 3 * y[1];
#pragma omp taskwait
    s = y[1] + y[2] * y[3];
  }
  return s;
}
double iterated(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  {
    for (int i = 0; i < n; ++i) {
#pragma omp task depend(out : y[i]) firstprivate(i)
      y[i] = x[i] * x[i];
    }
#pragma omp task depend(iterator(j = 0 : n), in : y[j]) depend(out : s)
    for (int j = 0; j < n; ++j)
      s += y[j] * x[(j + 3) % n];
#pragma omp task depend(iterator(j = 0 : n : 2), inout : y[j])
    for (int j = 0; j < n; j += 2)
      y[j] = 0; /* overwritten after the sum read it */
#pragma omp taskwait
    for (int j = 0; j < n; ++j)
      s += y[j] * x[j];
  }
  return s;
}
double per_thread(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    double t = 0;
#pragma omp task depend(out : y[i]) firstprivate(i)
    y[i] = exp(0.3 * x[i]);
#pragma omp task depend(inout : y[i]) firstprivate(i)
    y[i] = y[i] * x[(i + 1) % n];
#pragma omp task depend(in : y[i]) depend(out : t) shared(t) firstprivate(i)
    t = y[i] * y[i];
#pragma omp taskwait
    s += t;
  }
  return s;
}
DERIVATIVES(chain)
DERIVATIVES(pipeline)
DERIVATIVES(accumulate)
DERIVATIVES(iterated)
DERIVATIVES(per_thread)
int main(void) {
  for (int run = 0; run < 2; ++run) {
    CHECK_GRADIENT(chain, 1e-6, 1e-6);
    CHECK_GRADIENT(pipeline, 1e-6, 1e-6);
    CHECK_GRADIENT(accumulate, 1e-6, 1e-6);
    CHECK_GRADIENT(iterated, 1e-6, 1e-6);
    CHECK_GRADIENT(per_thread, 1e-6, 1e-6);
  }
  return check_finish();
}
