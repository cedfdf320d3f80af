/* hvp_bench.c: nested derivatives, Hessian-vector products by forward mode
 * over reverse mode (__enzyme_fwddiff of a function that calls
 * __enzyme_autodiff), against the gradient they differentiate.
 *
 *   sumsq       H v of sum x_i^2 (the kernel of bench/common/kernels.h);
 *   rosenbrock  H v of the chained Rosenbrock function (same);
 *   kmeans      the Newton direction of the k-means cost
 *               f(C) = sum_i min_k |p_i - c_k|^2 over the centroids C, as
 *               GradBench's kmeans computes it: the gradient and, by one
 *               Hessian-vector product with a vector of ones, the
 *               Hessian's diagonal (the Hessian is diagonal), then their
 *               quotient.
 *
 * For each it times, per call (medians of interleaved samples): the
 * primal; the gradient (with the zeroing of the gradient array such a call
 * needs); the Hessian-vector product (one forward-over-reverse call, which
 * also gives the gradient; kmeans: the whole direction). The ratio to
 * watch is hvp / gradient (issue 34: at most 4). Every derivative is
 * verified before it is timed: the gradient against central differences
 * on a few coordinates, H v against a closed form and against central
 * differences of the gradient along v. A wrong derivative is reported,
 * not timed, and makes the program exit with 1.
 *
 * Only the Enzyme C API is used, so the same file builds with
 *   adcc -O2 hvp_bench.c -lm
 *   clang-19 -fplugin=ClangEnzyme-19.so -O2 hvp_bench.c -lm
 *
 * Usage: hvp_bench [--quick] [--json FILE] [--min-time S] [--samples N]
 *                  [--only NAME[,NAME...]] [--verbose] [--verify-only]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/kernels.h"
#include "../common/measure.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))

/* ---- k-means (GradBench's objective) ----------------------------------- */

static double kmeans_cost(const double *restrict P, const double *restrict C,
                          int n, int k, int d) {
  double cost = 0;
  for (int i = 0; i < n; i++) {
    const double *p = P + (long)i * d;
    double best = INFINITY;
    for (int j = 0; j < k; j++) {
      const double *c = C + (long)j * d;
      double s = 0;
      for (int e = 0; e < d; e++)
        s += (p[e] - c[e]) * (p[e] - c[e]);
      best = s < best ? s : best;
    }
    cost += best;
  }
  return cost;
}

/* ---- The derivatives timed ----------------------------------------------- */

NOINLINE static void grad_sumsq(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, n);
}
NOINLINE static void hvp_sumsq(const double *x, const double *v, double *g,
                               double *hv, int n) {
  __enzyme_fwddiff((void *)grad_sumsq, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, n);
}
NOINLINE static void grad_rosen(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, g, enzyme_const, n);
}
NOINLINE static void hvp_rosen(const double *x, const double *v, double *g,
                               double *hv, int n) {
  __enzyme_fwddiff((void *)grad_rosen, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, n);
}
NOINLINE static void grad_kmeans(const double *P, const double *C, double *J,
                                 int n, int k, int d) {
  __enzyme_autodiff((void *)kmeans_cost, enzyme_const, P, enzyme_dup, C, J,
                    enzyme_const, n, enzyme_const, k, enzyme_const, d);
}
NOINLINE static void hvp_kmeans(const double *P, const double *C,
                                const double *v, double *J, double *H, int n,
                                int k, int d) {
  __enzyme_fwddiff((void *)grad_kmeans, enzyme_const, P, enzyme_dup, C, v,
                   enzyme_dup, J, H, enzyme_const, n, enzyme_const, k,
                   enzyme_const, d);
}

/* ---- Instances ------------------------------------------------------------ */

enum { SUMSQ, ROSEN, KMEANS, NSPECS };
static const struct {
  const char *name;
} specs[NSPECS] = {{"sumsq"}, {"rosenbrock"}, {"kmeans"}};
enum { V_PRIMAL, V_GRAD, V_HVP, NVAR };

typedef struct {
  int kind, n, k, d;
  long len;                    /* entries of x (kmeans: of C) */
  double *x, *v, *g, *hv, *P; /* kmeans: x = C, hv = the direction */
  double ret;                  /* the primal's last value */
  char size[48];
} bench_t;

static void setup(bench_t *b, int kind, int quick) {
  memset(b, 0, sizeof *b);
  b->kind = kind;
  if (kind == KMEANS) {
    b->n = quick ? 1000 : 10000;
    b->k = quick ? 10 : 100;
    b->d = 8;
    b->len = (long)b->k * b->d;
    snprintf(b->size, sizeof b->size, "n=%d k=%d d=%d", b->n, b->k, b->d);
    b->P = alloc((long)b->n * b->d);
    for (long i = 0; i < (long)b->n * b->d; i++)
      b->P[i] = urand(-1, 1);
  } else {
    b->n = quick ? 4096 : 262144;
    b->len = b->n;
    snprintf(b->size, sizeof b->size, "n=%d", b->n);
  }
  b->x = alloc(b->len);
  b->v = alloc(b->len);
  b->g = alloc(b->len);
  b->hv = alloc(b->len);
  for (long i = 0; i < b->len; i++) {
    /* (kmeans: centroids at points, so that every cluster has some) */
    b->x[i] = kind == KMEANS ? b->P[i] : urand(-1, 1);
    b->v[i] = kind == KMEANS ? 1.0 : urand(-1, 1);
  }
}

