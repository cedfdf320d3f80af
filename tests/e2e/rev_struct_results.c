/* Functions that return structs by value mixing pointers and numbers,
 * the pointers pointing at memory with derivatives (LIBSVM's svm_train
 * calls a solver that returns {double *alpha; double rho;}): in registers
 * ({ptr, double}, {double, ptr}, {ptr, ptr}, a nested struct flattened to
 * {ptr, double}), through memory (sret: {int, double, ptr}, three doubles,
 * 40 bytes with two pointers), chosen by a branch, and called through a
 * function pointer. Refused in reverse mode until 2026-12-06 ("returns a
 * struct of floating-point values and pointers"). The gradient by reverse
 * mode against central differences, forward mode along each axis against
 * reverse. */
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define N 4

/* {ptr, double}: a new block of squares and a sum. */
struct owned {
  double *a;
  double r;
};
__attribute__((noinline)) static struct owned squares(const double *x,
                                                      int n) {
  struct owned s;
  s.a = malloc(n * sizeof(double));
  s.r = 0;
  for (int i = 0; i < n; ++i) {
    s.a[i] = x[i] * x[i];
    s.r += x[i];
  }
  return s;
}

/* {double, ptr}: a pointer into the argument, chosen by a branch. */
struct view {
  double scale;
  const double *at;
};
__attribute__((noinline)) static struct view pick(const double *x, int k) {
  struct view v;
  if (x[0] > x[1]) {
    v.scale = x[0] * x[3];
    v.at = x + k;
  } else {
    v.scale = x[1] * 2;
    v.at = x + k + 1;
  }
  return v;
}

/* {ptr, ptr} */
struct span {
  const double *lo, *hi;
};
__attribute__((noinline)) static struct span ends(const double *x, int n) {
  struct span s = {x, x + n - 1};
  return s;
}

/* Nested: {{ptr}, double}, returned as {ptr, double}. */
struct holder {
  struct {
    double *p;
  } in;
  double w;
};
__attribute__((noinline)) static struct holder hold(double *buf,
                                                    const double *x) {
  buf[0] = x[2] * x[2] * x[2];
  buf[1] = x[0] - x[3];
  struct holder h = {{buf}, x[1] * x[2]};
  return h;
}

/* Through memory: {int, double, ptr} (24 bytes). */
struct tagged {
  int n;
  double r;
  const double *p;
};
__attribute__((noinline)) static struct tagged tag(const double *x, int n) {
  struct tagged t = {n - 1, x[n - 1] * x[0], x + 1};
  return t;
}

/* Three doubles (24 bytes, through memory). */
struct triple {
  double v[3];
};
__attribute__((noinline)) static struct triple three(const double *x) {
  struct triple t = {{x[0] * x[1], sin(x[2]), x[3] / x[0]}};
  return t;
}

/* 40 bytes with two pointers (through memory). */
struct wide {
  double *p;
  double a, b;
  const double *q;
  int n;
};
__attribute__((noinline)) static struct wide widen(double *out,
                                                   const double *x) {
  out[0] = exp(x[1]) * x[2];
  struct wide w = {out, x[0] * x[0], x[3] - x[1], x + 2, 2};
  return w;
}

typedef struct owned (*maker)(const double *, int);
__attribute__((noinline)) static struct owned cubes(const double *x,
                                                    int n) {
  struct owned s;
  s.a = malloc(n * sizeof(double));
  s.r = 1;
  for (int i = 0; i < n; ++i) {
    s.a[i] = x[i] * x[i] * x[i];
    s.r *= x[i];
  }
  return s;
}
static maker makers[2] = {squares, cubes};

double f(const double *x, int which) {
  double buf[2], out[1];
  struct owned o = squares(x, N);
  double y = o.a[1] * o.r + o.a[3];
  free(o.a);
  struct view v = pick(x, 1);
  y += v.scale * v.at[0] + v.at[1];
  struct span s = ends(x, N);
  y += *s.lo * *s.hi;
  struct holder h = hold(buf, x);
  y += h.in.p[0] * h.w + h.in.p[1] * h.in.p[1];
  struct tagged t = tag(x, N);
  y += t.r * t.p[t.n - 1];
  struct triple th = three(x);
  y += th.v[0] * th.v[1] + th.v[2];
  struct wide w = widen(out, x);
  y += w.p[0] * w.a + w.b * w.q[w.n - 1];
  struct owned c = makers[which](x, N);
  y += c.a[2] * c.r;
  free(c.a);
  return y;
}

int main(void) {
  double x[N] = {0.7, 1.3, 0.4, 1.1};
  for (int which = 0; which < 2; ++which) {
    double g[N] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, which);
    for (int i = 0; i < N; ++i) {
      double h = 1e-6, xp[N], xm[N];
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      double fd = (f(xp, which) - f(xm, which)) / (2 * h);
      CHECK_CLOSE(g[i], fd, 1e-6);
      double e[N] = {0};
      e[i] = 1;
      double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const,
                                  which);
      CHECK_CLOSE(t, g[i], 1e-12);
    }
  }
  /* x[0] <= x[1] above; the other branch of pick. */
  double z[N] = {1.9, 1.3, 0.4, 1.1}, gz[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, z, gz, enzyme_const, 0);
  for (int i = 0; i < N; ++i) {
    double h = 1e-6, zp[N], zm[N];
    for (int j = 0; j < N; ++j)
      zp[j] = zm[j] = z[j];
    zp[i] += h;
    zm[i] -= h;
    CHECK_CLOSE(gz[i], (f(zp, 0) - f(zm, 0)) / (2 * h), 1e-6);
  }
  return check_finish();
}
