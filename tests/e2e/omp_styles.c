/* OpenMP in the styles real codes write it, inside differentiated
 * functions: gradients (reverse) against central differences and tangents
 * (forward) against gradients, with teams of 1, 2 and 4 threads. An array
 * reduction reduction(+ : a[:n]), collapse(2), schedule(dynamic, 1) with a
 * shared accumulator under omp atomic, partial sums indexed by
 * omp_get_thread_num() combined serially after the region, functions with
 * their own (orphaned) omp for called inside a region, lastprivate read
 * after the loop. */
enum { N = 24 };

#include "omp_check.h"

/* A histogram-like array reduction: every iteration adds into a few of
 * the bins, the bins are then combined nonlinearly. */
enum { BINS = 5 };
double array_reduction(const double *x, double *y, int n) {
  double bins[BINS] = {0};
  (void)y;
#pragma omp parallel for reduction(+ : bins[:BINS]) schedule(static, 2)
  for (int i = 0; i < n; ++i) {
    bins[i % BINS] += x[i] * x[(i + 3) % n];
    bins[(i * 3) % BINS] += sin(x[i]);
  }
  double s = 0;
  for (int b = 0; b < BINS; ++b)
    s += bins[b] * bins[b] * (1 + b);
  return s;
}

/* collapse(2) over a 2-D grid (x as 4 x 6), a five-point-like stencil
 * into y, then a reduction. */
enum { ROWS = 4, COLS = 6 };
double collapsed(const double *x, double *y, int n) {
  (void)n;
#pragma omp parallel for collapse(2) schedule(static)
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      double left = c > 0 ? x[r * COLS + c - 1] : 0;
      double up = r > 0 ? x[(r - 1) * COLS + c] : 0;
      y[r * COLS + c] = x[r * COLS + c] * (1 + left) + 0.5 * up * up;
    }
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s) schedule(dynamic, 3)
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      s += y[r * COLS + c] * cos(y[r * COLS + c]);
  return s;
}

/* schedule(dynamic, 1), every iteration adds into one shared accumulator
 * and into a shared array element under omp atomic. */
double dynamic_atomic(const double *x, double *y, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    y[i] = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < n; ++i) {
    double v = exp(0.2 * x[i]) * x[(i + 1) % n];
#pragma omp atomic
    acc += v;
#pragma omp atomic
    y[i % 3] += v * x[i];
  }
  return acc * acc + y[0] * y[1] + y[2];
}

/* Partial sums indexed by the thread number, combined after the region
 * (the style of codes written before reductions existed). */
enum { MAX_THREADS = 16 };
double thread_partials(const double *x, double *y, int n) {
  double partial[MAX_THREADS];
  int used = 1;
  (void)y;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    used = omp_get_num_threads();
    partial[t] = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i)
      partial[t] += x[i] * x[i] * x[(i + 5) % n];
  }
  double s = 0;
  for (int t = 0; t < used; ++t)
    s += partial[t] * (1.0 + 0.0 * t);
  return s * s * 0.01 + s;
}

/* Orphaned worksharing: functions with their own omp for, called by every
 * thread of a region started elsewhere. */
static void scale_into(const double *x, double *y, int n, double a) {
#pragma omp for schedule(static)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] * x[i];
}

static void dot_sum(const double *y, const double *x, int n, double *sum) {
  double mine = 0;
#pragma omp for schedule(dynamic, 2) nowait
  for (int i = 0; i < n; ++i)
    mine += y[i] * sin(x[i]);
#pragma omp atomic
  *sum += mine;
#pragma omp barrier
}

double orphaned(const double *x, double *y, int n) {
  double result = 0;
#pragma omp parallel
  {
    scale_into(x, y, n, 1.5);
    dot_sum(y, x, n, &result);
  }
  return result * result;
}

/* lastprivate: the value of the last iteration, read after the loop. */
double last_value(const double *x, double *y, int n) {
  double last = 0;
  double s = 0;
#pragma omp parallel for lastprivate(last) reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    last = x[i] * x[(i + 7) % n];
    y[i] = last;
    s += last;
  }
  return s + last * last * 3.0;
}

