// OpenMP constructs that derivatives do not follow are errors at the
// construct, naming it; so are the forms of supported constructs that
// reverse mode cannot reverse (docs/parallel.md). Both modes, -O0 and -O2.
// RUN: %expect-exit 1 %adcc -fopenmp -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -fopenmp -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -fopenmp -O2 -c -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// A compare-and-swap loop of C11 atomics, which -O0 leaves in a form that
// is not omp atomic's (-O2 makes it that form, which works):
// RUN: %expect-exit 1 %adcc -fopenmp -O0 -c -DCASLOOP %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAS
// RUN: %adcc -fopenmp -O2 -c -DCASLOOP %s -o /dev/null
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_const;

// (Tied tasks with depend are tasks with the same dependences in both
// modes, their reverses spawned in reverse: e2e omp_task_depend.c. An
// untied one is not; a dependent task that runs where it is created, in a
// function whose other tasks run as tasks, would have its reverse race
// with theirs.)
double tasks(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; ++i) {
#pragma omp task depend(inout : s) untied
    s += x[i] * x[i];
  }
  return s;
}
// CHECK: openmp.c:[[#@LINE-5]]:1: error: cannot differentiate the OpenMP region in 'tasks' in reverse mode: an untied or detachable omp task with a depend clause (__kmpc_omp_task_with_deps) is not supported in differentiated code yet
// FWD: openmp.c:[[#@LINE-6]]:1: error: cannot differentiate the OpenMP region in 'tasks' in forward mode: an untied or detachable omp task with a depend clause (__kmpc_omp_task_with_deps) is not supported in differentiated code yet

double depend_if0(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : s)
    s = x[0] * x[1];
#pragma omp task depend(inout : s) if (0)
    s *= x[2];
  }
  (void)n;
  return s;
}
// CHECK: openmp.c:[[#@LINE-6]]:40: error: cannot differentiate the OpenMP region in 'depend_if0' in reverse mode: the depend clause of omp taskwait, or of an undeferred (if(0)) omp task (__kmpc_omp_taskwait_deps_51) is not supported in differentiated code yet

double depend_critical(const double *x, int n) {
  double s = 0, t = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : s)
    s = x[0] * x[1];
#pragma omp task depend(in : s)
    {
#pragma omp critical
      t += s * x[2];
    }
  }
  (void)n;
  return t;
}
// CHECK: openmp.c:[[#@LINE-9]]:1: error: cannot differentiate the OpenMP region in 'depend_critical' in reverse mode: an OpenMP task with a depend clause that runs where it is created in reverse mode (its body enters a critical section or takes a lock) in a function whose other tasks run as tasks: its reverse would race with theirs; drop the depend clause, or make the task deferred

// (Tied tasks without depend run where they are created: e2e omp_tasks.c.
// An untied one could be suspended and resumed on another thread.)
double untied_tasks(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; ++i) {
#pragma omp task shared(s) untied
    {
#pragma omp atomic
      s += x[i];
    }
  }
  return s;
}
// CHECK: openmp.c:[[#@LINE-8]]:1: error: cannot differentiate the OpenMP region in 'untied_tasks' in reverse mode: an untied or detachable omp task, one whose privates have destructors, or a taskloop with a reduction (__kmpc_omp_task_alloc) is not supported in differentiated code yet

double ordered(const double *x, int n) {
  double s = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; ++i) {
#pragma omp ordered
    s = s * 0.5 + x[i];
  }
  return s;
}
// CHECK: openmp.c:[[#@LINE-5]]:1: error: cannot differentiate the OpenMP region in 'ordered' in reverse mode: omp ordered (__kmpc_ordered) is not supported in differentiated code yet

// (A taskloop is a loop of tasks, with private and firstprivate data
// copied per chunk: e2e omp_taskloops.c. Task reductions are not.)
double taskloop_reduction(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : s) grainsize(2)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
// CHECK: openmp.c:[[#@LINE-5]]:51: error: cannot differentiate the OpenMP region in 'taskloop_reduction' in reverse mode: task reductions (__kmpc_taskred_init) is not supported in differentiated code yet

// (omp_set_lock and omp_unset_lock are critical sections: e2e omp_locks.c.
// A lock taken only where it is free, or a nestable one, is not.)
#include <omp.h>
double test_lock(const double *x, int n) {
  omp_lock_t l;
  omp_init_lock(&l);
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    while (!omp_test_lock(&l))
      ;
    s += x[i];
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return s;
}
// CHECK: openmp.c:[[#@LINE-8]]:13: error: cannot differentiate the OpenMP region in 'test_lock' in reverse mode: omp_test_lock (a lock taken only where it is free) (omp_test_lock) is not supported in differentiated code yet

double nest_lock(const double *x, int n) {
  omp_nest_lock_t l;
  omp_init_nest_lock(&l);
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    omp_set_nest_lock(&l);
    s += x[i];
    omp_unset_nest_lock(&l);
  }
  omp_destroy_nest_lock(&l);
  return s;
}
// CHECK: openmp.c:[[#@LINE-11]]:3: error: cannot differentiate 'nest_lock' in reverse mode: nestable OpenMP locks (omp_init_nest_lock) is not supported in differentiated code yet

#ifdef CASLOOP
#include <stdatomic.h>
double c11_product(const double *x, int n) {
  _Atomic double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double old = atomic_load(&p);
    while (!atomic_compare_exchange_weak(&p, &old, old * x[i]))
      ;
  }
  return p;
}
// CAS: openmp.c:[[#@LINE-5]]:13: error: cannot differentiate the OpenMP region in 'c11_product' in reverse mode: an atomic update of a floating-point value with a derivative by a compare-and-swap loop adcc does not recognize (omp atomic in a parallel region is); use omp atomic or a critical section
void c11_gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)c11_product, x, dx, enzyme_const, n);
}
#elif !defined(FORWARD)
void gradients(const double *x, double *dx, double a, int n) {
  __enzyme_autodiff((void *)tasks, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)depend_if0, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)depend_critical, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)untied_tasks, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)ordered, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)taskloop_reduction, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)test_lock, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)nest_lock, x, dx, enzyme_const, n);
}
#else
void tangents(const double *x, const double *dx, int n) {
  __enzyme_fwddiff((void *)tasks, x, dx, enzyme_const, n);
}
#endif
