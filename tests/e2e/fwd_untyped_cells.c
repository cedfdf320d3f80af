/* Cells whose shadow shares the primal's count table, filled through an
 * untyped `void *` alias of the values and compacted by a helper that
 * copies one value with memcpy (the derivative fuzzer's "cells", generator
 * version 17). Registered with -fno-strict-aliasing: without TBAA the type
 * analysis cannot tell the ints of the count table from a float's bits.
 * At -O2 `cnt[b]++` after the counter of local cells is a phi of two loads
 * of the count; forward mode gave it the tangent "loaded shadow + 1" and
 * stored that into the shadow's count, the primal's own, until 2026-12-06:
 * the primal outputs of __enzyme_fwddiff differed from a plain call's
 * (adfuzz v18 seeds 41 67 86 89) and so did the tangents. At -O3, where
 * argument promotion hands the helper the field's pointer alone, reverse
 * mode refused the copy until 2026-12-06 ("a memory copy whose contents
 * cannot be typed"): the callers' other reads of the field now type it.
 *
 * Forward mode (one call per input, the shadow's table shared or its own)
 * against the analytic gradient, reverse mode and central differences;
 * after every call the primal's output and counts against a plain call's. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

enum { NCB = 4, NCAP = 8, NX = 2, NI = 1 };

struct cells {
  int *cnt;
  int nloc;
  double *v;
  void *vr; /* v, untyped */
};

__attribute__((noinline)) static void move(struct cells *cl, int to,
                                           int from) {
  memcpy((double *)cl->vr + to, (double *)cl->vr + from, sizeof(double));
}

static double entry(const double *x, int j) {
  switch (j) {
  case 0:
    return sin(x[0]);
  case 1:
    return x[0] * x[1];
  case 2:
    return exp(0.5 * x[1]);
  case 3:
    return x[0] * x[0];
  default:
    return cos(x[1]);
  }
}

/* Five entries into four boxes (n = 1: boxes 2, 3, 0, 1, 2), the last of
 * each box moved to its front, the boxes summed with weights. */
static void f(const double *x, int n, double *out, struct cells *cl) {
  memset(cl->cnt, 0, NCB * sizeof(int));
  cl->nloc = 0;
  for (int j = 0; j < 5; j++) {
    int b = (j + 2 * n) % NCB;
    int o = b * NCAP + cl->cnt[b];
    if (b < NCB / 2)
      cl->nloc++;
    cl->cnt[b]++;
    ((double *)cl->vr)[o] = entry(x, j);
  }
  for (int b = 0; b < NCB; ++b)
    if (cl->cnt[b] > 1)
      move(cl, b * NCAP, b * NCAP + cl->cnt[b] - 1);
  double sum = 0;
  for (int b = 0; b < NCB; ++b)
    for (int k = 0; k < cl->cnt[b]; ++k)
      sum += (1 + 0.25 * b) * cl->v[b * NCAP + k];
  out[0] = sum;
}

/* sum = exp(x1 / 2) + 1.25 x0^2 + 3 cos(x1) + 1.75 x0 x1 */
static double value(const double *x) {
  return exp(0.5 * x[1]) + 1.25 * x[0] * x[0] + 3 * cos(x[1]) +
         1.75 * x[0] * x[1];
}

static void gradient(const double *x, double *g) {
  g[0] = 2.5 * x[0] + 1.75 * x[1];
  g[1] = 0.5 * exp(0.5 * x[1]) - 3 * sin(x[1]) + 1.75 * x[0];
}

static const int WantCounts[NCB] = {1, 1, 2, 1};

static int cnt[NCB], dcnt[NCB];
static double v[NCB * NCAP], dv[NCB * NCAP];

static double plain(const double *x) {
  double xb[NX] = {x[0], x[1]}, out = 0;
  struct cells c = {cnt, 0, v, v};
  f(xb, NI, &out, &c);
  return out;
}

/* The primal's counts and output after a differentiated call. */
static void check_primal(const struct cells *c, double out, double want) {
  CHECK_CLOSE(out, want, 1e-14);
  CHECK_TRUE(c->nloc == 2);
  for (int b = 0; b < NCB; ++b)
    CHECK_TRUE(c->cnt[b] == WantCounts[b]);
}

