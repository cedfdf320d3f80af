/* lstm.c: ADBench LSTM objective and its gradient.
 *
 * The objective (shared/data/adbench/README.md, section 4): a "diagonal"
 * (element-wise) LSTM of l layers with b cells run over a sequence of c
 * characters of b bits; the loss is the negated mean log-probability of
 * the next character, with ADBench's log(2 + sum exp) normaliser.
 * lstm_objective() below is plain C written from that definition.
 *
 * Measured (medians of --samples samples of at least --min-time seconds):
 *   primal    lstm_objective();
 *   gradient  __enzyme_autodiff of lstm_objective w.r.t. main_params and
 *             extra_params (state and sequence constant), with the zeroing
 *             of the gradient arrays;
 *   forward   __enzyme_fwddiff along one direction (time per direction);
 *   hand      a hand-written reverse-mode gradient (loss + gradient).
 * Everything is verified before it is timed (see README.md).
 *
 * Build: build/bin/adcc -O2 lstm.c -lm   (or clang -O2 with Enzyme's plugin)
 * Usage: lstm --data ../shared/data/adbench/lstm/lstm_l2_c1024.txt
 *             [--samples N] [--min-time S] [--json FILE] [--verify-only]
 *             [--name LABEL] [--expect VALUE] [--expect-grad FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "adbench_common.h"

/* ---- The Enzyme-compatible API ----------------------------------------- */

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))

/* ---- The objective ------------------------------------------------------ */

static double sigmoid(double v) { return 1 / (1 + exp(-v)); }

/* The LSTM loss.  main_params: per layer k (offset 8bk) the weights Wf Wi
 * Wo Wc and biases bf bi bo bc, b each; extra_params: in_weight,
 * out_weight, out_bias; state: per layer the hidden h and cell s (copied,
 * not modified); sequence: c characters of b bits. */
double lstm_objective(int l, int c, int b, const double *main_params,
                      const double *extra_params, const double *state,
                      const double *sequence) {
  double *st = malloc(2 * l * b * sizeof(double));
  double *y = malloc(b * sizeof(double));
  memcpy(st, state, 2 * l * b * sizeof(double));
  const double *in_w = extra_params, *out_w = extra_params + b;
  const double *out_b = extra_params + 2 * b;

  double total = 0;
  for (int t = 0; t < c - 1; t++) {
    const double *xt = sequence + t * b, *xn = xt + b;
    for (int k = 0; k < l; k++) {
      const double *w = main_params + 8 * b * k, *bias = w + 4 * b;
      double *h = st + 2 * b * k, *s = h + b;
      const double *below = st + 2 * b * (k - 1); /* used when k > 0 */
      for (int j = 0; j < b; j++) {
        double u = k == 0 ? xt[j] * in_w[j] : below[j];
        double f = sigmoid(u * w[j] + bias[j]);
        double i = sigmoid(h[j] * w[b + j] + bias[b + j]);
        double o = sigmoid(u * w[2 * b + j] + bias[2 * b + j]);
        double g = tanh(h[j] * w[3 * b + j] + bias[3 * b + j]);
        s[j] = s[j] * f + i * g;
        h[j] = o * tanh(s[j]);
      }
    }
    const double *top = st + 2 * b * (l - 1);
    double sum = 0;
    for (int j = 0; j < b; j++) {
      y[j] = top[j] * out_w[j] + out_b[j];
      sum += exp(y[j]);
    }
    double lse = log(2 + sum);
    for (int j = 0; j < b; j++)
      total += xn[j] * (y[j] - lse);
  }

  free(st);
  free(y);
  return -total / ((c - 1) * b);
}

/* ---- The hand-written gradient ------------------------------------------- */

/* Doubles of work space lstm_hand_gradient needs. */
static long lstm_hand_work(int l, int c, int b) {
  return 8L * (c - 1) * l * b + (long)(c - 1) * b + 4L * l * b + b;
}

/* Loss and gradient (g_main, g_extra laid out like the inputs).  The
 * forward sweep records, per step t, layer k and cell j, the input u, the
 * old h and s, the gates f i o g and tanh(s_new), and per step the
 * normalised exp(y_j) / (2 + sum exp(y)); the reverse sweep carries the
 * adjoints of h and s of every layer back through time. */
