/* Derivatives through KISS FFT (github.com/mborgerding/kissfft, kiss_fft.c
 * and kiss_fftr.c compiled unchanged with kiss_fft_scalar double and
 * linked; the derivatives of their functions are made at link time). The
 * plans (kiss_fft_alloc, kiss_fftr_alloc: one block holding the factors,
 * the twiddles and, for the real FFT, a scratch buffer that kiss_fftr
 * writes the signal's spectrum into) are made by the library and passed
 * as constants or, for the real FFT, also with a shadow plan.
 *
 *  1. The complex FFT for sizes whose factors take each butterfly (radix
 *     2, 3, 4, 5 and the generic one, which allocates scratch memory):
 *     the gradient of sum_k w_k |X_k|^2 with respect to the signal by
 *     reverse mode against its analytic value (2 times the unnormalized
 *     inverse DFT of w X, computed by a plain DFT), Parseval's identity
 *     (w = 1: 2 N x), central differences and forward mode; the FFT done
 *     in place too (kiss_fft copies through a temporary buffer), and with
 *     the plan made by kiss_fft_alloc inside the differentiated function.
 *  2. The real FFT (kiss_fftr) for even sizes: the same objective over
 *     the N/2+1 bins, the plan constant and then with a shadow plan.
 *  3. A circular convolution by FFT (kiss_fftr of the signal and of the
 *     filter, a product of spectra, kiss_fftri back): the gradient of a
 *     weighted sum of the result with respect to the signal and the
 *     filter against its analytic value and central differences.
 * Run by kissfft.sh. */
#include "kiss_fft.h"
#include "kiss_fftr.h"
#include "_kiss_fft_guts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int failures = 0, checks = 0;

static void check(const char *what, int n, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s (n=%d, i=%d): %.12g, expected %.12g  FAIL\n", what, n, i, got,
           want);
    ++failures;
  }
}

/* ---- 1. complex FFT ---------------------------------------------------- */

/* sum_k w_k |X_k|^2 where X = FFT(x), x interleaved (re, im). */
static double spectral(kiss_fft_cfg cfg, const double *x, const double *w,
                       int n) {
  kiss_fft_cpx *out = malloc(sizeof(kiss_fft_cpx) * n);
  kiss_fft(cfg, (const kiss_fft_cpx *)x, out);
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += w[k] * (out[k].r * out[k].r + out[k].i * out[k].i);
  free(out);
  return s;
}

/* The same, the FFT in place in a copy of the signal. */
static double spectral_inplace(kiss_fft_cfg cfg, const double *x,
                               const double *w, int n) {
  kiss_fft_cpx *buf = malloc(sizeof(kiss_fft_cpx) * n);
  memcpy(buf, x, sizeof(kiss_fft_cpx) * n);
  kiss_fft(cfg, buf, buf);
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += w[k] * (buf[k].r * buf[k].r + buf[k].i * buf[k].i);
  free(buf);
  return s;
}

/* The same, the plan made and freed inside the differentiated function
   (kiss_fft_alloc computes the twiddles with cos and sin of constants). */
static double spectral_alloc(kiss_fft_cfg unused, const double *x,
                             const double *w, int n) {
  (void)unused;
  kiss_fft_cfg cfg = kiss_fft_alloc(n, 0, NULL, NULL);
  double s = spectral(cfg, x, w, n);
  kiss_fft_free(cfg);
  return s;
}

typedef double (*objective_fn)(kiss_fft_cfg, const double *, const double *,
                               int);

/* 2 sum_k w_k X_k e^{+2 pi i k j / n}: (d/d re x_j, d/d im x_j). */
static void analytic(const double *x, const double *w, int n, double *g) {
  long double *xr = calloc(n, sizeof(long double));
  long double *xi = calloc(n, sizeof(long double));
  const long double pi = 3.141592653589793238462643383279L;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j) {
      long double a = -2 * pi * k * j / n;
      xr[k] += x[2 * j] * cosl(a) - x[2 * j + 1] * sinl(a);
      xi[k] += x[2 * j] * sinl(a) + x[2 * j + 1] * cosl(a);
    }
  for (int j = 0; j < n; ++j) {
    long double gr = 0, gi = 0;
    for (int k = 0; k < n; ++k) {
      long double a = 2 * pi * k * j / n;
      gr += w[k] * (xr[k] * cosl(a) - xi[k] * sinl(a));
      gi += w[k] * (xr[k] * sinl(a) + xi[k] * cosl(a));
    }
    g[2 * j] = (double)(2 * gr);
    g[2 * j + 1] = (double)(2 * gi);
  }
  free(xr);
  free(xi);
}

