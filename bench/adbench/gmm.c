/* gmm.c: ADBench Gaussian mixture model objective and its gradient.
 *
 * The objective (shared/data/adbench/README.md, section 1): the
 * log-likelihood of n points x_i in d dimensions under a mixture of K
 * Gaussians with weights softmax(alpha), means mu_k and inverse covariances
 * Q_k^T Q_k (Q_k lower triangular, diagonal exp(q_k), strict lower part l_k
 * column by column), plus ADBench's Wishart prior term.  gmm_objective()
 * below is plain C written from that definition.
 *
 * Measured (medians of --samples samples of at least --min-time seconds):
 *   primal    gmm_objective();
 *   gradient  __enzyme_autodiff of gmm_objective w.r.t. alpha, mu and icf
 *             (x and the prior's parameters constant), with the zeroing of
 *             the gradient arrays;
 *   forward   __enzyme_fwddiff along one direction (time per direction);
 *   hand      a hand-written reverse-mode gradient (objective + gradient).
 * Everything is verified before it is timed (see README.md).  Files of the
 * "2.5M" set store one point, used for all n points (replicate mode).
 *
 * Build: build/bin/adcc -O2 gmm.c -lm   (or clang -O2 with Enzyme's plugin)
 * Usage: gmm --data ../shared/data/adbench/gmm/1k/gmm_d10_K25.txt
 *            [--samples N] [--min-time S] [--json FILE] [--verify-only]
 *            [--name LABEL] [--expect VALUE] [--expect-grad FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "adbench_common.h"

/* ---- The Enzyme-compatible API ----------------------------------------- */

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))
#define GMM_PI 3.14159265358979323846

/* ---- The objective ------------------------------------------------------ */

/* log(sum_j exp(v_j)), shifted by the maximum. */
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

/* log of the multivariate gamma function Gamma_d(a). */
static double log_gamma_d(double a, int d) {
  double r = 0.25 * d * (d - 1) * log(GMM_PI);
  for (int j = 1; j <= d; j++)
    r += lgamma(a + 0.5 * (1 - j));
  return r;
}

/* The GMM objective.  alphas: k weights (log, unnormalised); means: k x d;
 * icf: k x d(d+1)/2 (d log-diagonal entries of Q_k, then its strict lower
 * triangle column by column); x: n x d points, or ONE point used n times
 * when replicate is set; gamma, m: the Wishart prior's parameters. */
double gmm_objective(int d, int k, int n, const double *alphas,
                     const double *means, const double *icf, const double *x,
                     double gamma, int m, int replicate) {
  int icf_sz = d * (d + 1) / 2;
  double *sum_qs = malloc(k * sizeof(double));
  double *main_term = malloc(k * sizeof(double));
  double *xc = malloc(d * sizeof(double));
  double *qxc = malloc(d * sizeof(double));

  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0;
    for (int j = 0; j < d; j++)
      sum_qs[ik] += icf[ik * icf_sz + j];
  }

  double slse = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = x + (replicate ? 0 : (long)i * d);
    for (int ik = 0; ik < k; ik++) {
      const double *mu = means + ik * d, *q = icf + ik * icf_sz, *l = q + d;
      for (int j = 0; j < d; j++)
        xc[j] = xi[j] - mu[j];
      /* qxc = Q_k (x_i - mu_k) */
      for (int j = 0; j < d; j++)
        qxc[j] = exp(q[j]) * xc[j];
      int li = 0;
      for (int c = 0; c < d; c++)
        for (int r = c + 1; r < d; r++)
          qxc[r] += l[li++] * xc[c];
      double sq = 0;
      for (int j = 0; j < d; j++)
        sq += qxc[j] * qxc[j];
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    slse += log_sum_exp(main_term, k);
  }

  double lse_alphas = log_sum_exp(alphas, k);

  /* Wishart prior */
  double prior = 0;
  for (int ik = 0; ik < k; ik++) {
    const double *q = icf + ik * icf_sz;
    double frob = 0;
    for (int j = 0; j < d; j++)
      frob += exp(q[j]) * exp(q[j]);
    for (int j = d; j < icf_sz; j++)
      frob += q[j] * q[j];
    prior += 0.5 * gamma * gamma * frob - m * sum_qs[ik];
  }
  int n1 = d + m + 1;
  double C = n1 * d * (log(gamma) - 0.5 * log(2.0)) - log_gamma_d(0.5 * n1, d);

  free(sum_qs);
  free(main_term);
  free(xc);
  free(qxc);
  return -0.5 * n * d * log(2 * GMM_PI) + slse - n * lse_alphas + prior - k * C;
}

