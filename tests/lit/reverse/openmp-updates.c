// Which adjoint updates of an OpenMP region's reverse sweep are atomic
// (docs/parallel.md): the thread's stack and the iteration's own element
// of an array are plain; an element other iterations read (a neighbour),
// an array read by two loops of one region, and memory the region writes
// are atomic; memory the region only reads at places that do not depend
// on the iteration goes into per-thread copies. The remark (-Rpass=adcc)
// counts them, and says where critical sections (a reduction other than
// a sum) are replayed in the reverse of the threads' order.
// RUN: %adcc -fopenmp -O2 -c %s -o /dev/null -Rpass=adcc 2>&1 | FileCheck %s
// RUN: %adcc -fopenmp -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double own_elements(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'own_elements': adjoint updates of memory: 1 atomic adds (memory other threads may update: 1), 2 plain (private memory: 1, the iteration's own element of an array: 1) [-Rpass=adcc]

double neighbour(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n - 1; ++i)
    y[i] = x[i] * x[i + 1];
  return y[0];
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'neighbour': adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 0 plain

double two_loops(const double *x, double *y, double *z, int n) {
#pragma omp parallel
  {
#pragma omp for nowait schedule(dynamic)
    for (int i = 0; i < n; ++i)
      y[i] = x[i] * x[i];
#pragma omp for nowait schedule(dynamic)
    for (int i = 0; i < n; ++i)
      z[i] = 2 * x[i];
  }
  return y[0] + z[0];
}
// CHECK: openmp-updates.c:[[#@LINE-11]]:1: remark: reverse mode of the OpenMP region in 'two_loops': adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 0 plain

// (x's own elements are atomic: p may point into x, parameters(a, a).)
double parameters(const double *p, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] + p[1] * x[i] * x[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'parameters': adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 1 plain (private memory: 1), 2 into per-thread copies (memory the region only reads, at places that do not depend on the iteration: 2)

double written(double *p, const double *x, int n) {
#pragma omp parallel
  {
#pragma omp single
    p[1] = p[0] * p[0];
#pragma omp for
    for (int i = 0; i < n; ++i)
      p[2 + i] = p[1] * x[i];
  }
  return p[2];
}
// CHECK: openmp-updates.c:[[#@LINE-10]]:1: remark: reverse mode of the OpenMP region in 'written': adjoint updates of memory: 3 atomic adds (memory other threads may update: 3), 0 plain

double largest(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; ++i)
    m = x[i] * x[i] > m ? x[i] * x[i] : m;
  return m;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'largest': adjoint updates of memory: {{.*}}; critical sections replayed in the reverse of the threads' order (not all their updates are sums)

// Memory reached through a struct that holds its address: a write through
// it (the store inlined) keeps the parameters atomic, and a read through
// it makes the iteration's own element atomic (RegionAliases.h).
struct holder {
  double *p;
};
double held(double *p, const double *x, int n) {
  struct holder h = {p};
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    h.p[0] = h.p[0] * h.p[0];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += p[0] * x[i];
  }
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-10]]:1: remark: reverse mode of the OpenMP region in 'held': adjoint updates of memory: 4 atomic adds (memory other threads may update: 4), 1 plain (private memory: 1) [-Rpass=adcc]