static void complex_case(int n, objective_fn f, const char *name) {
  kiss_fft_cfg cfg = kiss_fft_alloc(n, 0, NULL, NULL);
  double *x = malloc(sizeof(double) * 2 * n), *dx = calloc(2 * n, 8);
  double *w = malloc(sizeof(double) * n), *ones = malloc(sizeof(double) * n);
  double *want = malloc(sizeof(double) * 2 * n);
  for (int j = 0; j < 2 * n; ++j)
    x[j] = sin(0.7 * j + 0.3) + 0.25 * cos(1.9 * j);
  for (int k = 0; k < n; ++k) {
    w[k] = 1.0 + 0.5 * sin(0.37 * k);
    ones[k] = 1.0;
  }
  char what[96];

  /* Parseval: with w = 1 the gradient is 2 n x. */
  __enzyme_autodiff((void *)f, enzyme_const, cfg, enzyme_dup, x, dx,
                    enzyme_const, ones, enzyme_const, n);
  snprintf(what, sizeof what, "%s Parseval", name);
  for (int j = 0; j < 2 * n; ++j)
    check(what, n, j, dx[j], 2.0 * n * x[j], 1e-10);

  memset(dx, 0, sizeof(double) * 2 * n);
  __enzyme_autodiff((void *)f, enzyme_const, cfg, enzyme_dup, x, dx,
                    enzyme_const, w, enzyme_const, n);
  analytic(x, w, n, want);
  snprintf(what, sizeof what, "%s reverse vs analytic", name);
  for (int j = 0; j < 2 * n; ++j)
    check(what, n, j, dx[j], want[j], 1e-10);

  /* Central differences and forward mode on a few coordinates. */
  double *t = calloc(2 * n, sizeof(double));
  for (int j = 0; j < 2 * n; j += (n > 16 ? 5 : 1)) {
    double xj = x[j], h = 1e-6;
    x[j] = xj + h;
    double up = f(cfg, x, w, n);
    x[j] = xj - h;
    double down = f(cfg, x, w, n);
    x[j] = xj;
    snprintf(what, sizeof what, "%s reverse vs differences", name);
    check(what, n, j, dx[j], (up - down) / (2 * h), 1e-6);
    t[j] = 1;
    double fd = __enzyme_fwddiff((void *)f, enzyme_const, cfg, enzyme_dup, x,
                                 t, enzyme_const, w, enzyme_const, n);
    t[j] = 0;
    snprintf(what, sizeof what, "%s forward vs reverse", name);
    check(what, n, j, fd, dx[j], 1e-10);
  }
  free(t);
  free(x);
  free(dx);
  free(w);
  free(ones);
  free(want);
  kiss_fft_free(cfg);
}

/* ---- 2. real FFT ------------------------------------------------------- */

/* sum_k w_k |X_k|^2 over the n/2+1 bins of kiss_fftr(x). */
static double real_spectral(kiss_fftr_cfg cfg, const double *x,
                            const double *w, int n) {
  kiss_fft_cpx *out = malloc(sizeof(kiss_fft_cpx) * (n / 2 + 1));
  kiss_fftr(cfg, x, out);
  double s = 0;
  for (int k = 0; k <= n / 2; ++k)
    s += w[k] * (out[k].r * out[k].r + out[k].i * out[k].i);
  free(out);
  return s;
}

/* d/dx_j sum_k w_k |X_k|^2 = 2 sum_k w_k Re(conj(X_k) e^{-2 pi i k j/n}). */
static void real_analytic(const double *x, const double *w, int n,
                          double *g) {
  const long double pi = 3.141592653589793238462643383279L;
  for (int j = 0; j < n; ++j)
    g[j] = 0;
  for (int k = 0; k <= n / 2; ++k) {
    long double xr = 0, xi = 0;
    for (int j = 0; j < n; ++j) {
      xr += x[j] * cosl(-2 * pi * k * j / n);
      xi += x[j] * sinl(-2 * pi * k * j / n);
    }
    for (int j = 0; j < n; ++j) {
      long double a = -2 * pi * k * j / n;
      g[j] += (double)(2 * w[k] * (xr * cosl(a) + xi * sinl(a)));
    }
  }
}