static void check_at(const double *x) {
  double g[NX], want = plain(x);
  gradient(x, g);
  CHECK_CLOSE(want, value(x), 1e-14);

  /* reverse mode, the shadow sharing the count table */
  double xr[NX] = {x[0], x[1]}, dxr[NX] = {0}, out = 0, dout = 1;
  memset(dv, 0, sizeof dv);
  struct cells c = {cnt, 0, v, v}, dc = {cnt, 0, dv, dv};
  __enzyme_autodiff((void *)f, enzyme_dup, xr, dxr, enzyme_const, NI,
                    enzyme_dup, &out, &dout, enzyme_dup, &c, &dc);
  check_primal(&c, out, want);

  const double h = 1e-6;
  for (int i = 0; i < NX; ++i) {
    double xp[NX] = {x[0], x[1]}, xm[NX] = {x[0], x[1]};
    xp[i] += h;
    xm[i] -= h;
    double fd = (plain(xp) - plain(xm)) / (2 * h);
    CHECK_CLOSE(dxr[i], g[i], 1e-12);
    CHECK_CLOSE(fd, g[i], 1e-7);
    for (int own = 0; own < 2; ++own) {
      double xb[NX] = {x[0], x[1]}, dx[NX] = {0}, o = 0, d = 0;
      dx[i] = 1;
      memset(dv, 0, sizeof dv);
      memset(dcnt, 0, sizeof dcnt);
      struct cells p = {cnt, 0, v, v}, dp = {own ? dcnt : cnt, 0, dv, dv};
      __enzyme_fwddiff((void *)f, enzyme_dup, xb, dx, enzyme_const, NI,
                       enzyme_dup, &o, &d, enzyme_dup, &p, &dp);
      check_primal(&p, o, want);
      CHECK_CLOSE(d, g[i], 1e-12);
      CHECK_CLOSE(d, dxr[i], 1e-12);
      CHECK_CLOSE(d, fd, 1e-7);
    }
  }
}

/* A count copied within the table, at -O2 a phi of the load before the
 * counter of local cells (no tangent) and the one after (a tangent): until
 * 2026-12-06 forward mode stored the phi's tangent, 0 where b >= 2, into
 * the shared cnt[3], so out = v[c] cnt[3] was 0. */
static void copy_count(const double *x, int n, double *out,
                       struct cells *cl) {
  memset(cl->cnt, 0, NCB * sizeof(int));
  cl->nloc = 0;
  cl->cnt[1] = 7;
  cl->cnt[2] = 5;
  int b = n % NCB;
  int c = cl->cnt[b];
  if (b < NCB / 2)
    cl->nloc++;
  cl->cnt[3] = cl->cnt[b];
  ((double *)cl->vr)[c] = sin(x[0]) * x[1];
  out[0] = cl->v[c] * cl->cnt[3];
}

static void check_copy(int n) {
  const double x[NX] = {0.7, -1.3};
  const double k = n == 1 ? 7 : 5;
  const double g[NX] = {k * cos(x[0]) * x[1], k * sin(x[0])};
  double xr[NX] = {x[0], x[1]}, dxr[NX] = {0}, out = 0, dout = 1;
  memset(dv, 0, sizeof dv);
  struct cells c = {cnt, 0, v, v}, dc = {cnt, 0, dv, dv};
  __enzyme_autodiff((void *)copy_count, enzyme_dup, xr, dxr, enzyme_const, n,
                    enzyme_dup, &out, &dout, enzyme_dup, &c, &dc);
  CHECK_CLOSE(out, k * sin(x[0]) * x[1], 1e-14);
  CHECK_TRUE(cnt[3] == k);
  for (int i = 0; i < NX; ++i) {
    CHECK_CLOSE(dxr[i], g[i], 1e-12);
    for (int own = 0; own < 2; ++own) {
      double xb[NX] = {x[0], x[1]}, dx[NX] = {0}, o = 0, d = 0;
      dx[i] = 1;
      memset(dv, 0, sizeof dv);
      memset(dcnt, 0, sizeof dcnt);
      struct cells p = {cnt, 0, v, v}, dp = {own ? dcnt : cnt, 0, dv, dv};
      __enzyme_fwddiff((void *)copy_count, enzyme_dup, xb, dx, enzyme_const,
                       n, enzyme_dup, &o, &d, enzyme_dup, &p, &dp);
      CHECK_CLOSE(o, k * sin(x[0]) * x[1], 1e-14);
      CHECK_TRUE(cnt[3] == k);
      CHECK_CLOSE(d, g[i], 1e-12);
      CHECK_CLOSE(d, dxr[i], 1e-12);
    }
  }
  /* central differences of a plain call */
  for (int i = 0; i < NX; ++i) {
    const double h = 1e-6;
    double xp[NX] = {x[0], x[1]}, xm[NX] = {x[0], x[1]}, op = 0, om = 0;
    xp[i] += h;
    xm[i] -= h;
    struct cells c2 = {cnt, 0, v, v};
    copy_count(xp, n, &op, &c2);
    copy_count(xm, n, &om, &c2);
    CHECK_CLOSE((op - om) / (2 * h), g[i], 1e-7);
  }
}

int main(void) {
  const double points[][NX] = {{0.4365, 0.8783}, {-1.2, 0.3}, {0.9, -2.1}};
  for (unsigned k = 0; k < sizeof points / sizeof points[0]; ++k)
    check_at(points[k]);
  check_copy(1);
  check_copy(2);
  return check_finish();
}
