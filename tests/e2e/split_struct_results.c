/* Split mode (__enzyme_augmentfwd, then __enzyme_reverse) of functions
 * that return by value a struct mixing floating-point values with
 * pointers or integers: {double *p; double v;}, {double v; double *p;}
 * chosen by a branch, {double v; long n;}, {double *p; float a, b;} (the
 * floats packed as one vector by the ABI). The augmented sweep returns
 * {tape, result, shadow}, the shadow's pointers the pointers' shadows and
 * its numbers zero; __enzyme_reverse takes one seed per floating-point
 * field, in order, before the tape. Refused until 2026-12-07 ("cannot
 * seed its result"). The gradient against central differences, and
 * forward mode along each axis against it. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_reverse(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* {ptr, double} */
struct pv {
  double *p;
  double v;
};
__attribute__((noinline)) static struct pv mk_pv(const double *x,
                                                 double *out) {
  out[0] = x[0] * x[1];
  out[1] = sin(x[0]) + x[2];
  struct pv r = {out + 1, x[0] * x[0] * x[2]};
  return r;
}
typedef struct {
  void *tape;
  struct pv r, s;
} aug_pv;
aug_pv __enzyme_augmentfwd_pv(void *, ...);
static double obj_pv(const double *x) {
  double o[2];
  struct pv r = mk_pv(x, o);
  return 2 * o[0] + 3 * r.p[0] * r.p[0] + 5 * r.v;
}

/* {double, ptr}, the pointer chosen by a branch */
struct vp {
  double v;
  const double *p;
};
__attribute__((noinline)) static struct vp mk_vp(const double *x) {
  struct vp r;
  if (x[0] > x[1]) {
    r.v = x[0] * x[2];
    r.p = x + 1;
  } else {
    r.v = x[1] * x[1];
    r.p = x + 2;
  }
  return r;
}
typedef struct {
  void *tape;
  struct vp r, s;
} aug_vp;
aug_vp __enzyme_augmentfwd_vp(void *, ...);
static double obj_vp(const double *x) {
  struct vp r = mk_vp(x);
  return 7 * r.v + r.p[0] * r.v;
}

/* {double, long}: no pointer, no shadow. */
struct vn {
  double v;
  long n;
};
__attribute__((noinline)) static struct vn mk_vn(const double *x) {
  struct vn r = {x[0] * x[1] * x[2], 3};
  for (long i = 0; i < r.n; ++i)
    r.v = r.v * 0.5 + x[i];
  return r;
}
typedef struct {
  void *tape;
  struct vn r;
} aug_vn;
aug_vn __enzyme_augmentfwd_vn(void *, ...);
static double obj_vn(const double *x) { return 4 * mk_vn(x).v; }

/* {ptr, float, float}: {ptr, <2 x float>} in registers. */
struct pff {
  double *p;
  float a, b;
};
__attribute__((noinline)) static struct pff mk_pff(const double *x,
                                                   double *out) {
  out[0] = x[1] * x[2];
  struct pff r = {out, (float)(x[0] * x[0]), (float)(x[1] + x[2])};
  return r;
}
typedef struct {
  void *tape;
  struct pff r, s;
} aug_pff;
aug_pff __enzyme_augmentfwd_pff(void *, ...);
static double obj_pff(const double *x) {
  double o[1];
  struct pff r = mk_pff(x, o);
  return 3 * r.p[0] + 2 * r.a + 6 * r.b;
}

typedef double (*objective)(const double *);

/* The gradient of \p f by central differences of step \p h, checked
 * against \p g; and forward mode along each axis. */
static void check_gradient(objective f, const double *x, const double *g,
                           double h, double tol) {
  for (int i = 0; i < 3; ++i) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(g[i], (f(xp) - f(xm)) / (2 * h), tol);
    double t[3] = {0, 0, 0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, t), g[i], 1e-5);
  }
}

int main(void) {
  const double pts[2][3] = {{0.7, 1.3, -0.4}, {1.9, 0.2, 0.8}};
  for (int k = 0; k < 2; ++k) {
    const double *x = pts[k];
    {
      double g[3] = {0, 0, 0}, o[2], d[2] = {0, 0};
      aug_pv a = __enzyme_augmentfwd_pv((void *)mk_pv, enzyme_dup, x, g,
                                        enzyme_dup, o, d);
      CHECK_TRUE(a.r.p == o + 1 && a.s.p == d + 1);
      CHECK_CLOSE(a.r.v, x[0] * x[0] * x[2], 1e-15);
      CHECK_CLOSE(a.s.v, 0, 0);
      d[0] += 2;
      a.s.p[0] += 6 * a.r.p[0];
      __enzyme_reverse((void *)mk_pv, enzyme_dup, x, g, enzyme_dup, o, d,
                       5.0, a.tape);
      /* Analytic: 2 x1 + 6 (sin x0 + x2) cos x0 + 10 x0 x2, ... */
      double s = sin(x[0]) + x[2];
      CHECK_CLOSE(g[0], 2 * x[1] + 6 * s * cos(x[0]) + 10 * x[0] * x[2],
                  1e-12);
      CHECK_CLOSE(g[1], 2 * x[0], 1e-12);
      CHECK_CLOSE(g[2], 6 * s + 5 * x[0] * x[0], 1e-12);
      check_gradient(obj_pv, x, g, 1e-6, 1e-6);
    }
    {
      double g[3] = {0, 0, 0};
      aug_vp a = __enzyme_augmentfwd_vp((void *)mk_vp, enzyme_dup, x, g);
      CHECK_TRUE(a.s.p == g + (a.r.p - x));
      CHECK_CLOSE(a.s.v, 0, 0);
      /* The adjoint of *r.p is r.v, that of r.v 7 + *r.p. */
      *(double *)a.s.p += a.r.v;
      __enzyme_reverse((void *)mk_vp, enzyme_dup, x, g, 7 + a.r.p[0],
                       a.tape);
      check_gradient(obj_vp, x, g, 1e-6, 1e-6);
    }
    {
      double g[3] = {0, 0, 0};
      aug_vn a = __enzyme_augmentfwd_vn((void *)mk_vn, enzyme_dup, x, g);
      CHECK_TRUE(a.r.n == 3);
      __enzyme_reverse((void *)mk_vn, enzyme_dup, x, g, 4.0, a.tape);
      check_gradient(obj_vn, x, g, 1e-6, 1e-6);
    }
    {
      double g[3] = {0, 0, 0}, o[1], d[1] = {0};
      aug_pff a = __enzyme_augmentfwd_pff((void *)mk_pff, enzyme_dup, x, g,
                                          enzyme_dup, o, d);
      CHECK_TRUE(a.r.p == o && a.s.p == d);
      CHECK_TRUE(a.s.a == 0 && a.s.b == 0);
      a.s.p[0] += 3;
      __enzyme_reverse((void *)mk_pff, enzyme_dup, x, g, enzyme_dup, o, d,
                       2.0f, 6.0f, a.tape);
      /* (The floats round: a long step, exact for this quadratic.) */
      check_gradient(obj_pff, x, g, 1e-2, 1e-4);
    }
  }
  return check_finish();
}