/* The first fields of kiss_fftr.c's plan (struct kiss_fftr_state). */
struct fftr_head {
  kiss_fft_cfg substate;
  kiss_fft_cpx *tmpbuf;
  kiss_fft_cpx *super_twiddles;
};

/* Zeroes the numbers of the shadow plan \p s of size \p n: the sub-plan's
   twiddles, the scratch buffer and the super twiddles, which follow one
   another to the block's end. (A reverse derivative adds the adjoints of
   the twiddles there, as it does for any duplicated memory.) */
static void zero_plan(kiss_fftr_cfg s, int n, int inverse) {
  size_t len = 0;
  kiss_fftr_alloc(n, inverse, NULL, &len);
  char *numbers = (char *)((struct fftr_head *)s)->substate->twiddles;
  memset(numbers, 0, (size_t)((char *)s + len - numbers));
}

/* A shadow plan: a second plan from the library (its pointers point into
   its own block, its integers are the plan's), every number in it zero. */
static kiss_fftr_cfg shadow_plan(int n, int inverse) {
  kiss_fftr_cfg s = kiss_fftr_alloc(n, inverse, NULL, NULL);
  zero_plan(s, n, inverse);
  return s;
}

static void real_case(int n) {
  kiss_fftr_cfg cfg = kiss_fftr_alloc(n, 0, NULL, NULL);
  kiss_fftr_cfg dcfg = shadow_plan(n, 0);
  int m = n / 2 + 1;
  double *x = malloc(sizeof(double) * n), *dx = calloc(n, sizeof(double));
  double *w = malloc(sizeof(double) * m), *want = malloc(sizeof(double) * n);
  double *t = calloc(n, sizeof(double));
  for (int j = 0; j < n; ++j)
    x[j] = cos(0.45 * j - 0.2) + 0.3 * sin(2.3 * j);
  for (int k = 0; k < m; ++k)
    w[k] = 0.75 + 0.5 * cos(0.61 * k);
  __enzyme_autodiff((void *)real_spectral, enzyme_dup, cfg, dcfg, enzyme_dup,
                    x, dx, enzyme_const, w, enzyme_const, n);
  real_analytic(x, w, n, want);
  for (int j = 0; j < n; ++j) {
    check("kiss_fftr reverse vs analytic", n, j, dx[j], want[j], 1e-10);
    double xj = x[j], h = 1e-6;
    x[j] = xj + h;
    double up = real_spectral(cfg, x, w, n);
    x[j] = xj - h;
    double down = real_spectral(cfg, x, w, n);
    x[j] = xj;
    check("kiss_fftr reverse vs differences", n, j, dx[j],
          (up - down) / (2 * h), 1e-6);
    t[j] = 1;
    zero_plan(dcfg, n, 0);
    double fd = __enzyme_fwddiff((void *)real_spectral, enzyme_dup, cfg, dcfg,
                                 enzyme_dup, x, t, enzyme_const, w,
                                 enzyme_const, n);
    t[j] = 0;
    check("kiss_fftr forward vs reverse", n, j, fd, dx[j], 1e-10);
  }
  free(x);
  free(dx);
  free(w);
  free(want);
  free(t);
  kiss_fftr_free(cfg);
  kiss_fftr_free(dcfg);
}

/* ---- 3. convolution by FFT --------------------------------------------- */

/* sum_j c_j y_j, y = x (*) h circularly, by kiss_fftr and kiss_fftri. */
static double convolved(kiss_fftr_cfg fwd, kiss_fftr_cfg inv, const double *x,
                        const double *h, const double *c, int n) {
  int m = n / 2 + 1;
  kiss_fft_cpx *X = malloc(sizeof(kiss_fft_cpx) * m);
  kiss_fft_cpx *H = malloc(sizeof(kiss_fft_cpx) * m);
  double *y = malloc(sizeof(double) * n);
  kiss_fftr(fwd, x, X);
  kiss_fftr(fwd, h, H);
  for (int k = 0; k < m; ++k) {
    double r = X[k].r * H[k].r - X[k].i * H[k].i;
    double i = X[k].r * H[k].i + X[k].i * H[k].r;
    X[k].r = r / n;
    X[k].i = i / n;
  }
  kiss_fftri(inv, X, y);
  double s = 0;
  for (int j = 0; j < n; ++j)
    s += c[j] * y[j];
  free(X);
  free(H);
  free(y);
  return s;
}

