/* OpenMP parallel loops inside differentiated functions: reverse mode
 * (gradients) against central finite differences, forward mode (tangents)
 * against the gradients (dot-product test), each with teams of 1, 2 and 4
 * threads. Static and dynamic schedules, a sum reduction, shared arrays,
 * private and firstprivate variables, a nested call, reads of a
 * neighbour's element (adjoint updates that other iterations share), a
 * barrier, single and critical blocks, omp atomic, a time loop of regions
 * with num_threads and lastprivate, constant data shared by a region. */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 37 };

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

typedef double (*objective)(const double *, double *, int);
typedef void (*gradient)(const double *, double *, double *, double *);
typedef double (*tangent)(const double *, const double *, double *,
                          double *);
static double sum_squares2(const double *x, double *unused, int n) {
  (void)unused;
  return sum_squares(x, n);
}

/* The gradient and the tangent of each objective. */
#define DERIVATIVES(f)                                                         \
  static void gradient_##f(const double *x, double *dx, double *y,            \
                           double *dy) {                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,         \
                      enzyme_const, N);                                        \
  }                                                                            \
  static double tangent_##f(const double *x, const double *v, double *y,      \
                            double *dy) {                                      \
    return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_dup, y, dy,    \
                            enzyme_const, N);                                  \
  }
DERIVATIVES(sum_squares2)
DERIVATIVES(neighbours)
DERIVATIVES(phases)
DERIVATIVES(atomics)
DERIVATIVES(steps)
#define CHECK_GRADIENT(f) check_gradient(f, gradient_##f, tangent_##f, #f)

static void check_gradient(objective f, gradient grad, tangent tan,
                           const char *name) {
  double x[N], dx[N], v[N], dv[N], y[N], dy[N], tol = 1e-6;
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.05 * i - 0.002 * i * i;
    v[i] = cos(1.0 + i);
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    for (int i = 0; i < N; ++i)
      dx[i] = dy[i] = 0;
    grad(x, dx, y, dy);
    for (int i = 0; i < N; ++i) {
      double xp[N], xm[N], h = 1e-6;
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      double fd = (f(xp, y, N) - f(xm, y, N)) / (2 * h);
      if (fabs(dx[i] - fd) > tol * (1 + fabs(fd)))
        printf("%s, %d threads, x[%d]:\n", name, threads, i);
      CHECK_CLOSE(dx[i], fd, tol);
    }
    /* forward: the tangent along v is the gradient's dot product with v */
    for (int i = 0; i < N; ++i)
      dv[i] = 0;
    double along = tan(x, v, y, dv);
    double dot = 0;
    for (int i = 0; i < N; ++i)
      dot += dx[i] * v[i];
    if (fabs(along - dot) > 1e-9 * (1 + fabs(dot)))
      printf("%s, %d threads: forward against reverse\n", name, threads);
    CHECK_CLOSE(along, dot, 1e-9);
  }
}

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
  CHECK_GRADIENT(sum_squares2);
  CHECK_GRADIENT(neighbours);
  CHECK_GRADIENT(phases);
  CHECK_GRADIENT(atomics);
  CHECK_GRADIENT(steps);
  return check_finish();
}