static double primal(bench_t *b, const double *x) {
  switch (b->kind) {
  case SUMSQ:
    return sumsq(x, b->n);
  case ROSEN:
    return rosenbrock(x, b->n);
  default:
    return kmeans_cost(b->P, x, b->n, b->k, b->d);
  }
}

static void gradient(bench_t *b, const double *x, double *g) {
  memset(g, 0, b->len * sizeof *g);
  if (b->kind == SUMSQ)
    grad_sumsq(x, g, b->n);
  else if (b->kind == ROSEN)
    grad_rosen(x, g, b->n);
  else
    grad_kmeans(b->P, x, g, b->n, b->k, b->d);
}

/* H v (kmeans: the Newton direction J / diag(H) into hv) */
static void hvp(bench_t *b) {
  memset(b->g, 0, b->len * sizeof *b->g);
  memset(b->hv, 0, b->len * sizeof *b->hv);
  if (b->kind == SUMSQ) {
    hvp_sumsq(b->x, b->v, b->g, b->hv, b->n);
  } else if (b->kind == ROSEN) {
    hvp_rosen(b->x, b->v, b->g, b->hv, b->n);
  } else {
    hvp_kmeans(b->P, b->x, b->v, b->g, b->hv, b->n, b->k, b->d);
    for (long i = 0; i < b->len; i++)
      b->hv[i] = b->hv[i] != 0 ? b->g[i] / b->hv[i] : 0;
  }
}

/* The variants timed (harness.h) */
typedef double (*runfn)(bench_t *);
#define BENCH_CALL(f, b) (f)(b)
static NOINLINE double run_primal(bench_t *b) {
  return b->ret = primal(b, b->x); /* (a write: not hoisted out of loops) */
}
static NOINLINE double run_gradient(bench_t *b) {
  gradient(b, b->x, b->g);
  return b->g[0];
}
static NOINLINE double run_hvp(bench_t *b) {
  hvp(b);
  return b->hv[0];
}

#include "../common/harness.h"

/* H v in closed form (kmeans: the Hessian's diagonal, 2 per point in the
 * centroid's cluster) */
static void hess_vec(bench_t *b, double *want) {
  const double *x = b->x, *v = b->v;
  if (b->kind == SUMSQ) {
    for (long i = 0; i < b->len; i++)
      want[i] = 2 * v[i];
    return;
  }
  if (b->kind == ROSEN) {
    int n = b->n;
    for (int i = 0; i < n; i++) {
      double h = 0;
      if (i + 1 < n)
        h += (2 + 1200 * x[i] * x[i] - 400 * x[i + 1]) * v[i] -
             400 * x[i] * v[i + 1];
      if (i > 0)
        h += 200 * v[i] - 400 * x[i - 1] * v[i - 1];
      want[i] = h;
    }
    return;
  }
  memset(want, 0, b->len * sizeof *want);
  for (int i = 0; i < b->n; i++) {
    const double *p = b->P + (long)i * b->d;
    double best = INFINITY;
    int at = 0;
    for (int j = 0; j < b->k; j++) {
      double s = 0;
      for (int e = 0; e < b->d; e++)
        s += (p[e] - x[j * b->d + e]) * (p[e] - x[j * b->d + e]);
      if (s < best)
        best = s, at = j;
    }
    for (int e = 0; e < b->d; e++)
      want[at * b->d + e] += 2 * v[at * b->d + e];
  }
}

/* The gradient against central differences on 8 coordinates (of a sum of
 * thousands of terms: 1e-4); H v against
 * the closed form and against central differences of the gradient along
 * v (relative to the largest entry); kmeans: the direction against J /
 * diag(H) from the closed form. */
