/* gmm_omp.c: the ADBench GMM objective with its loop over points as an
 * OpenMP parallel loop (reduction(+) of the points' log-sum-exp terms),
 * and its gradient by adcc at 1, 2 and 4 threads (docs/parallel.md).
 *
 * The objective is bench/adbench/gmm.c's (shared/data/adbench/README.md,
 * section 1) on a synthetic instance: d = 10 dimensions, K = 25
 * components, n points (10000; 2000 with --quick), drawn with a fixed
 * seed. Per thread count t (omp_set_num_threads):
 *   primal     gmm_objective_omp();
 *   gradient   __enzyme_autodiff of it w.r.t. alpha, mu and icf (augmented
 *              and reverse regions both on t threads), with the zeroing of
 *              the gradient arrays;
 * medians of --samples samples of at least --min-time seconds, primal and
 * gradient interleaved. Verified before timing: the gradient at t threads
 * against the gradient at 1 thread, and entries of the 1-thread gradient
 * against central differences.
 *
 * Build: build/bin/adcc -fopenmp -O2 bench/parallel/gmm_omp.c -lm
 * Usage: gmm_omp [--quick] [--samples N] [--min-time S] [--json FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/measure.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define GMM_PI 3.14159265358979323846
enum { D = 10, K = 25, ICF = D * (D + 1) / 2 };

static double log_sum_exp(const double *v, int n) {
  double mx = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > mx)
      mx = v[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(v[i] - mx);
  return mx + log(s);
}

static double log_gamma_d(double a, int d) {
  double r = 0.25 * d * (d - 1) * log(GMM_PI);
  for (int j = 1; j <= d; j++)
    r += lgamma(a + 0.5 * (1 - j));
  return r;
}

/* The GMM objective (d = D, k = K), its loop over points in parallel. */
double gmm_objective_omp(int n, const double *alphas, const double *means,
                         const double *icf, const double *x, double gamma,
                         int m) {
  double slse = 0;
#pragma omp parallel for reduction(+ : slse) schedule(static)
  for (int i = 0; i < n; i++) {
    double xc[D], qxc[D], main_term[K];
    const double *xi = x + (long)i * D;
    for (int ik = 0; ik < K; ik++) {
      const double *mu = means + ik * D, *q = icf + ik * ICF, *l = q + D;
      double sum_q = 0;
      for (int j = 0; j < D; j++) {
        xc[j] = xi[j] - mu[j];
        qxc[j] = exp(q[j]) * xc[j];
        sum_q += q[j];
      }
      int li = 0;
      for (int c = 0; c < D; c++)
        for (int r = c + 1; r < D; r++)
          qxc[r] += l[li++] * xc[c];
      double sq = 0;
      for (int j = 0; j < D; j++)
        sq += qxc[j] * qxc[j];
      main_term[ik] = alphas[ik] + sum_q - 0.5 * sq;
    }
    slse += log_sum_exp(main_term, K);
  }
  double lse_alphas = log_sum_exp(alphas, K);
  double prior = 0;
  for (int ik = 0; ik < K; ik++) {
    const double *q = icf + ik * ICF;
    double frob = 0, sum_q = 0;
    for (int j = 0; j < D; j++) {
      frob += exp(q[j]) * exp(q[j]);
      sum_q += q[j];
    }
    for (int j = D; j < ICF; j++)
      frob += q[j] * q[j];
    prior += 0.5 * gamma * gamma * frob - m * sum_q;
  }
  int n1 = D + m + 1;
  double C = n1 * D * (log(gamma) - 0.5 * log(2.0)) - log_gamma_d(0.5 * n1, D);
  return -0.5 * n * D * log(2 * GMM_PI) + slse - n * lse_alphas + prior -
         K * C;
}

typedef struct {
  int n;
  double *alphas, *means, *icf, *x, *ga, *gm, *gi;
} instance;

static void gradient(instance *I) {
  memset(I->ga, 0, K * sizeof(double));
  memset(I->gm, 0, K * D * sizeof(double));
  memset(I->gi, 0, K * ICF * sizeof(double));
  __enzyme_autodiff((void *)gmm_objective_omp, enzyme_const, I->n,
                    enzyme_dup, I->alphas, I->ga, enzyme_dup, I->means, I->gm,
                    enzyme_dup, I->icf, I->gi, enzyme_const, I->x,
                    enzyme_const, 1.0, enzyme_const, 0);
}

static double primal(instance *I) {
  return gmm_objective_omp(I->n, I->alphas, I->means, I->icf, I->x, 1.0, 0);
}

static volatile double sink;

/* Median seconds per call of primal and gradient, interleaved. */
static void time_both(instance *I, int samples, double min_time, double *tp,
                      double *tg) {
  double sp[1000], sg[1000];
  long rp = 1, rg = 1;
  for (int s = 0; s < samples; s++) {
    for (;;) {
      double t0 = now();
      for (long r = 0; r < rp; r++)
        sink = primal(I);
      double t = now() - t0;
      if (t >= min_time || rp > 1000000) {
        sp[s] = t / rp;
        break;
      }
      rp = next_reps(rp, t, min_time);
    }
    for (;;) {
      double t0 = now();
      for (long r = 0; r < rg; r++)
        gradient(I);
      double t = now() - t0;
      if (t >= min_time || rg > 1000000) {
        sg[s] = t / rg;
        break;
      }
      rg = next_reps(rg, t, min_time);
    }
  }
  *tp = median(sp, samples);
  *tg = median(sg, samples);
}