/* array-section reduction into a pointer argument's memory */
double ptr_section(const double *x, double *y, int n) {
  for (int i = 0; i < 4; ++i)
    y[i] = 0;
#pragma omp parallel for reduction(+ : y[:4])
  for (int i = 0; i < n; ++i)
    y[i % 4] += x[i] * x[i];
  return y[0] * y[1] + y[2] * y[3];
}

/* parallel for simd */
double for_simd(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * (1.0 + 0.5 * x[i]);
  (void)y;
  return s * s;
}

/* sections */
double sections(const double *x, double *y, int n) {
  double a = 0, b = 0;
#pragma omp parallel sections
  {
#pragma omp section
    {
      for (int i = 0; i < n / 2; ++i)
        a += x[i] * x[i];
    }
#pragma omp section
    {
      for (int i = n / 2; i < n; ++i)
        b += exp(0.1 * x[i]);
    }
  }
  (void)y;
  return a * b;
}

/* max reduction over an array section */
double max_section(const double *x, double *y, int n) {
  double m[2] = {-1e300, -1e300};
#pragma omp parallel for reduction(max : m[:2])
  for (int i = 0; i < n; ++i) {
    double v = x[i] * (1 + 0.01 * i);
    if (v > m[i % 2])
      m[i % 2] = v;
  }
  (void)y;
  return m[0] * m[1];
}

/* lastprivate with collapse, nowait + barrier, default(none) */
double collapse_last(const double *x, double *y, int n) {
  double last = 0;
#pragma omp parallel default(none) shared(x, y, n, last)
  {
#pragma omp for collapse(2) lastprivate(last) nowait
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 5; ++c) {
        last = x[r * 5 + c] * x[(r * 5 + c + 1) % n];
        y[r * 5 + c] = last;
      }
#pragma omp barrier
  }
  double s = 0;
  for (int i = 0; i < 20; ++i)
    s += y[i] * y[i];
  return s + last;
}

/* parallel for reduction(*) */
double prod_red(const double *x, double *y, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(dynamic, 1)
  for (int i = 0; i < n; ++i)
    p *= 1 + 0.1 * x[i];
  (void)y;
  return p;
}

/* A user-defined reduction of a struct (declare reduction). */
typedef struct {
  double s, q;
} pair_t;
#pragma omp declare reduction(padd:pair_t : omp_out.s += omp_in.s,            \
                                  omp_out.q += omp_in.q)                       \
    initializer(omp_priv = (pair_t){0, 0})

double udr(const double *x, double *y, int n) {
  pair_t p = {0, 0};
  (void)y;
#pragma omp parallel for reduction(padd : p)
  for (int i = 0; i < n; ++i) {
    p.s += x[i];
    p.q += x[i] * x[i];
  }
  return p.q - p.s * p.s / n;
}

/* schedule(runtime), set by omp_set_schedule in main. */
double runtime_sched(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[(i + 1) % n];
    s += y[i] * y[i];
  }
  return s;
}

/* A nonmonotonic dynamic schedule. */
double nonmono(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for schedule(nonmonotonic : dynamic, 2) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * x[(i * 3) % n];
  return s;
}

/* The loop construct. */
double loop_construct(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel loop reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}

/* atomic write in a masked block, atomic read after a barrier. */
double atomic_rw(const double *x, double *y, int n) {
  double shared = 0, s = 0;
  (void)y;
#pragma omp parallel reduction(+ : s)
  {
#pragma omp masked
    {
#pragma omp atomic write
      shared = x[0] * x[1];
    }
#pragma omp barrier
    double v;
#pragma omp atomic read
    v = shared;
#pragma omp for
    for (int i = 0; i < n; ++i)
      s += v * x[i];
  }
  return s;
}

/* An if clause that makes the region run on one thread. */
double if_clause(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for if (n > 100) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += exp(0.1 * x[i]);
  return s;
}