static void convolution_case(int n) {
  kiss_fftr_cfg fwd = kiss_fftr_alloc(n, 0, NULL, NULL);
  kiss_fftr_cfg inv = kiss_fftr_alloc(n, 1, NULL, NULL);
  kiss_fftr_cfg dfwd = shadow_plan(n, 0), dinv = shadow_plan(n, 1);
  double *x = malloc(sizeof(double) * n), *h = malloc(sizeof(double) * n);
  double *c = malloc(sizeof(double) * n);
  double *dx = calloc(n, sizeof(double)), *dh = calloc(n, sizeof(double));
  for (int j = 0; j < n; ++j) {
    x[j] = sin(0.3 * j) + 0.1 * j;
    h[j] = exp(-0.2 * j);
    c[j] = 1.0 + 0.25 * cos(0.9 * j);
  }
  __enzyme_autodiff((void *)convolved, enzyme_dup, fwd, dfwd, enzyme_dup, inv,
                    dinv, enzyme_dup, x, dx, enzyme_dup, h, dh, enzyme_const, c,
                    enzyme_const, n);
  for (int mm = 0; mm < n; ++mm) {
    /* d/dx_m sum_j c_j sum_i x_i h_{(j-i) mod n} = sum_j c_j h_{(j-m) mod n};
       d/dh_m likewise with x. */
    double gx = 0, gh = 0;
    for (int j = 0; j < n; ++j) {
      gx += c[j] * h[((j - mm) % n + n) % n];
      gh += c[j] * x[((j - mm) % n + n) % n];
    }
    check("convolution d/dx analytic", n, mm, dx[mm], gx, 1e-10);
    check("convolution d/dh analytic", n, mm, dh[mm], gh, 1e-10);
    double xm = x[mm], e = 1e-6;
    x[mm] = xm + e;
    double up = convolved(fwd, inv, x, h, c, n);
    x[mm] = xm - e;
    double down = convolved(fwd, inv, x, h, c, n);
    x[mm] = xm;
    check("convolution d/dx differences", n, mm, dx[mm], (up - down) / (2 * e),
          1e-6);
  }
  double *tx = calloc(n, sizeof(double)), *th = calloc(n, sizeof(double));
  for (int j = 0; j < n; ++j) {
    tx[j] = 0.1 * (j % 3) - 0.05;
    th[j] = 0.02 * j;
  }
  zero_plan(dfwd, n, 0);
  zero_plan(dinv, n, 1);
  double fd = __enzyme_fwddiff((void *)convolved, enzyme_dup, fwd, dfwd,
                               enzyme_dup, inv, dinv, enzyme_dup, x, tx,
                               enzyme_dup, h, th, enzyme_const, c,
                               enzyme_const, n);
  double want = 0;
  for (int j = 0; j < n; ++j)
    want += dx[j] * tx[j] + dh[j] * th[j];
  check("convolution forward vs reverse", n, -1, fd, want, 1e-10);
  free(x);
  free(h);
  free(c);
  free(dx);
  free(dh);
  free(tx);
  free(th);
  kiss_fftr_free(fwd);
  kiss_fftr_free(inv);
  kiss_fftr_free(dfwd);
  kiss_fftr_free(dinv);
}

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "all";
  static const int sizes[] = {2, 3, 4, 5, 8, 12, 16, 30, 7, 11, 21, 60, 64};
  int all = !strcmp(part, "all");
  if (all || !strcmp(part, "complex"))
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
      complex_case(sizes[i], spectral, "kiss_fft");
      complex_case(sizes[i], spectral_inplace, "kiss_fft in place");
      complex_case(sizes[i], spectral_alloc, "kiss_fft_alloc inside");
    }
  static const int even[] = {2, 4, 8, 12, 24, 30, 64, 14};
  if (all || !strcmp(part, "real"))
    for (unsigned i = 0; i < sizeof even / sizeof *even; ++i)
      real_case(even[i]);
  if (all || !strcmp(part, "convolution")) {
    convolution_case(16);
    convolution_case(30);
  }
  printf("kissfft (%s): %d checks, %d failures\n", part, checks, failures);
  return failures != 0;
}