static double lstm_hand_gradient(int l, int c, int b, const double *main_params,
                                 const double *extra_params,
                                 const double *state, const double *sequence,
                                 double *g_main, double *g_extra,
                                 double *work) {
  long n = (long)(c - 1) * l * b;
  double *U = work, *HP = U + n, *SP = HP + n, *F = SP + n, *I = F + n;
  double *O = I + n, *G = O + n, *TS = G + n, *P = TS + n;
  double *st = P + (long)(c - 1) * b, *dst = st + 2L * l * b;
  double *y = dst + 2L * l * b;
  const double *in_w = extra_params, *out_w = extra_params + b;
  const double *out_b = extra_params + 2 * b;
  memcpy(st, state, 2L * l * b * sizeof(double));

  double total = 0;
  for (int t = 0; t < c - 1; t++) {
    const double *xt = sequence + (long)t * b, *xn = xt + b;
    for (int k = 0; k < l; k++) {
      const double *w = main_params + 8 * b * k, *bias = w + 4 * b;
      double *h = st + 2 * b * k, *s = h + b;
      const double *below = st + 2 * b * (k - 1);
      long r = ((long)t * l + k) * b;
      for (int j = 0; j < b; j++) {
        double u = k == 0 ? xt[j] * in_w[j] : below[j];
        double f = sigmoid(u * w[j] + bias[j]);
        double i = sigmoid(h[j] * w[b + j] + bias[b + j]);
        double o = sigmoid(u * w[2 * b + j] + bias[2 * b + j]);
        double g = tanh(h[j] * w[3 * b + j] + bias[3 * b + j]);
        U[r + j] = u, HP[r + j] = h[j], SP[r + j] = s[j];
        F[r + j] = f, I[r + j] = i, O[r + j] = o, G[r + j] = g;
        s[j] = s[j] * f + i * g;
        TS[r + j] = tanh(s[j]);
        h[j] = o * TS[r + j];
      }
    }
    const double *top = st + 2 * b * (l - 1);
    double sum = 0;
    for (int j = 0; j < b; j++) {
      y[j] = top[j] * out_w[j] + out_b[j];
      sum += exp(y[j]);
    }
    double lse = log(2 + sum);
    for (int j = 0; j < b; j++) {
      total += xn[j] * (y[j] - lse);
      P[(long)t * b + j] = exp(y[j]) / (2 + sum);
    }
  }

  /* Reverse sweep.  dst: adjoints of (h_k, s_k) after the current step. */
  memset(g_main, 0, 8L * l * b * sizeof(double));
  memset(g_extra, 0, 3L * b * sizeof(double));
  memset(dst, 0, 2L * l * b * sizeof(double));
  double *g_in_w = g_extra, *g_out_w = g_extra + b, *g_out_b = g_extra + 2 * b;
  double scale = -1.0 / ((c - 1) * b);
  for (int t = c - 2; t >= 0; t--) {
    const double *xt = sequence + (long)t * b, *xn = xt + b;
    double sx = 0;
    for (int j = 0; j < b; j++)
      sx += xn[j];
    /* y_j = h_top,j out_w_j + out_b_j; d total / d y_j = xn_j - sx p_j */
    long rt = ((long)t * l + l - 1) * b;
    double *dh_top = dst + 2 * b * (l - 1);
    for (int j = 0; j < b; j++) {
      double dy = scale * (xn[j] - sx * P[(long)t * b + j]);
      g_out_w[j] += dy * O[rt + j] * TS[rt + j];
      g_out_b[j] += dy;
      dh_top[j] += dy * out_w[j];
    }
    for (int k = l - 1; k >= 0; k--) {
      const double *w = main_params + 8 * b * k;
      double *gw = g_main + 8 * b * k, *gb = gw + 4 * b;
      double *dh = dst + 2 * b * k, *ds = dh + b;
      double *dbelow = dst + 2 * b * (k - 1);
      long r = ((long)t * l + k) * b;
      for (int j = 0; j < b; j++) {
        double u = U[r + j], hp = HP[r + j], sp = SP[r + j];
        double f = F[r + j], i = I[r + j], o = O[r + j], g = G[r + j];
        double ts = TS[r + j];
        double dsj = ds[j] + dh[j] * o * (1 - ts * ts);
        double dpo = dh[j] * ts * o * (1 - o);
        double dpf = dsj * sp * f * (1 - f);
        double dpi = dsj * g * i * (1 - i);
        double dpg = dsj * i * (1 - g * g);
        gw[j] += dpf * u, gb[j] += dpf;
        gw[b + j] += dpi * hp, gb[b + j] += dpi;
        gw[2 * b + j] += dpo * u, gb[2 * b + j] += dpo;
        gw[3 * b + j] += dpg * hp, gb[3 * b + j] += dpg;
        double du = dpf * w[j] + dpo * w[2 * b + j];
        dh[j] = dpi * w[b + j] + dpg * w[3 * b + j];
        ds[j] = dsj * f;
        if (k > 0)
          dbelow[j] += du;
        else
          g_in_w[j] += du * xt[j];
      }
    }
  }
  return -total / ((c - 1) * b);
}

/* ---- Benchmark instance -------------------------------------------------- */

typedef struct {
  int l, c, b;
  long nparams;
  double *params, *main_params, *extra_params; /* active inputs, one block */
  double *grad, *d_main, *d_extra;             /* AD gradient              */
  double *dir, *t_main, *t_extra;              /* forward direction        */
  double *hand, *work;
  double *state, *sequence;
} lstm_t;