/* firstprivate array with derivatives */
double fp_array(const double *x, double *y, int n) {
  double w[3] = {x[0], x[1] * x[1], sin(x[2])};
  double s = 0;
  (void)y;
#pragma omp parallel for firstprivate(w) reduction(+ : s)
  for (int i = 3; i < n; ++i) {
    w[i % 3] *= 1.01;
    s += w[0] * x[i] + w[1] * w[2] * x[i] * x[i];
  }
  return s;
}

/* firstprivate struct with derivatives */
typedef struct {
  double a, b;
  int k;
} params_t;
double fp_struct(const double *x, double *y, int n) {
  params_t p = {x[0] * 2, x[1] + 1, 3};
  double s = 0;
  (void)y;
#pragma omp parallel for firstprivate(p) reduction(+ : s)
  for (int i = 2; i < n; ++i)
    s += p.a * x[i] + p.b * x[i] * x[i] * p.k;
  return s;
}

/* private VLA per thread, simd reduction nested in the parallel loop */
double vla_simd(const double *x, double *y, int n) {
  int k = 4;
  double s = 0;
  (void)y;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    double tmp[k];
    for (int j = 0; j < k; ++j)
      tmp[j] = x[(i + j) % n] * (1 + j);
    double t = 0;
#pragma omp simd reduction(+ : t)
    for (int j = 0; j < k; ++j)
      t += tmp[j] * tmp[j];
    s += sqrt(t);
  }
  return s;
}

/* histogram by atomics into a computed bin */
double atomic_hist(const double *x, double *y, int n) {
  for (int b = 0; b < 5; ++b)
    y[b] = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < n; ++i) {
    int b = (int)(fabs(x[i]) * 7) % 5;
#pragma omp atomic update
    y[b] += x[i] * x[(i + 1) % n];
  }
  double s = 0;
  for (int b = 0; b < 5; ++b)
    s += y[b] * y[b] * (b + 1);
  return s;
}

/* (A global reduced into by a region, and a static local of an orphaned
 * function: until 2026-12-06 errors, "no write of it in the differentiated
 * code", the region's body was not searched for writes of globals.) */
double g_acc;

/* downward loop, long long index, guided */
double downward(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for reduction(+ : s) schedule(guided, 2)
  for (long long i = n - 1; i >= 0; i -= 2)
    s += x[i] * x[(i + 3) % n] * x[(i + 3) % n];
  return s;
}

/* unsigned index with stride 3 */
double ustride(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for reduction(+ : s)
  for (unsigned i = 1; i < (unsigned)n; i += 3)
    s += exp(0.1 * x[i]) * x[i - 1];
  return s;
}

/* triangular collapse (non-rectangular) */
double triangle(const double *x, double *y, int n) {
  double s = 0;
  (void)y;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < 5; ++i)
    for (int j = i; j < 5; ++j)
      s += x[i] * x[j] * (1 + 0.1 * (i + j));
  (void)n;
  return s;
}

/* reduction into a global; nowait reduction followed by barrier */
double global_red(const double *x, double *y, int n) {
  g_acc = 0;
  double t = 0;
  (void)y;
#pragma omp parallel
  {
#pragma omp for reduction(+ : g_acc) nowait
    for (int i = 0; i < n; ++i)
      g_acc += x[i] * x[i];
#pragma omp for reduction(+ : t)
    for (int i = 0; i < n; ++i)
      t += sin(x[i]);
  }
  return g_acc * t;
}

static double orphan_sum(const double *x, int n) {
  static double sum; /* shared: every thread of the team sees one */
#pragma omp single
  sum = 0;
#pragma omp for reduction(+ : sum) schedule(dynamic, 2)
  for (int i = 0; i < n; ++i)
    sum += x[i] * cos(x[(i + 1) % n]);
  return sum;
}

/* An orphaned reduction into a static local of the function. */
double static_red(const double *x, double *y, int n) {
  double result = 0;
  (void)y;
#pragma omp parallel
  {
    double s = orphan_sum(x, n);
#pragma omp single
    result = s * s;
  }
  return result;
}

static double coef[3];
double grid_g[N];

