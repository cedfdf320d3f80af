/* OpenMP tasks without dependences in differentiated code (run at once
 * where they are created: docs/parallel.md#tasks): reverse mode against
 * central finite differences, forward mode against reverse mode, with
 * teams of 1, 2 and 4 threads (omp_check.h). Two tasks of a single block
 * and a taskwait; tasks created in a loop inside a taskgroup, with
 * firstprivate values (one with a derivative); a recursive tree of tasks
 * whose results come back through shared variables after a taskwait;
 * XSBench's parallel quicksort of (key, value) pairs, whose tasks are not
 * waited for before the region's end; tasks created by every thread of a
 * region, with atomic updates; a taskyield; the clauses if, final,
 * mergeable, priority, firstprivate arrays. */
enum { N = 37 };

#include "omp_check.h"

static void squash(double *y, const double *x, int lo, int hi) {
  for (int i = lo; i < hi; ++i)
    y[i] = sin(x[i]) * x[(i + 1) % N];
}

/* Two tasks fill the halves of y; after the taskwait the creating thread
 * reads both. */
double single_tasks(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    squash(y, x, 0, n / 2);
#pragma omp task
    squash(y, x, n / 2, n);
#pragma omp taskwait
    for (int i = 0; i < n; ++i)
      s += y[i] * y[(i + 3) % n];
  }
  return s;
}

/* Tasks of chunks of 5 created in a loop, each with its chunk and a scale
 * passed by value (firstprivate), in a taskgroup; a sum by atomics. */
double taskgroup_loop(const double *x, double *y, int n) {
  double total = 0, scale = x[2] * 0.5;
#pragma omp parallel shared(total)
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int lo = 0; lo < n; lo += 5) {
#pragma omp task firstprivate(lo, scale)
        {
          int hi = lo + 5 < n ? lo + 5 : n;
          double part = 0;
          for (int i = lo; i < hi; ++i) {
            y[i] = scale * x[i] * x[i];
            part += y[i] * cos(x[i]);
          }
#pragma omp atomic
          total += part;
        }
      }
    }
    total *= x[0];
  }
  return total;
}

/* A tree of tasks: each half's result comes back through a shared
 * variable of its parent, read after the taskwait. */
static double tree(const double *x, int lo, int hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (int i = lo; i < hi; ++i)
      s += x[i] * x[i] + 0.1 * sin(x[i]);
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = 0, b = 0;
#pragma omp task shared(a)
  a = tree(x, lo, mid);
#pragma omp task shared(b)
  b = tree(x, mid, hi);
#pragma omp taskwait
  return a * (1 + 0.01 * b) + b;
}

double task_tree(const double *x, double *y, int n) {
  (void)y;
  double r = 0;
#pragma omp parallel
#pragma omp single
  r = tree(x, 0, n);
  return r;
}

/* XSBench's parallel quicksort (Simulation.c, optimization 1): keys and
 * values sorted by key, the halves sorted by tasks not waited for (the
 * region's end waits). Keys distinct: the permutation does not change
 * under small steps. */
static void quicksort_tasks(int *key, double *value, int left, int right,
                            int cutoff) {
  int i = left, j = right;
  int pivot = key[(left + right) / 2];
  while (i <= j) {
    while (key[i] < pivot)
      i++;
    while (key[j] > pivot)
      j--;
    if (i <= j) {
      int tk = key[i];
      key[i] = key[j];
      key[j] = tk;
      double tv = value[i];
      value[i] = value[j];
      value[j] = tv;
      i++;
      j--;
    }
  }
  if (right - left < cutoff) {
    if (left < j)
      quicksort_tasks(key, value, left, j, cutoff);
    if (i < right)
      quicksort_tasks(key, value, i, right, cutoff);
  } else {
#pragma omp task
    quicksort_tasks(key, value, left, j, cutoff);
#pragma omp task
    quicksort_tasks(key, value, i, right, cutoff);
  }
}

double sorted(const double *x, double *y, int n) {
  int key[N];
  for (int i = 0; i < n; ++i) {
    key[i] = (i * 17 + 5) % n; /* a permutation of 0..n-1 */
    y[i] = x[i] * x[(i + 2) % n];
  }
#pragma omp parallel
  {
#pragma omp single nowait
    quicksort_tasks(key, y, 0, n - 1, 6);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * (1 + 0.1 * i) * (key[i] == i ? 1 : 1000);
  return s;
}

/* Every thread of the region creates tasks over its own stripe; one
 * yields. */
double every_thread(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
  {
    int t = omp_get_thread_num(), k = omp_get_num_threads();
    for (int i = t; i < n; i += k) {
#pragma omp task firstprivate(i)
      {
        y[i] = exp(0.3 * x[i]) * x[(i + 5) % n];
#pragma omp atomic
        s += y[i] * y[i];
      }
    }
#pragma omp taskyield
  }
  return s;
}

/* Clauses: if (deferred or not: both forms of the task), final and
 * mergeable, priority, a firstprivate array copied into the task and a
 * private scratch array. */
double clauses(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  for (int c = 0; c < 6; ++c) {
    double w[3] = {x[c], x[c + 6] * x[c], 0.5 * x[c + 12]};
#pragma omp task if (c % 2 == 0) final(c > 3) mergeable priority(c)            \
    firstprivate(w) shared(s)
    {
      double scratch[4];
      for (int k = 0; k < 4; ++k)
        scratch[k] = w[k % 3] * (k + 1);
      y[c] = scratch[0] * scratch[3] + sin(scratch[1]) * w[2];
#pragma omp atomic
      s += y[c] * y[c];
    }
  }
  (void)n;
  return s;
}

DERIVATIVES(single_tasks)
DERIVATIVES(clauses)
DERIVATIVES(taskgroup_loop)
DERIVATIVES(task_tree)
DERIVATIVES(sorted)
DERIVATIVES(every_thread)

int main(void) {
  CHECK_GRADIENT(single_tasks, 1e-6, 1e-6);
  CHECK_GRADIENT(taskgroup_loop, 1e-6, 1e-6);
  CHECK_GRADIENT(task_tree, 1e-6, 1e-6);
  CHECK_GRADIENT(sorted, 1e-6, 1e-6);
  CHECK_GRADIENT(every_thread, 1e-6, 1e-6);
  CHECK_GRADIENT(clauses, 1e-6, 1e-6);
  return check_finish();
}