/* ---- The hand-written gradient ------------------------------------------- */

/* Objective and gradient (g_alphas, g_means, g_icf, laid out like the
 * inputs).  work: at least k (2 + 3d) doubles.
 *
 * Per point i and component k, with v = x_i - mu_k, z = Q_k v and
 * t_k = alpha_k + sum q_k - |z|^2 / 2, the point's term LSE_k(t_k) has
 * d/dt_k = w_k = softmax(t)_k, and
 *   dt_k/dalpha_k = 1,   dt_k/dmu_k = Q_k^T z,
 *   dt_k/dq_k[j] = 1 - z_j exp(q_k[j]) v_j,   dt_k/dL_k[r][c] = -z_r v_c. */
static double gmm_hand_gradient(int d, int k, int n, const double *alphas,
                                const double *means, const double *icf,
                                const double *x, double gamma, int m,
                                int replicate, double *g_alphas,
                                double *g_means, double *g_icf, double *work) {
  int icf_sz = d * (d + 1) / 2;
  double *sum_qs = work, *t = sum_qs + k, *v = t + k, *z = v + (long)k * d;
  double *eq = z + (long)k * d; /* exp(q_k[j]) */
  memset(g_alphas, 0, k * sizeof(double));
  memset(g_means, 0, (long)k * d * sizeof(double));
  memset(g_icf, 0, (long)k * icf_sz * sizeof(double));

  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0;
    for (int j = 0; j < d; j++) {
      sum_qs[ik] += icf[ik * icf_sz + j];
      eq[ik * d + j] = exp(icf[ik * icf_sz + j]);
    }
  }

  double slse = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = x + (replicate ? 0 : (long)i * d);
    for (int ik = 0; ik < k; ik++) {
      const double *mu = means + ik * d, *l = icf + ik * icf_sz + d;
      double *vk = v + ik * d, *zk = z + ik * d, *ek = eq + ik * d;
      for (int j = 0; j < d; j++) {
        vk[j] = xi[j] - mu[j];
        zk[j] = ek[j] * vk[j];
      }
      int li = 0;
      for (int c = 0; c < d; c++)
        for (int r = c + 1; r < d; r++)
          zk[r] += l[li++] * vk[c];
      double sq = 0;
      for (int j = 0; j < d; j++)
        sq += zk[j] * zk[j];
      t[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    double lse = log_sum_exp(t, k);
    slse += lse;
    for (int ik = 0; ik < k; ik++) {
      double w = exp(t[ik] - lse);
      const double *l = icf + ik * icf_sz + d;
      double *vk = v + ik * d, *zk = z + ik * d, *ek = eq + ik * d;
      double *gm = g_means + ik * d, *gq = g_icf + ik * icf_sz, *gl = gq + d;
      g_alphas[ik] += w;
      for (int j = 0; j < d; j++) {
        gq[j] += w * (1 - zk[j] * ek[j] * vk[j]);
        gm[j] += w * ek[j] * zk[j];
      }
      int li = 0;
      for (int c = 0; c < d; c++)
        for (int r = c + 1; r < d; r++, li++) {
          gl[li] -= w * zk[r] * vk[c];
          gm[c] += w * l[li] * zk[r];
        }
    }
  }

  /* -n LSE(alpha) */
  double lse_alphas = log_sum_exp(alphas, k);
  for (int ik = 0; ik < k; ik++)
    g_alphas[ik] -= n * exp(alphas[ik] - lse_alphas);

  /* prior: d/dq = gamma^2 exp(q)^2 - m, d/dl = gamma^2 l */
  double prior = 0, g2 = gamma * gamma;
  for (int ik = 0; ik < k; ik++) {
    const double *q = icf + ik * icf_sz;
    double *gq = g_icf + ik * icf_sz, frob = 0;
    for (int j = 0; j < d; j++) {
      double e2 = eq[ik * d + j] * eq[ik * d + j];
      frob += e2;
      gq[j] += g2 * e2 - m;
    }
    for (int j = d; j < icf_sz; j++) {
      frob += q[j] * q[j];
      gq[j] += g2 * q[j];
    }
    prior += 0.5 * g2 * frob - m * sum_qs[ik];
  }
  int n1 = d + m + 1;
  double C = n1 * d * (log(gamma) - 0.5 * log(2.0)) - log_gamma_d(0.5 * n1, d);
  return -0.5 * n * d * log(2 * GMM_PI) + slse - n * lse_alphas + prior - k * C;
}

