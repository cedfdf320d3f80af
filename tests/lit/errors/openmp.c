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

double tasks(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; ++i) {
#pragma omp task depend(inout : s)
    s += x[i] * x[i];
  }
  return s;
}
// CHECK: openmp.c:[[#@LINE-5]]:1: error: cannot differentiate the OpenMP region in 'tasks' in reverse mode: the depend clause of omp task (__kmpc_omp_task_with_deps) is not supported in differentiated code yet
// FWD: openmp.c:[[#@LINE-6]]:1: error: cannot differentiate the OpenMP region in 'tasks' in forward mode: the depend clause of omp task (__kmpc_omp_task_with_deps) is not supported in differentiated code yet

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
// CHECK: openmp.c:[[#@LINE-8]]:1: error: cannot differentiate the OpenMP region in 'untied_tasks' in reverse mode: an untied or detachable omp task, one whose privates have destructors, or a taskloop with private or firstprivate data or a reduction (__kmpc_omp_task_alloc) is not supported in differentiated code yet

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

// (A taskloop without private data is a loop of tasks: e2e
// omp_taskloops.c. The chunks' tasks of one with firstprivate data would
// share the creator's one copy of it.)
double taskloop_firstprivate(const double *x, int n) {
  double s = 0, scale = x[0];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop firstprivate(scale) grainsize(2)
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    s += scale * x[i];
  }
  return s;
}
// CHECK: openmp.c:[[#@LINE-7]]:1: error: cannot differentiate the OpenMP region in 'taskloop_firstprivate' in reverse mode: an untied or detachable omp task, one whose privates have destructors, or a taskloop with private or firstprivate data or a reduction (__kmpc_omp_task_alloc) is not supported in differentiated code yet

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
  __enzyme_autodiff((void *)untied_tasks, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)ordered, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)taskloop_firstprivate, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)test_lock, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)nest_lock, x, dx, enzyme_const, n);
}
#else
void tangents(const double *x, const double *dx, int n) {
  __enzyme_fwddiff((void *)tasks, x, dx, enzyme_const, n);
}
#endif
