/* Per-layer pointer tables into enzyme_const memory (issue 33, item 5a).
 * An MLP and an LSTM read their weights through tables `W[l]`; the tables
 * are passed enzyme_const (their pointers, and what they point to, have no
 * derivative), or enzyme_dup with a shadow table whose entries point into
 * the weights' shadows (gradients of the weights), or built inside the
 * differentiated function with malloc from a constant weight array (the
 * case that crashed: the table got a shadow holding null pointers, and
 * the reverse sweep added adjoints at address 0). Checked against central
 * differences and, for the weights, forward mode. */
#include "rev_check.h"

double __enzyme_fwddiff(void *, ...);

enum { L = 3, N = 4, T = 3 };

static double act(double s) { return tanh(s); }
static double sigm(double s) { return 1 / (1 + exp(-s)); }

/* MLP: h = x; h = tanh(W[l] h + b[l]) per layer; sum of squares */
static double mlp(double **W, double **b, const double *x) {
  double h[N], t[N];
  for (int i = 0; i < N; ++i)
    h[i] = x[i];
  for (int l = 0; l < L; ++l) {
    const double *Wl = W[l], *bl = b[l];
    for (int i = 0; i < N; ++i) {
      double s = bl[i];
      for (int j = 0; j < N; ++j)
        s += Wl[i * N + j] * h[j];
      t[i] = act(s);
    }
    for (int i = 0; i < N; ++i)
      h[i] = t[i];
  }
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += h[i] * h[i];
  return r;
}

/* The same with the table built here, from one constant weight array */
static double mlp_flat(const double *Wflat, double **b, const double *x) {
  double **tab = malloc(L * sizeof *tab);
  for (int l = 0; l < L; ++l)
    tab[l] = (double *)Wflat + l * N * N;
  double r = mlp(tab, b, x);
  free(tab);
  return r;
}

/* LSTM over T steps; weight tables const, state tables hs[l], cs[l] dup */
static double lstm(double **Wx, double **Wh, double **B, double **hs,
                   double **cs, const double *xs) {
  for (int t = 0; t < T; ++t) {
    const double *in = xs + t * N;
    for (int l = 0; l < L; ++l) {
      double *h = hs[l], *c = cs[l];
      const double *wx = Wx[l], *wh = Wh[l], *bb = B[l];
      double g[4 * N];
      for (int k = 0; k < 4 * N; ++k) {
        double s = bb[k];
        for (int j = 0; j < N; ++j)
          s += wx[k * N + j] * in[j] + wh[k * N + j] * h[j];
        g[k] = s;
      }
      for (int i = 0; i < N; ++i) {
        double ig = sigm(g[i]), fg = sigm(g[N + i]), og = sigm(g[2 * N + i]);
        c[i] = fg * c[i] + ig * tanh(g[3 * N + i]);
        h[i] = og * tanh(c[i]);
      }
      in = h;
    }
  }
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += hs[L - 1][i] * hs[L - 1][i];
  return r;
}

static double Wflat[L * N * N], Bflat[L * N], Whx[L * 4 * N * N],
    Whh[L * 4 * N * N], Bl[L * 4 * N];
static double *W[L], *b[L], *wx[L], *wh[L], *bl[L];
static double x0[N], xs0[T * N];

static double mlp_x(const double *x) { return mlp(W, b, x); }
static double mlp_w(const double *w) {
  double *tab[L];
  for (int l = 0; l < L; ++l)
    tab[l] = (double *)w + l * N * N;
  return mlp(tab, b, x0);
}
static double lstm_xs(const double *xs) {
  double hbuf[L][N] = {{0}}, cbuf[L][N] = {{0}};
  double *hs[L], *cs[L];
  for (int l = 0; l < L; ++l)
    hs[l] = hbuf[l], cs[l] = cbuf[l];
  return lstm(wx, wh, bl, hs, cs, xs);
}

int main(void) {
  for (int k = 0; k < L * N * N; ++k)
    Wflat[k] = 0.6 * rev_rand();
  for (int k = 0; k < L * N; ++k)
    Bflat[k] = 0.2 * rev_rand();
  for (int k = 0; k < L * 4 * N * N; ++k)
    Whx[k] = 0.4 * rev_rand(), Whh[k] = 0.4 * rev_rand();
  for (int k = 0; k < L * 4 * N; ++k)
    Bl[k] = 0.2 * rev_rand();
  for (int l = 0; l < L; ++l) {
    W[l] = malloc(N * N * sizeof(double));
    memcpy(W[l], Wflat + l * N * N, N * N * sizeof(double));
    b[l] = Bflat + l * N;
    wx[l] = Whx + l * 4 * N * N, wh[l] = Whh + l * 4 * N * N;
    bl[l] = Bl + l * 4 * N;
  }
  for (int i = 0; i < N; ++i)
    x0[i] = rev_rand();
  for (int k = 0; k < T * N; ++k)
    xs0[k] = 0.5 * rev_rand();

  /* tables const, input dup */
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)mlp, enzyme_const, W, enzyme_const, b, enzyme_dup,
                    x, dx);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], fd_partial(mlp_x, x, i), REV_TOL_FD);

  /* the table malloc'd inside the differentiated function */
  double dxf[N] = {0};
  __enzyme_autodiff((void *)mlp_flat, enzyme_const, Wflat, enzyme_const, b,
                    enzyme_dup, x, dxf);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dxf[i], dx[i], REV_TOL_EXACT);
  double tf[N] = {1, -0.5, 0.25, 2};
  double fw = __enzyme_fwddiff((void *)mlp_flat, enzyme_const, Wflat,
                               enzyme_const, b, enzyme_dup, x, tf);
  double dot = 0;
  for (int i = 0; i < N; ++i)
    dot += dx[i] * tf[i];
  CHECK_CLOSE(fw, dot, REV_TOL_DOT);

  /* weight table dup: the shadow table points into the weights' shadows */
  double *dW[L];
  for (int l = 0; l < L; ++l)
    dW[l] = calloc(N * N, sizeof(double));
  __enzyme_autodiff((void *)mlp, enzyme_dup, W, dW, enzyme_const, b,
                    enzyme_const, x);
  double w[L * N * N];
  memcpy(w, Wflat, sizeof w);
  for (int l = 0; l < L; ++l)
    for (int k = 0; k < N * N; k += 3)
      CHECK_CLOSE(dW[l][k], fd_partial(mlp_w, w, l * N * N + k), REV_TOL_FD);

  /* LSTM: weight tables const, state tables dup (zeroed state) */
  double hbuf[L][N] = {{0}}, cbuf[L][N] = {{0}}, dh[L][N] = {{0}},
         dc[L][N] = {{0}};
  double *hs[L], *cs[L], *dhs[L], *dcs[L];
  for (int l = 0; l < L; ++l)
    hs[l] = hbuf[l], cs[l] = cbuf[l], dhs[l] = dh[l], dcs[l] = dc[l];
  double xs[T * N], dxs[T * N] = {0};
  memcpy(xs, xs0, sizeof xs);
  __enzyme_autodiff((void *)lstm, enzyme_const, wx, enzyme_const, wh,
                    enzyme_const, bl, enzyme_dup, hs, dhs, enzyme_dup, cs, dcs,
                    enzyme_dup, xs, dxs);
  for (int k = 0; k < T * N; ++k)
    CHECK_CLOSE(dxs[k], fd_partial(lstm_xs, xs, k), REV_TOL_FD);
  return check_finish();
}