/* ---- Benchmark instance -------------------------------------------------- */

typedef struct {
  int d, k, n, m, replicate;
  double gamma;
  double *params, *alphas, *means, *icf;     /* active inputs, one block    */
  double *grad, *d_alphas, *d_means, *d_icf; /* AD gradient, same layout */
  double *dir, *t_alphas, *t_means, *t_icf;  /* forward direction         */
  double *hand, *work;
  double *x;
  long nparams;
} gmm_t;

static NOINLINE double gmm_primal(void *ctx) {
  gmm_t *g = ctx;
  return gmm_objective(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x,
                       g->gamma, g->m, g->replicate);
}

static NOINLINE double gmm_ad_gradient(void *ctx) {
  gmm_t *g = ctx;
  memset(g->grad, 0, g->nparams * sizeof(double));
  __enzyme_autodiff((void *)gmm_objective, enzyme_const, g->d, enzyme_const,
                    g->k, enzyme_const, g->n, enzyme_dup, g->alphas,
                    g->d_alphas, enzyme_dup, g->means, g->d_means, enzyme_dup,
                    g->icf, g->d_icf, enzyme_const, g->x, enzyme_const,
                    g->gamma, enzyme_const, g->m, enzyme_const, g->replicate);
  return g->grad[0];
}

static NOINLINE double gmm_ad_forward(void *ctx) {
  gmm_t *g = ctx;
  return __enzyme_fwddiff(
      (void *)gmm_objective, enzyme_const, g->d, enzyme_const, g->k,
      enzyme_const, g->n, enzyme_dup, g->alphas, g->t_alphas, enzyme_dup,
      g->means, g->t_means, enzyme_dup, g->icf, g->t_icf, enzyme_const, g->x,
      enzyme_const, g->gamma, enzyme_const, g->m, enzyme_const, g->replicate);
}

static NOINLINE double gmm_hand(void *ctx) {
  gmm_t *g = ctx;
  long kd = (long)g->k * g->d;
  return gmm_hand_gradient(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x,
                           g->gamma, g->m, g->replicate, g->hand,
                           g->hand + g->k, g->hand + g->k + kd, g->work);
}

/* Finite differences run on the first GMM_FD_POINTS points (or as many
 * copies of the one point), with the AD and hand gradients of that smaller
 * problem: summed over many points, the objective's magnitude (up to 1e5 to
 * 6e6 here) makes the rounding of each evaluation, divided by the step,
 * too large for the rho <= 1e-6 check (the full-size AD gradient is
 * checked against the hand-written one instead). */
#define GMM_FD_POINTS 100
static const char *gmm_fd_reduce(void *ctx, int reduce) {
  static int full_n;
  gmm_t *g = ctx;
  if (reduce) {
    full_n = g->n;
    g->n = GMM_FD_POINTS;
  } else
    g->n = full_n;
  return g->replicate ? "100 copies of the point (with the AD and hand "
                        "gradients at that n)"
                      : "the first 100 points (with the AD and hand "
                        "gradients at that n)";
}