int main(int argc, char **argv) {
  int quick = 0, samples = 5;
  double min_time = 0.05;
  const char *json = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--min-time") && i + 1 < argc)
      min_time = atof(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else {
      fprintf(stderr, "usage: gmm_omp [--quick] [--samples N] [--min-time S] "
                      "[--json FILE]\n");
      return 2;
    }
  }
  if (samples < 1 || samples > 1000 || !(min_time > 0))
    return 2;
  if (quick && samples > 3)
    samples = 3;
  instance I;
  I.n = quick ? 2000 : 10000;
  I.alphas = alloc(K);
  I.means = alloc(K * D);
  I.icf = alloc(K * ICF);
  I.x = alloc((long)I.n * D);
  I.ga = alloc(K);
  I.gm = alloc(K * D);
  I.gi = alloc(K * ICF);
  for (int i = 0; i < K; i++)
    I.alphas[i] = urand(-1, 1);
  for (int i = 0; i < K * D; i++)
    I.means[i] = urand(-1, 1);
  for (int i = 0; i < K * ICF; i++)
    I.icf[i] = urand(-0.5, 0.5);
  for (long i = 0; i < (long)I.n * D; i++)
    I.x[i] = urand(-1.5, 1.5);

  /* The reference: the gradient on one thread, checked against central
   * differences on a few entries of each array. */
  int P = K + K * D + K * ICF;
  double *ref = alloc(P), *got = alloc(P);
  omp_set_num_threads(1);
  gradient(&I);
  memcpy(ref, I.ga, K * sizeof(double));
  memcpy(ref + K, I.gm, K * D * sizeof(double));
  memcpy(ref + K + K * D, I.gi, K * ICF * sizeof(double));
  double worst = 0;
  double *arrays[3] = {I.alphas, I.means, I.icf};
  int sizes[3] = {K, K * D, K * ICF}, offsets[3] = {0, K, K + K * D};
  for (int a = 0; a < 3; a++)
    for (int e = 0; e < sizes[a]; e += sizes[a] / 5 + 1) {
      double keep = arrays[a][e], h = 1e-5;
      arrays[a][e] = keep + h;
      double fp = primal(&I);
      arrays[a][e] = keep - h;
      double fm = primal(&I);
      arrays[a][e] = keep;
      double fd = (fp - fm) / (2 * h), g = ref[offsets[a] + e];
      double err = fabs(g - fd) / (1 + fabs(fd));
      worst = err > worst ? err : worst;
    }
  int fd_ok = worst < 1e-5;
  printf("gmm_omp d=%d K=%d n=%d: central differences %s (worst %.2g)\n", D,
         K, I.n, fd_ok ? "agree" : "DISAGREE", worst);

  FILE *out = json ? fopen(json, "w") : NULL;
  if (json && !out) {
    fprintf(stderr, "gmm_omp: cannot write %s\n", json);
    return 2;
  }
  if (out)
    fprintf(out, "[\n");
  printf("%8s %12s %12s %8s %10s %10s %s\n", "threads", "primal s",
         "gradient s", "ratio", "primal x", "gradient x", "verified");
  double base_p = 0, base_g = 0;
  int all_ok = fd_ok;
  for (int t = 1; t <= 4; t *= 2) {
    omp_set_num_threads(t);
    gradient(&I);
    memcpy(got, I.ga, K * sizeof(double));
    memcpy(got + K, I.gm, K * D * sizeof(double));
    memcpy(got + K + K * D, I.gi, K * ICF * sizeof(double));
    int ok = fd_ok && rel_err(got, ref, P, 1e-300) < 1e-10;
    all_ok &= ok;
    double tp, tg;
    time_both(&I, samples, min_time, &tp, &tg);
    if (t == 1) {
      base_p = tp;
      base_g = tg;
    }
    printf("%8d %12.6f %12.6f %8.2f %10.2f %10.2f %s\n", t, tp, tg, tg / tp,
           base_p / tp, base_g / tg, ok ? "yes" : "NO");
    if (out) {
      fprintf(out, "  {\"benchmark\": \"gmm_omp\", \"size\": \"d%d K%d n%d\", "
                   "\"threads\": %d, ",
              D, K, I.n, t);
      json_num(out, "primal_s", tp, 0);
      json_num(out, "gradient_s", tg, 0);
      json_num(out, "gradient_ratio", tg / tp, 0);
      json_num(out, "primal_speedup", base_p / tp, 0);
      json_num(out, "gradient_speedup", base_g / tg, 0);
      fprintf(out, "\"verified\": %s}%s\n", ok ? "true" : "false",
              t < 4 ? "," : "");
    }
  }
  if (out) {
    fprintf(out, "]\n");
    fclose(out);
  }
  return all_ok ? 0 : 1;
}
