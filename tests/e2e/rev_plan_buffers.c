/* A transform plan that holds pointers to its own buffers (a table of
 * roots of unity and a scratch area), in the way FFT libraries such as
 * KISS FFT keep them: the signal is copied into the plan's scratch area by
 * struct assignments in a helper, transformed there, and the spectrum read
 * back. Passed with a shadow plan whose pointers point to zeroed buffers
 * (enzyme_dup), the derivatives go through the scratch area: the gradient
 * of the weighted spectral energy against Parseval's identity (weights 1:
 * 2 n x), its analytic value, central differences, and forward mode
 * against reverse. (The plan passed enzyme_const is an error:
 * lit errors/shadowless-copies.c.) */
#include "check.h"

#include <string.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 6 };

typedef struct {
  double re, im;
} cplx;

struct plan {
  int n;
  cplx *roots;   /* e^{-2 pi i k / n} */
  cplx *scratch; /* n values */
};

__attribute__((noinline)) static void load(cplx *out, const cplx *in, int n) {
  for (int k = 0; k < n; ++k)
    out[k] = in[k];
}

/* The DFT of the scratch area into out, then copied back into it. */
__attribute__((noinline)) static void transform(struct plan *p, cplx *out) {
  int n = p->n;
  for (int k = 0; k < n; ++k) {
    cplx acc = {0, 0};
    for (int j = 0; j < n; ++j) {
      cplx w = p->roots[(k * j) % n], v = p->scratch[j];
      acc.re += w.re * v.re - w.im * v.im;
      acc.im += w.re * v.im + w.im * v.re;
    }
    out[k] = acc;
  }
  memcpy(p->scratch, out, sizeof(cplx) * n);
}

static double energy(struct plan *p, const cplx *x, const double *w) {
  cplx out[N];
  load(p->scratch, x, p->n);
  transform(p, out);
  double s = 0;
  for (int k = 0; k < p->n; ++k)
    s += w[k] * (p->scratch[k].re * p->scratch[k].re +
                 p->scratch[k].im * p->scratch[k].im);
  return s;
}

static void make_plan(struct plan *p, cplx *roots, cplx *scratch) {
  p->n = N;
  p->roots = roots;
  p->scratch = scratch;
  for (int k = 0; k < N; ++k) {
    roots[k].re = cos(-2 * M_PI * k / N);
    roots[k].im = sin(-2 * M_PI * k / N);
  }
}

int main(void) {
  cplx roots[N], scratch[N], droots[N], dscratch[N];
  struct plan p, dp = {N, droots, dscratch};
  make_plan(&p, roots, scratch);
  cplx x[N], dx[N], t[N];
  double ones[N], w[N];
  for (int j = 0; j < N; ++j) {
    x[j].re = sin(0.8 * j + 0.1);
    x[j].im = 0.5 * cos(1.3 * j);
    ones[j] = 1;
    w[j] = 1 + 0.25 * j;
  }

  /* Parseval: with weights 1 the gradient is 2 n x. */
  memset(droots, 0, sizeof droots);
  memset(dscratch, 0, sizeof dscratch);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)energy, enzyme_dup, &p, &dp, enzyme_dup, x, dx,
                    enzyme_const, ones);
  for (int j = 0; j < N; ++j) {
    CHECK_CLOSE(dx[j].re, 2.0 * N * x[j].re, 1e-12);
    CHECK_CLOSE(dx[j].im, 2.0 * N * x[j].im, 1e-12);
  }

  /* Weighted: d/dx_j = 2 sum_k w_k X_k e^{+2 pi i k j / n}. */
  memset(droots, 0, sizeof droots);
  memset(dscratch, 0, sizeof dscratch);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)energy, enzyme_dup, &p, &dp, enzyme_dup, x, dx,
                    enzyme_const, w);
  cplx X[N];
  for (int k = 0; k < N; ++k) {
    X[k].re = X[k].im = 0;
    for (int j = 0; j < N; ++j) {
      double a = -2 * M_PI * k * j / N;
      X[k].re += x[j].re * cos(a) - x[j].im * sin(a);
      X[k].im += x[j].re * sin(a) + x[j].im * cos(a);
    }
  }
  for (int j = 0; j < N; ++j) {
    double gr = 0, gi = 0;
    for (int k = 0; k < N; ++k) {
      double a = 2 * M_PI * k * j / N;
      gr += 2 * w[k] * (X[k].re * cos(a) - X[k].im * sin(a));
      gi += 2 * w[k] * (X[k].re * sin(a) + X[k].im * cos(a));
    }
    CHECK_CLOSE(dx[j].re, gr, 1e-12);
    CHECK_CLOSE(dx[j].im, gi, 1e-12);
  }

  /* Central differences and forward mode, coordinate by coordinate. */
  double *xs = &x[0].re, *dxs = &dx[0].re, *ts = &t[0].re;
  for (int i = 0; i < 2 * N; ++i) {
    double keep = xs[i], h = 1e-6;
    xs[i] = keep + h;
    double up = energy(&p, x, w);
    xs[i] = keep - h;
    double down = energy(&p, x, w);
    xs[i] = keep;
    CHECK_CLOSE(dxs[i], (up - down) / (2 * h), 1e-7);
    memset(t, 0, sizeof t);
    memset(droots, 0, sizeof droots);
    ts[i] = 1;
    double fd = __enzyme_fwddiff((void *)energy, enzyme_dup, &p, &dp,
                                 enzyme_dup, x, t, enzyme_const, w);
    CHECK_CLOSE(fd, dxs[i], 1e-12);
  }
  return check_finish();
}
