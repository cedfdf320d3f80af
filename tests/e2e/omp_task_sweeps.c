/* OpenMP tasks whose derivatives run as tasks (docs/parallel.md#tasks):
 * in reverse mode each task's augmented sweep records on a tape of its
 * own, and the reverses are spawned at the mirror of the point that
 * waited for the tasks. Gradients against central differences, tangents
 * against gradients, with teams of 1, 2 and 4 threads (omp_check.h), each
 * objective three times (races show as differences): a Fibonacci-style
 * recursion of tasks, a task-parallel loop over blocks, firstprivate
 * captures with derivatives (a scalar and an array), tasks that leave
 * their children to a taskgroup and a task created before the taskgroup,
 * tasks every thread creates before a barrier whose results other
 * threads read after it, and a region whose tasks only its end waits for. */
enum { N = 40 };

#include "omp_check.h"

/* fib(k) = fib(k - 1) * c + fib(k - 2), leaves from x; each result comes
 * back through a shared variable of the parent. */
static double fib(const double *x, int k) {
  if (k < 2)
    return x[k] * x[k + 3];
  double a = 0, b = 0;
#pragma omp task shared(a) firstprivate(k)
  a = fib(x, k - 1);
#pragma omp task shared(b) firstprivate(k)
  b = fib(x, k - 2);
#pragma omp taskwait
  return a * (0.5 + 0.1 * sin(x[k % N])) + b;
}

double fib_tasks(const double *x, double *y, int n) {
  (void)y;
  (void)n;
  double r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(x, 11);
  return r;
}

/* A task per block of 4 elements; each writes its block of y and its own
 * partial sum; the creator combines them after the taskwait. */
double blocks(const double *x, double *y, int n) {
  double partial[N / 4 + 1], s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int b = 0; b * 4 < n; ++b) {
#pragma omp task firstprivate(b) shared(partial)
      {
        double p = 0;
        for (int i = 4 * b; i < 4 * b + 4 && i < n; ++i) {
          y[i] = x[i] * cos(x[(i + 1) % n]);
          p += y[i] * x[i];
        }
        partial[b] = p;
      }
    }
#pragma omp taskwait
    for (int b = 0; b * 4 < n; ++b)
      s += partial[b] * partial[b] * 0.1 + partial[b];
  }
  return s;
}

/* Values with derivatives captured by value (firstprivate): a scale, an
 * offset computed in the loop and an array; the results through atomics. */
double captures(const double *x, double *y, int n) {
  double s = 0, scale = x[1] * x[2];
#pragma omp parallel shared(s)
#pragma omp single
  for (int c = 0; c < 10; ++c) {
    double offset = x[c] * x[c + 10];
    double w[2] = {x[c + 20], scale * x[c + 30]};
#pragma omp task firstprivate(c, scale, offset, w)
    {
      y[c] = scale * offset + sin(w[0]) * w[1];
      offset *= 2;
#pragma omp atomic
      s += y[c] * offset;
    }
  }
  (void)n;
  return s;
}

/* Tasks that create tasks without waiting for them (the taskgroup's end
 * does), and a task created before the taskgroup, waited for by the
 * taskwait after it. */
static void spread(const double *x, double *y, int lo, int hi) {
  if (hi - lo <= 5) {
    for (int i = lo; i < hi; ++i)
      y[i] = exp(0.2 * x[i]) * x[(i + 7) % N];
    return;
  }
  int mid = (lo + hi) / 2;
#pragma omp task
  spread(x, y, lo, mid);
#pragma omp task
  spread(x, y, mid, hi);
}

double groups(const double *x, double *y, int n) {
  double s = 0, early = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(early)
    early = x[0] * x[1] * x[2];
#pragma omp taskgroup
    spread(x, y, 0, n);
    for (int i = 0; i < n; ++i)
      s += y[i] * y[(i + 1) % n];
#pragma omp taskwait
    s *= early;
  }
  return s;
}

/* Every thread creates tasks over its stripe of y; after the barrier each
 * thread reads another thread's stripe. */
double barrier_tasks(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    int t = omp_get_thread_num(), k = omp_get_num_threads();
    for (int i = t; i < n; i += k) {
#pragma omp task firstprivate(i)
      y[i] = x[i] * x[i] * x[(i + 3) % n];
    }
#pragma omp barrier
    for (int i = (t + 1) % k; i < n; i += k)
      s += y[i] * sin(x[i]);
  }
  return s;
}

/* Tasks only the region's end waits for; the function reads their
 * results after the region. */
double region_end(const double *x, double *y, int n) {
#pragma omp parallel
  {
#pragma omp single nowait
    for (int i = 0; i < n; ++i) {
#pragma omp task firstprivate(i)
      y[i] = sqrt(1 + x[i] * x[i]) * x[(i + 1) % n];
    }
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[(i + 2) % n];
  return s;
}

DERIVATIVES(fib_tasks)
DERIVATIVES(blocks)
DERIVATIVES(captures)
DERIVATIVES(groups)
DERIVATIVES(barrier_tasks)
DERIVATIVES(region_end)

int main(void) {
  for (int run = 0; run < 3; ++run) {
    CHECK_GRADIENT(fib_tasks, 1e-6, 1e-6);
    CHECK_GRADIENT(blocks, 1e-6, 1e-6);
    CHECK_GRADIENT(captures, 1e-6, 1e-6);
    CHECK_GRADIENT(groups, 1e-6, 1e-6);
    CHECK_GRADIENT(barrier_tasks, 1e-6, 1e-6);
    CHECK_GRADIENT(region_end, 1e-6, 1e-6);
  }
  return check_finish();
}