static int verify(bench_t *b, int verbose) {
  long len = b->len;
  double *g = alloc(len), *gp = alloc(len), *gm = alloc(len),
         *xs = alloc(len), *want = alloc(len), *fd = alloc(len);
  gradient(b, b->x, g);
  double egrad = 0;
  for (int t = 0; t < 8; t++) {
    long i = (long)(t * (len - 1) / 7);
    memcpy(xs, b->x, len * sizeof *xs);
    double h = 1e-5 * (fabs(xs[i]) > 1 ? fabs(xs[i]) : 1);
    xs[i] = b->x[i] + h;
    double up = primal(b, xs);
    xs[i] = b->x[i] - h;
    double down = primal(b, xs);
    double d = (up - down) / (2 * h);
    double e = fabs(g[i] - d) / (fabs(d) > 1 ? fabs(d) : 1);
    egrad = e > egrad ? e : egrad;
  }
  hvp(b);
  double h = 1e-6;
  for (long i = 0; i < len; i++)
    xs[i] = b->x[i] + h * b->v[i];
  gradient(b, xs, gp);
  for (long i = 0; i < len; i++)
    xs[i] = b->x[i] - h * b->v[i];
  gradient(b, xs, gm);
  for (long i = 0; i < len; i++)
    fd[i] = (gp[i] - gm[i]) / (2 * h);
  hess_vec(b, want);
  if (b->kind == KMEANS)
    for (long i = 0; i < len; i++) {
      want[i] = want[i] != 0 ? g[i] / want[i] : 0;
      fd[i] = fd[i] != 0 ? g[i] / fd[i] : 0;
    }
  double eexact = rel_err(b->hv, want, len, 1e-12);
  double efd = rel_err(b->hv, fd, len, 1e-3);
  double egh = rel_err(b->g, g, len, 1e-12);
  if (verbose)
    printf("  %s: gradient vs differences %.1e; H v vs closed form %.1e, vs "
           "differences of the gradient %.1e; its gradient %.1e\n",
           specs[b->kind].name, egrad, eexact, efd, egh);
  release(g), release(gp), release(gm), release(xs), release(want),
      release(fd);
  return egrad < 1e-4 && eexact < 1e-10 && efd < 1e-5 && egh < 1e-12;
}

/* ---- Main ------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(f, "Usage: hvp_bench [--quick] [--json FILE] [--min-time S] "
             "[--samples N]\n"
             "                 [--only NAME[,NAME...]] [--verbose] "
             "[--verify-only]\n"
             "  benchmarks: sumsq rosenbrock kmeans\n");
}

int main(int argc, char **argv) {
  bench_options_t o;
  int st = parse_options(argc, argv, &o, usage);
  if (st >= 0)
    return st;
  if (o.quick) {
    o.samples = o.samples < 3 ? o.samples : 3;
    o.min_time = o.min_time < 0.02 ? o.min_time : 0.02;
  }
  if ((st = check_options(&o, "hvp_bench", usage)) >= 0)
    return st;
  bench_t benches[NSPECS];
  double T[NSPECS][NVAR];
  int verified[NSPECS], ran[NSPECS], status = 0;
  memset(verified, 0, sizeof verified);
  printf("%-11s %-22s %12s %12s %12s %9s %9s\n", "benchmark", "size",
         "primal us", "gradient us", "hvp us", "grad/pr", "hvp/grad");
  for (int k = 0; k < NSPECS; k++) {
    ran[k] = selected(o.only, specs[k].name);
    if (!ran[k])
      continue;
    bench_t *b = &benches[k];
    setup(b, k, o.quick);
    verified[k] = verify(b, o.verbose);
    if (!verified[k]) {
      printf("%-11s WRONG DERIVATIVE\n", specs[k].name);
      status = 1;
      continue;
    }
    if (o.verify_only)
      continue;
    static const runfn fns[NVAR] = {run_primal, run_gradient, run_hvp};
    static const int on[NVAR] = {1, 1, 1};
    time_variants(b, fns, on, NVAR, &o, T[k]);
    printf("%-11s %-22s %12.2f %12.2f %12.2f %9.2f %9.2f\n", specs[k].name,
           b->size, T[k][V_PRIMAL] * 1e6, T[k][V_GRAD] * 1e6,
           T[k][V_HVP] * 1e6, T[k][V_GRAD] / T[k][V_PRIMAL],
           T[k][V_HVP] / T[k][V_GRAD]);
  }
  if (o.json && !o.verify_only) {
    FILE *f = fopen(o.json, "w");
    if (!f) {
      fprintf(stderr, "hvp_bench: cannot write %s\n", o.json);
      return 2;
    }
    fprintf(f, "[\n");
    int first = 1;
    for (int k = 0; k < NSPECS; k++) {
      if (!ran[k])
        continue;
      double nan = nan_value();
      const double *t = T[k];
      int ok = verified[k];
      fprintf(f, "%s  {\"benchmark\": \"%s\", \"size\": \"%s\", ",
              first ? "" : ",\n", specs[k].name, benches[k].size);
      first = 0;
      json_num(f, "primal_s", ok ? t[V_PRIMAL] : nan, 0);
      json_num(f, "gradient_s", ok ? t[V_GRAD] : nan, 0);
      json_num(f, "gradient_ratio", ok ? t[V_GRAD] / t[V_PRIMAL] : nan, 0);
      json_num(f, "hvp_s", ok ? t[V_HVP] : nan, 0);
      json_num(f, "hvp_ratio", ok ? t[V_HVP] / t[V_GRAD] : nan, 0);
      fprintf(f, "\"verified\": %s, \"samples\": %d}", ok ? "true" : "false",
              o.samples);
    }
    fprintf(f, "\n]\n");
    fclose(f);
  }
  return status;
}