/* Global parameters set by the function, read by every iteration. */
double global_params(const double *x, double *y, int n) {
  coef[0] = x[0];
  coef[1] = x[1] * x[1];
  coef[2] = sin(x[2]);
  double s = 0;
  (void)y;
#pragma omp parallel for reduction(+ : s)
  for (int i = 3; i < n; ++i)
    s += coef[0] * x[i] + coef[1] * x[i] * x[i] + coef[2];
  return s;
}

/* A global array written by one region, read by the next. */
double global_array(const double *x, double *y, int n) {
  (void)y;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    grid_g[i] = x[i] * x[(i + 1) % n];
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += grid_g[i] * grid_g[(i + 2) % n];
  return s;
}

DERIVATIVES(array_reduction)
DERIVATIVES(collapsed)
DERIVATIVES(dynamic_atomic)
DERIVATIVES(thread_partials)
DERIVATIVES(orphaned)
DERIVATIVES(last_value)
DERIVATIVES(ptr_section)
DERIVATIVES(for_simd)
DERIVATIVES(sections)
DERIVATIVES(max_section)
DERIVATIVES(collapse_last)
DERIVATIVES(prod_red)
DERIVATIVES(udr)
DERIVATIVES(runtime_sched)
DERIVATIVES(nonmono)
DERIVATIVES(loop_construct)
DERIVATIVES(atomic_rw)
DERIVATIVES(if_clause)
DERIVATIVES(fp_array)
DERIVATIVES(fp_struct)
DERIVATIVES(vla_simd)
DERIVATIVES(atomic_hist)
DERIVATIVES(downward)
DERIVATIVES(ustride)
DERIVATIVES(triangle)
DERIVATIVES(global_red)
DERIVATIVES(static_red)
DERIVATIVES(global_params)
DERIVATIVES(global_array)

int main(void) {
  omp_set_schedule(omp_sched_dynamic, 3);
  CHECK_GRADIENT(array_reduction, 1e-6, 1e-6);
  CHECK_GRADIENT(collapsed, 1e-6, 1e-6);
  CHECK_GRADIENT(dynamic_atomic, 1e-6, 1e-6);
  CHECK_GRADIENT(thread_partials, 1e-6, 1e-6);
  CHECK_GRADIENT(orphaned, 1e-6, 1e-6);
  CHECK_GRADIENT(last_value, 1e-6, 1e-6);
  CHECK_GRADIENT(ptr_section, 1e-6, 1e-6);
  CHECK_GRADIENT(for_simd, 1e-6, 1e-6);
  CHECK_GRADIENT(sections, 1e-6, 1e-6);
  CHECK_GRADIENT(max_section, 1e-6, 1e-6);
  CHECK_GRADIENT(collapse_last, 1e-6, 1e-6);
  CHECK_GRADIENT(prod_red, 1e-6, 1e-6);
  CHECK_GRADIENT(udr, 1e-6, 1e-6);
  CHECK_GRADIENT(runtime_sched, 1e-6, 1e-6);
  CHECK_GRADIENT(nonmono, 1e-6, 1e-6);
  CHECK_GRADIENT(loop_construct, 1e-6, 1e-6);
  CHECK_GRADIENT(atomic_rw, 1e-6, 1e-6);
  CHECK_GRADIENT(if_clause, 1e-6, 1e-6);
  CHECK_GRADIENT(fp_array, 1e-6, 1e-6);
  CHECK_GRADIENT(fp_struct, 1e-6, 1e-6);
  CHECK_GRADIENT(vla_simd, 1e-6, 1e-6);
  CHECK_GRADIENT(atomic_hist, 1e-6, 1e-6);
  CHECK_GRADIENT(downward, 1e-6, 1e-6);
  CHECK_GRADIENT(ustride, 1e-6, 1e-6);
  CHECK_GRADIENT(triangle, 1e-6, 1e-6);
  CHECK_GRADIENT(global_red, 1e-6, 1e-6);
  CHECK_GRADIENT(static_red, 1e-6, 1e-6);
  CHECK_GRADIENT(global_params, 1e-6, 1e-6);
  CHECK_GRADIENT(global_array, 1e-6, 1e-6);
  return check_finish();
}