struct reader {
  const double *x;
};
double aliased(const double *p, const double *x, int n) {
  struct reader r = {x};
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] * x[i] + r.x[0] * x[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'aliased': adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 1 plain (private memory: 1), 2 into per-thread copies (memory the region only reads, at places that do not depend on the iteration: 2)

// Two pointer arguments may point into one array (f(a, a + 1)): reads of
// both at the iteration's own elements are checked at run time, restrict
// or not (C lets restrict pointers that are only read overlap): the
// augmented region notes whether the ranges the loop reads are apart
// (adcc_parallel_note_apart), and the reverse region's updates are plain
// where they were, atomic where not (adcc_parallel_apart; e2e
// omp_overlap_check.c runs both); a write through one keeps
// the other's own elements plain (a program without data races orders
// them). A region that writes through one argument what it reads at fixed
// places through another keeps no per-thread copies, unless the written
// one is restrict.
double pair(const double *x, const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'pair': adjoint updates of memory: 1 atomic adds (memory other threads may update: 1), 1 plain (private memory: 1), 2 plain where a run-time check finds the arrays apart, atomic where they overlap (the iteration's own element of arrays that pointer arguments may share: 2) [-Rpass=adcc]

// IR-LABEL: define internal void @augmented_pair.omp_outlined(
// IR: [[APART:%.*]] = zext i1 {{.*}} to i32
// IR-NEXT: call void @adcc_parallel_note_apart(i32 0, i32 [[APART]], i32 0)
// IR-LABEL: define internal void @diffe_pair.omp_outlined(
// IR: call i32 @adcc_parallel_apart(i32 0, i32 0)

double pair_restrict(const double *restrict x, const double *restrict y,
                     int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'pair_restrict': adjoint updates of memory: 1 atomic adds (memory other threads may update: 1), 1 plain (private memory: 1), 2 plain where a run-time check finds the arrays apart, atomic where they overlap (the iteration's own element of arrays that pointer arguments may share: 2) [-Rpass=adcc]

// (Passed to the region by value: at -O2 the function's arguments.)
double pair_by_value(const double *x, const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(x, y)
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'pair_by_value': adjoint updates of memory: 1 atomic adds (memory other threads may update: 1), 1 plain (private memory: 1), 2 plain where a run-time check finds the arrays apart, atomic where they overlap (the iteration's own element of arrays that pointer arguments may share: 2) [-Rpass=adcc]

double map(double *y, const double *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i];
  return y[0];
}
// CHECK: openmp-updates.c:[[#@LINE-5]]:1: remark: reverse mode of the OpenMP region in 'map': adjoint updates of memory: 0 atomic adds, 1 plain (the iteration's own element of an array: 1) [-Rpass=adcc]

double rewrite(double *q, const double *p, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      q[i] = q[i] * q[i];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += p[0] * p[i];
  }
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-11]]:1: remark: reverse mode of the OpenMP region in 'rewrite': adjoint updates of memory: 4 atomic adds (memory other threads may update: 4), 1 plain (private memory: 1) [-Rpass=adcc]

double rewrite_restrict(double *restrict q, const double *p, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      q[i] = q[i] * q[i];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += p[0] * p[i];
  }
  return s;
}
// CHECK: openmp-updates.c:[[#@LINE-11]]:1: remark: reverse mode of the OpenMP region in 'rewrite_restrict': adjoint updates of memory: {{.*}} 2 into per-thread copies (memory the region only reads, at places that do not depend on the iteration: 2) [-Rpass=adcc]

void gradients(const double *x, double *dx, double *y, double *dy, double *z,
               double *dz, int n) {
  __enzyme_autodiff((void *)own_elements, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)neighbour, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
  __enzyme_autodiff((void *)two_loops, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_dup, z, dz, enzyme_const, n);
  __enzyme_autodiff((void *)parameters, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)written, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)largest, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)held, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)aliased, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)pair, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
  __enzyme_autodiff((void *)pair_restrict, enzyme_dup, x, dx, enzyme_dup, y,
                    dy, enzyme_const, n);
  __enzyme_autodiff((void *)pair_by_value, enzyme_dup, x, dx, enzyme_dup, y,
                    dy, enzyme_const, n);
  __enzyme_autodiff((void *)map, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)rewrite, enzyme_dup, y, dy, enzyme_dup, x, dx,
                    enzyme_const, n);
  __enzyme_autodiff((void *)rewrite_restrict, enzyme_dup, y, dy, enzyme_dup,
                    x, dx, enzyme_const, n);
}
