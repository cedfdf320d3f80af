/* OpenMP parallel loops inside differentiated functions: reverse mode
 * (gradients) against central finite differences, forward mode (tangents)
 * against the gradients (dot-product test), each with teams of 1, 2 and 4
 * threads. Static and dynamic schedules, a sum reduction, shared arrays,
 * private and firstprivate variables, a nested call, reads of a
 * neighbour's element (adjoint updates that other iterations share), a
 * barrier, single and critical blocks, omp atomic, a time loop of regions
 * with num_threads and lastprivate, constant data shared by a region. */
enum { N = 37 };

#include "omp_check.h"

/* sum x_i^2, a reduction over a static schedule */
double sum_squares(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

static double weight(double v, int i) { return sin(v) * (1.0 + 0.1 * i); }

/* y_i = w(x_i) x_{i+1}, then sum y_i^2: a shared output array, a neighbour's
 * element read by two iterations, a private temporary, a firstprivate
 * scale, a dynamic schedule with chunks of 3. */
double neighbours(const double *x, double *y, int n) {
  double scale = 0.5;
  double t;
#pragma omp parallel for schedule(dynamic, 3) private(t) firstprivate(scale)
  for (int i = 0; i < n - 1; ++i) {
    t = weight(x[i], i);
    y[i] = scale * t * x[i + 1];
  }
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 4)
  for (int i = 0; i < n - 1; ++i)
    s += y[i] * y[i];
  return s;
}

/* A region with two loops, a barrier between them, a single block and a
 * critical section: the second loop reads what other threads wrote. */
double phases(const double *x, double *tmp, int n) {
  double total = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      tmp[i] = exp(0.1 * x[i]);
#pragma omp single
    tmp[0] *= 2.0;
    double mine = 0;
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      mine += tmp[i] * tmp[n - 1 - i];
#pragma omp critical
    total += mine;
  }
  return total;
}

/* omp atomic updates of a shared sum, from gathered elements. */
double atomics(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; ++i) {
    double v = x[i] * x[(7 * i) % n];
#pragma omp atomic
    s += v;
#pragma omp atomic
    s -= 0.25 * v * v;
  }
  return s;
}

static double smooth(const double *v, int i, int n) {
  return 0.25 * v[i > 0 ? i - 1 : i] + 0.5 * v[i] +
         0.25 * v[i < n - 1 ? i + 1 : i];
}

/* A time loop of regions with other team sizes than the caller's
 * (num_threads), a callee that reads neighbours through a pointer, and a
 * lastprivate value read after the loop. */
double steps(const double *x, double *y, int n) {
  double u[N], last = 0;
  for (int i = 0; i < n; ++i)
    u[i] = x[i];
  for (int t = 0; t < 3; ++t) {
#pragma omp parallel for num_threads(3) lastprivate(last)
    for (int i = 0; i < n; ++i) {
      y[i] = smooth(u, i, n) + 0.1 * sin(u[i]);
      last = y[i];
    }
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < n; ++i)
      u[i] = y[i] * (1.0 + 0.01 * t);
  }
  double s = last;
  for (int i = 0; i < n; ++i)
    s += u[i] * u[i];
  return s;
}

/* Constant data (enzyme_const, no shadow) shared by the region. */
double weighted(const double *x, const double *c, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += c[i] * x[i] * x[i];
  return s;
}

static double sum_squares2(const double *x, double *unused, int n) {
  (void)unused;
  return sum_squares(x, n);
}

DERIVATIVES(sum_squares2)
DERIVATIVES(neighbours)
DERIVATIVES(phases)
DERIVATIVES(atomics)
DERIVATIVES(steps)
int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.1 * i;
  /* analytic: d/dx sum x^2 = 2x */
  double dx[N] = {0};
  omp_set_num_threads(4);
  __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], 2 * x[i], 1e-12);
  /* analytic: d/dx sum c x^2 = 2 c x, c constant */
  double c[N];
  for (int i = 0; i < N; ++i)
    c[i] = 1.0 + 0.5 * i;
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    for (int i = 0; i < N; ++i)
      dx[i] = 0;
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_const, N);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(dx[i], 2 * c[i] * x[i], 1e-12);
  }
  CHECK_GRADIENT(sum_squares2, 1e-6, 1e-6);
  CHECK_GRADIENT(neighbours, 1e-6, 1e-6);
  CHECK_GRADIENT(phases, 1e-6, 1e-6);
  CHECK_GRADIENT(atomics, 1e-6, 1e-6);
  CHECK_GRADIENT(steps, 1e-6, 1e-6);
  return check_finish();
}
