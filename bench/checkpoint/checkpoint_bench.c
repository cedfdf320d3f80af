/* checkpoint_bench.c: gradients of long time loops with and without
 * checkpointing (docs/checkpointing.md). Two loops: RK4 on the
 * Michaelis-Menten network (bench/common/kernels.h, 4 values, 3 rate
 * constants) and an explicit 1-D heat equation with a cubic reaction term
 * (256 points). For each: the loop taped whole, adcc_checkpointed_steps with
 * the fixed-interval schedule and with revolve at several snapshot counts.
 * Columns: primal and gradient time (median of samples), their ratio, the
 * peak of the thread's tape, the peak of the snapshots, measured step
 * advances next to Griewank's optimum t(n, s), and the largest relative
 * difference from the taped gradient; then a fixed point solved by
 * adcc_fixed_point against its iterations taped. A benchmark, not a test.
 *
 *   checkpoint_bench [--quick] [--samples N] [--json FILE]
 *
 * With --json, the rows also go to FILE as a JSON array of records
 * (benchmark, size, primal_s, gradient_s, gradient_ratio, tape_peak_bytes,
 * snapshot_bytes_peak, advances, optimal_advances, verified), which
 * bench/run puts into its report.
 */
#include "../common/kernels.h" /* (mm_rhs; the other kernels unused) */
#include "../common/measure.h"

#include <adcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

/*--- The steps
 * ---------------------------------------------------------------*/

typedef struct {
  double k[3], h;
} mm_params;