static NOINLINE double lstm_primal(void *ctx) {
  lstm_t *m = ctx;
  return lstm_objective(m->l, m->c, m->b, m->main_params, m->extra_params,
                        m->state, m->sequence);
}

static NOINLINE double lstm_ad_gradient(void *ctx) {
  lstm_t *m = ctx;
  memset(m->grad, 0, m->nparams * sizeof(double));
  __enzyme_autodiff((void *)lstm_objective, enzyme_const, m->l, enzyme_const,
                    m->c, enzyme_const, m->b, enzyme_dup, m->main_params,
                    m->d_main, enzyme_dup, m->extra_params, m->d_extra,
                    enzyme_const, m->state, enzyme_const, m->sequence);
  return m->grad[0];
}

static NOINLINE double lstm_ad_forward(void *ctx) {
  lstm_t *m = ctx;
  return __enzyme_fwddiff((void *)lstm_objective, enzyme_const, m->l,
                          enzyme_const, m->c, enzyme_const, m->b, enzyme_dup,
                          m->main_params, m->t_main, enzyme_dup,
                          m->extra_params, m->t_extra, enzyme_const, m->state,
                          enzyme_const, m->sequence);
}

static NOINLINE double lstm_hand(void *ctx) {
  lstm_t *m = ctx;
  return lstm_hand_gradient(m->l, m->c, m->b, m->main_params, m->extra_params,
                            m->state, m->sequence, m->hand,
                            m->hand + 8L * m->l * m->b, m->work);
}

/* Reads an LSTM file; returns 0, or 2 with a message. */
static int lstm_read(lstm_t *m, const char *path) {
  long cnt;
  double *v = ab_read_numbers(path, &cnt);
  if (!v)
    return 2;
  if (cnt < 3 || v[0] < 1 || v[1] < 2 || v[2] < 1 || v[0] > 1024 ||
      v[1] > 1e7 || v[2] > 1024) {
    fprintf(stderr, "lstm: %s: not an LSTM file\n", path);
    free(v);
    return 2;
  }
  int l = m->l = (int)v[0], c = m->c = (int)v[1], b = m->b = (int)v[2];
  long nmain = 8L * l * b, nstate = 2L * l * b, nseq = (long)c * b;
  long np = m->nparams = nmain + 3L * b;
  if (cnt != 3 + np + nstate + nseq) {
    fprintf(stderr, "lstm: %s: %ld numbers, expected %ld\n", path, cnt,
            3 + np + nstate + nseq);
    free(v);
    return 2;
  }
  m->params = ab_alloc(np);
  m->grad = ab_alloc(np);
  m->dir = ab_alloc(np);
  m->hand = ab_alloc(np);
  m->work = ab_alloc(lstm_hand_work(l, c, b));
  m->state = ab_alloc(nstate);
  m->sequence = ab_alloc(nseq);
  memcpy(m->params, v + 3, np * sizeof(double));
  memcpy(m->state, v + 3 + np, nstate * sizeof(double));
  memcpy(m->sequence, v + 3 + np + nstate, nseq * sizeof(double));
  free(v);
  m->main_params = m->params, m->extra_params = m->params + nmain;
  m->d_main = m->grad, m->d_extra = m->grad + nmain;
  m->t_main = m->dir, m->t_extra = m->dir + nmain;
  return 0;
}

int main(int argc, char **argv) {
  ab_opts o;
  int rc = ab_parse_args(&o, argc, argv, "lstm");
  if (rc >= 0)
    return rc;
  lstm_t m;
  memset(&m, 0, sizeof m);
  if ((rc = lstm_read(&m, o.data)))
    return rc;

  ab_grad_bench bb;
  ab_grad_bench_init(&bb, &o, "lstm", "lstm_", m.nparams, m.params, m.grad,
                     m.hand, m.dir, &m);
  bb.primal = lstm_primal, bb.ad_grad = lstm_ad_gradient;
  bb.ad_fwd = lstm_ad_forward, bb.hand_grad = lstm_hand;
  /* Finite differences: each weight and bias block of layer 0, a weight of
   * the last layer, in_weight, out_weight and out_bias. */
  long b = m.b, nmain = 8L * m.l * b;
  long fd[] = {1,         b + 2,     2 * b + 3,         3 * b + 4,
               5 * b + 5, 7 * b + 6, nmain - 8 * b + 1, nmain + 1};
  for (int i = 0; i < 8; i++)
    bb.fd[bb.nfd++] = fd[i];
  if (o.verbose)
    fprintf(stderr, "lstm: l=%d c=%d b=%d, %ld parameters\n", m.l, m.c, m.b,
            m.nparams);
  rc = ab_run_gradient_bench(&bb, &o);
  free(m.params), free(m.grad), free(m.dir), free(m.hand), free(m.work);
  free(m.state), free(m.sequence);
  return rc;
}