/* Reads a GMM file; returns 0, or 2 with a message. */
static int gmm_read(gmm_t *g, const char *path) {
  long cnt;
  double *v = ab_read_numbers(path, &cnt);
  if (!v)
    return 2;
  if (cnt < 3 || v[0] < 1 || v[1] < 1 || v[2] < 1 || v[0] > 4096 ||
      v[1] > 65536 || v[2] > 1e9) {
    fprintf(stderr, "gmm: %s: not a GMM file\n", path);
    free(v);
    return 2;
  }
  int d = g->d = (int)v[0], k = g->k = (int)v[1], n = g->n = (int)v[2];
  long icf_sz = (long)d * (d + 1) / 2;
  long np = g->nparams = k + (long)k * d + k * icf_sz;
  long full = 3 + np + (long)n * d + 2, one = 3 + np + d + 2;
  if (cnt == full)
    g->replicate = 0;
  else if (cnt == one)
    g->replicate = 1;
  else {
    fprintf(stderr, "gmm: %s: %ld numbers, expected %ld (or %ld)\n", path, cnt,
            full, one);
    free(v);
    return 2;
  }
  long nx = g->replicate ? d : (long)n * d;
  g->params = ab_alloc(np);
  g->grad = ab_alloc(np);
  g->dir = ab_alloc(np);
  g->hand = ab_alloc(np);
  g->work = ab_alloc((long)k * (2 + 3L * d));
  g->x = ab_alloc(nx);
  memcpy(g->params, v + 3, np * sizeof(double));
  memcpy(g->x, v + 3 + np, nx * sizeof(double));
  g->gamma = v[3 + np + nx];
  g->m = (int)v[3 + np + nx + 1];
  free(v);
  g->alphas = g->params, g->means = g->alphas + k;
  g->icf = g->means + (long)k * d;
  g->d_alphas = g->grad, g->d_means = g->d_alphas + k;
  g->d_icf = g->d_means + (long)k * d;
  g->t_alphas = g->dir, g->t_means = g->t_alphas + k;
  g->t_icf = g->t_means + (long)k * d;
  return 0;
}

int main(int argc, char **argv) {
  ab_opts o;
  int rc = ab_parse_args(&o, argc, argv, "gmm");
  if (rc >= 0)
    return rc;
  gmm_t g;
  memset(&g, 0, sizeof g);
  if ((rc = gmm_read(&g, o.data)))
    return rc;

  ab_grad_bench b;
  ab_grad_bench_init(&b, &o, "gmm", "gmm_", g.nparams, g.params, g.grad,
                     g.hand, g.dir, &g);
  b.primal = gmm_primal, b.ad_grad = gmm_ad_gradient;
  b.ad_fwd = gmm_ad_forward, b.hand_grad = gmm_hand;
  if (g.n > GMM_FD_POINTS)
    b.fd_reduce = gmm_fd_reduce;
  /* Finite differences: the last alpha, a mean, the first log-diagonal and
   * first off-diagonal entry of Q_0, and entries of the last component. */
  long kd = (long)g.k * g.d, icf0 = g.k + kd;
  long icf_sz = (long)g.d * (g.d + 1) / 2;
  long fd[] = {
      g.k - 1,     g.k + 1, icf0, icf0 + g.d, icf0 + (g.k - 1) * icf_sz,
      g.k + kd - 1};
  for (int i = 0; i < (int)(sizeof fd / sizeof fd[0]); i++)
    b.fd[b.nfd++] = fd[i];
  if (o.verbose)
    fprintf(stderr, "gmm: d=%d K=%d n=%d%s, %ld parameters\n", g.d, g.k, g.n,
            g.replicate ? " (replicate point)" : "", g.nparams);
  rc = ab_run_gradient_bench(&b, &o);
  free(g.params), free(g.grad), free(g.dir), free(g.hand), free(g.work);
  free(g.x);
  return rc;
}