static void mm_step(double *y, const mm_params *p) {
  double a[4], k1[4], k2[4], k3[4], k4[4], h = p->h;
  mm_rhs(p->k, y, k1);
  for (int i = 0; i < 4; i++)
    a[i] = y[i] + 0.5 * h * k1[i];
  mm_rhs(p->k, a, k2);
  for (int i = 0; i < 4; i++)
    a[i] = y[i] + 0.5 * h * k2[i];
  mm_rhs(p->k, a, k3);
  for (int i = 0; i < 4; i++)
    a[i] = y[i] + h * k3[i];
  mm_rhs(p->k, a, k4);
  for (int i = 0; i < 4; i++)
    y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

enum { HEAT_N = 256 };
typedef struct {
  double nu, r; /* diffusion number, reaction rate */
} heat_params;

static void heat_step(double *u, const heat_params *p) {
  double next[HEAT_N];
  for (int i = 0; i < HEAT_N; i++) {
    double l = i ? u[i - 1] : 0, r = i + 1 < HEAT_N ? u[i + 1] : 0;
    next[i] = u[i] + p->nu * (l - 2 * u[i] + r) - p->r * u[i] * u[i] * u[i];
  }
  memcpy(u, next, sizeof next);
}

/*--- The losses: taped, or checkpointed with a schedule ---------------------*/

static double mm_loss(double *y, const mm_params *p, long n, int schedule,
                      long s) {
  if (s == 0)
    for (long i = 0; i < n; i++)
      mm_step(y, p);
  else
    adcc_checkpointed_steps((void *)mm_step, n, y, 4 * sizeof(double),
                            (void *)p, sizeof *p, schedule, s);
  return y[3] + 0.5 * y[1];
}

static double heat_loss(double *u, const heat_params *p, long n, int schedule,
                        long s) {
  if (s == 0)
    for (long i = 0; i < n; i++)
      heat_step(u, p);
  else
    adcc_checkpointed_steps((void *)heat_step, n, u, HEAT_N * sizeof(double),
                            (void *)p, sizeof *p, schedule, s);
  double e = 0;
  for (int i = 0; i < HEAT_N; i++)
    e += u[i] * u[i];
  return e;
}

/*--- Measuring
 * ---------------------------------------------------------------*/

typedef struct {
  const char *name;
  const char *key; /* (the benchmark's name in JSON records) */
  long steps;
  int values, params;
  double (*loss)(double *, const void *, long, int, long);
  void (*init)(double *y, double *p);
  void (*grad)(double *y, double *dy, double *p, double *dp, long n,
               int schedule, long s);
} loop_t;

static void mm_init(double *y, double *p) {
  double y0[4] = {1.0, 2.0, 0.1, 0.0};
  mm_params q = {{10.0, 1.0, 2.0}, 5.0 / 100000};
  memcpy(y, y0, sizeof y0);
  memcpy(p, &q, sizeof q);
}
static void heat_init(double *u, double *p) {
  for (int i = 0; i < HEAT_N; i++)
    u[i] = sin(3.14159265358979 * (i + 1) / (HEAT_N + 1));
  heat_params q = {0.2, 0.05};
  memcpy(p, &q, sizeof q);
}
static void mm_grad(double *y, double *dy, double *p, double *dp, long n,
                    int schedule, long s) {
  __enzyme_autodiff((void *)mm_loss, enzyme_dup, y, dy, enzyme_dup, p, dp,
                    enzyme_const, n, enzyme_const, schedule, enzyme_const, s);
}
static void heat_grad(double *u, double *du, double *p, double *dp, long n,
                      int schedule, long s) {
  __enzyme_autodiff((void *)heat_loss, enzyme_dup, u, du, enzyme_dup, p, dp,
                    enzyme_const, n, enzyme_const, schedule, enzyme_const, s);
}

typedef struct {
  int schedule;
  long snapshots; /* 0: taped whole */
} variant_t;

static const variant_t variants[] = {
    {ADCC_REVOLVE, 0},   {ADCC_INTERVAL, 100}, {ADCC_INTERVAL, 1000},
    {ADCC_REVOLVE, 5},   {ADCC_REVOLVE, 10},   {ADCC_REVOLVE, 50},
    {ADCC_REVOLVE, 200},
};

static int samples = 5;

/* --json FILE: the records, one object per row; first: no comma yet */
static FILE *json;
static int json_first = 1;

static void json_record(const char *bench, const char *size, double primal,
                        double grad, double taped, size_t tape_peak,
                        size_t snapshot_peak, size_t advances, long optimal,
                        int verified) {
  if (!json)
    return;
  fprintf(json,
          "%s\n  {\"benchmark\": \"%s\", \"size\": \"%s\", "
          "\"primal_s\": %.9g, \"gradient_s\": %.9g, "
          "\"gradient_ratio\": %.6g, \"taped_gradient_s\": %.9g, "
          "\"tape_peak_bytes\": %zu, "
          "\"snapshot_bytes_peak\": %zu, \"advances\": %zu, "
          "\"optimal_advances\": %ld, \"verified\": %s}",
          json_first ? "" : ",", bench, size, primal, grad, grad / primal,
          taped, tape_peak, snapshot_peak, advances, optimal,
          verified ? "true" : "false");
  json_first = 0;
}

static double
time_it(void (*run)(const loop_t *, const variant_t *, double *, double *),
        const loop_t *l, const variant_t *v, double *y, double *g) {
  double t[32];
  for (int i = 0; i < samples; i++) {
    double a = now();
    run(l, v, y, g);
    t[i] = now() - a;
  }
  return median(t, samples);
}

static void run_primal(const loop_t *l, const variant_t *v, double *y,
                       double *g) {
  double p[8];
  (void)g;
  (void)v;
  l->init(y, p);
  l->loss(y, p, l->steps, ADCC_REVOLVE, 0);
}

static void run_gradient(const loop_t *l, const variant_t *v, double *y,
                         double *g) {
  double p[8], dp[8] = {0};
  l->init(y, p);
  memset(g, 0, l->values * sizeof *g);
  l->grad(y, g, p, dp, l->steps, v->schedule, v->snapshots);
  memcpy(g + l->values, dp, l->params * sizeof *dp);
}

static const char *label(const variant_t *v, char *buf, size_t size) {
  if (!v->snapshots)
    return "taped";
  snprintf(buf, size, "%s s=%ld",
           v->schedule == ADCC_REVOLVE ? "revolve" : "interval", v->snapshots);
  return buf;
}

static int bench(const loop_t *l) {
  int len = l->values + l->params, bad = 0;
  double *y = alloc(l->values), *g = alloc(len), *ref = alloc(len);
  double primal = time_it(run_primal, l, variants, y, g), taped = 0;
  printf("\n%s, %ld steps (primal %.3f ms)\n", l->name, l->steps, primal * 1e3);
  printf("%-16s %11s %7s %12s %12s %12s %12s %9s\n", "schedule", "grad ms",
         "ratio", "tape peak", "snapshots", "advances", "t(n,s)", "rel diff");
  for (unsigned i = 0; i < sizeof variants / sizeof *variants; i++) {
    const variant_t *v = &variants[i];
    adcc_tape *tape = adcc_tape_thread();
    adcc_tape_reset_peak(tape);
    adcc_checkpoint_reset_stats();
    run_gradient(l, v, y, g);
    adcc_tape_stats ts;
    adcc_tape_get_stats(tape, &ts);
    adcc_checkpoint_stats cs;
    adcc_checkpoint_get_stats(&cs);
    if (!v->snapshots)
      memcpy(ref, g, len * sizeof *g);
    double diff = rel_err(g, ref, len, 0);
    bad |= !(diff < 1e-9);
    double t = time_it(run_gradient, l, v, y, g);
    char buf[32], theory[24] = "-";
    if (v->snapshots && v->schedule == ADCC_REVOLVE)
      snprintf(theory, sizeof theory, "%zu",
               adcc_revolve_advances(l->steps, v->snapshots));
    printf("%-16s %11.3f %7.2f %9.1f KiB %8.1f KiB %12zu %12s %9.1e\n",
           label(v, buf, sizeof buf), t * 1e3, t / primal,
           ts.peak_bytes / 1024.0, cs.snapshot_bytes_peak / 1024.0, cs.advances,
           theory, diff);
    /* (the taped row is the reference the others are checked against) */
    if (!v->snapshots) {
      taped = t;
      continue;
    }
    char size[64];
    snprintf(size, sizeof size, "%ld steps, %s", l->steps,
             label(v, buf, sizeof buf));
    json_record(l->key, size, primal, t, taped, ts.peak_bytes,
                cs.snapshot_bytes_peak, cs.advances,
                v->schedule == ADCC_REVOLVE
                    ? (long)adcc_revolve_advances(l->steps, v->snapshots)
                    : -1,
                diff < 1e-9);
  }
  release(y);
  release(g);
  release(ref);
  return bad;
}

/*--- A fixed point
 * ------------------------------------------------------------*/

/* x = g(x, p) on 256 values: a contraction coupling neighbours. */
typedef struct {
  double a, b;
} fp_params;

static void fp_step(double *x, const fp_params *p) {
  double next[HEAT_N];
  for (int i = 0; i < HEAT_N; i++) {
    double l = i ? x[i - 1] : 0, r = i + 1 < HEAT_N ? x[i + 1] : 0;
    next[i] = p->a * tanh(l + r) + p->b * cos(0.1 * i);
  }
  memcpy(x, next, sizeof next);
}

static double fp_loss(double *x, const fp_params *p, long iterations) {
  if (iterations)
    for (long i = 0; i < iterations; i++)
      fp_step(x, p);
  else
    adcc_fixed_point((void *)fp_step, x, HEAT_N, (void *)p, sizeof *p, 1e-12,
                     1000);
  double e = 0;
  for (int i = 0; i < HEAT_N; i++)
    e += x[i] * x[i];
  return e;
}

static void fixed_point_bench(void) {
  fp_params p = {0.3, 1.0}, dp;
  double *x = alloc(HEAT_N), *dx = alloc(HEAT_N), t[32];
  double ref[2];
  /* iterations the primal takes: the taped loop runs as many */
  adcc_checkpoint_reset_stats();
  fp_loss(x, &p, 0);
  adcc_checkpoint_stats cs;
  adcc_checkpoint_get_stats(&cs);
  long iterations = (long)cs.advances;
  static const char *const names[] = {"primal solve", "taped loop",
                                      "adcc_fixed_point"};
  printf("\nfixed point (256 values, tolerance 1e-12, %ld iterations)\n",
         iterations);
  printf("%-18s %11s %7s %12s %9s\n", "", "ms", "ratio", "tape peak",
         "rel diff");
  double primal = 0, taped = 0;
  for (int k = 0; k < 3; k++) {
    size_t peak = 0;
    double g[2] = {0, 0};
    for (int i = 0; i < samples; i++) {
      memset(x, 0, HEAT_N * sizeof *x);
      memset(dx, 0, HEAT_N * sizeof *dx);
      memset(&dp, 0, sizeof dp);
      adcc_tape *tape = adcc_tape_thread();
      adcc_tape_reset_peak(tape);
      double a = now();
      if (k == 0)
        fp_loss(x, &p, 0);
      else
        __enzyme_autodiff((void *)fp_loss, enzyme_dup, x, dx, enzyme_dup, &p,
                          &dp, enzyme_const, k == 1 ? iterations : 0L);
      t[i] = now() - a;
      adcc_tape_stats ts;
      adcc_tape_get_stats(tape, &ts);
      peak = ts.peak_bytes;
      g[0] = dp.a;
      g[1] = dp.b;
    }
    double m = median(t, samples);
    if (k == 0)
      primal = m;
    if (k == 1)
      memcpy(ref, g, sizeof ref);
    printf("%-18s %11.3f %7.2f %8.1f KiB %9.1e\n", names[k], m * 1e3,
           m / primal, peak / 1024.0, k ? rel_err(g, ref, 2, 0) : 0.0);
    if (k == 1)
      taped = m;
    if (k == 2)
      json_record("checkpoint_fixed_point", "256 values", primal, m, taped,
                  peak, 0, 0, -1, rel_err(g, ref, 2, 0) < 1e-9);
  }
  release(x);
  release(dx);
}

int main(int argc, char **argv) {
  int quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
      json = fopen(argv[++i], "w");
      if (!json) {
        perror(argv[i]);
        return 2;
      }
      fputs("[", json);
    } else {
      fprintf(
          stderr,
          "usage: checkpoint_bench [--quick] [--samples N] [--json FILE]\n");
      return 2;
    }
  }
  if (samples < 1 || samples > 32)
    samples = 5;
  loop_t loops[] = {
      {"rk4 (Michaelis-Menten, 4 values)", "checkpoint_rk4",
       quick ? 10000 : 100000, 4, 4,
       (double (*)(double *, const void *, long, int, long))mm_loss, mm_init,
       mm_grad},
      {"heat 1-D (256 points)", "checkpoint_heat", quick ? 1000 : 10000, HEAT_N,
       2, (double (*)(double *, const void *, long, int, long))heat_loss,
       heat_init, heat_grad},
  };
  int bad = 0;
  for (unsigned i = 0; i < sizeof loops / sizeof *loops; i++)
    bad |= bench(&loops[i]);
  fixed_point_bench();
  if (json) {
    fputs("\n]\n", json);
    fclose(json);
  }
  if (bad)
    printf("\nFAIL: a checkpointed gradient differs from the taped one\n");
  return bad;
}
