/* Structs and complex values of 9 to 16 bytes passed by value to the
 * function a request names. The x86-64 ABI passes them as two IR
 * arguments (one per eightbyte), or in memory when the registers run out,
 * and drops empty structs; the request's arguments come in source order
 * (the value's halves, then its shadow's). Forward and reverse mode,
 * through __enzyme_* calls and through attributes, each derivative checked
 * against its analytic value and central finite differences, and forward
 * against reverse. */
#include "check.h"
#include <adcc.h>
#include <complex.h>

typedef struct {
  double a, b;
} pair;
typedef struct {
  float x, y, z;
} vec3f; /* <2 x float>, float */
typedef struct {
  double w;
  long k;
} weighted; /* double, i64: the integer half has no derivative */
typedef struct {
  double *p, *q;
} twoptr; /* two pointers: each has a shadow */

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
double __enzyme_fwddiff(void *, ...);
double _Complex __enzyme_autodiff_c(void *, ...);
pair __enzyme_autodiff_pair(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
double __enzyme_autodiff_d(void *, ...);
void __enzyme_autodiff_void(void *, ...);
typedef struct {
  double d[2];
} two;
two __enzyme_fwddiff_two(void *, ...);

static double fz(double _Complex z) {
  return creal(z) * cimag(z) * cimag(z) + sin(creal(z));
}
static double fp(pair p) { return p.a * exp(p.b) + p.b * p.b; }
static float fv(vec3f v) { return v.x * v.y + v.z * v.z * v.y; }
static double fw(weighted w) { return w.w * w.w * (double)w.k; }
static double fmix(double s, pair p, int n, double _Complex z) {
  return s * p.a + n * p.b * creal(z) + cimag(z) * p.a;
}
/* seven doubles before the pair: the callee receives the pair in memory */
static double flate(double a, double b, double c, double d, double e,
                    double f, double g, pair p) {
  return a * b + c * d * e + f * g + p.a * p.b * a;
}
static void fptr(twoptr t, double *out) { *out = t.p[0] * t.q[0] + t.p[1]; }

#define H 1e-6
static double cd(double fp_, double fm) { return (fp_ - fm) / (2 * H); }

static void forward_calls(void) {
  double _Complex z = 0.7 + 1.3 * I;
  /* d/d(re z) and d/d(im z) */
  double dre = __enzyme_fwddiff((void *)fz, z, (double _Complex)1);
  double dim = __enzyme_fwddiff((void *)fz, z, (double _Complex)I);
  CHECK_CLOSE(dre, 1.3 * 1.3 + cos(0.7), 1e-12);
  CHECK_CLOSE(dim, 2 * 0.7 * 1.3, 1e-12);
  CHECK_CLOSE(dre, cd(fz(z + H), fz(z - H)), 1e-7);
  CHECK_CLOSE(dim, cd(fz(z + H * I), fz(z - H * I)), 1e-7);

  pair p = {0.4, -0.3}, da = {1, 0}, db = {0, 1};
  CHECK_CLOSE(__enzyme_fwddiff((void *)fp, enzyme_dup, p, da), exp(-0.3),
              1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)fp, p, db), 0.4 * exp(-0.3) - 0.6,
              1e-12);
  /* enzyme_const: the whole value, both halves */
  CHECK_CLOSE(__enzyme_fwddiff((void *)fp, enzyme_const, p), 0, 0);

  /* two directions in one call */
  two t = __enzyme_fwddiff_two((void *)fp, enzyme_width, 2, enzyme_dup, p,
                               da, db);
  CHECK_CLOSE(t.d[0], exp(-0.3), 1e-12);
  CHECK_CLOSE(t.d[1], 0.4 * exp(-0.3) - 0.6, 1e-12);

  vec3f v = {1.5f, 2.0f, -0.5f}, dz = {0, 0, 1}, dy = {0, 1, 0};
  CHECK_CLOSE(__enzyme_fwddiff_f((void *)fv, v, dz), 2 * -0.5 * 2.0, 1e-6);
  CHECK_CLOSE(__enzyme_fwddiff_f((void *)fv, v, dy), 1.5 + 0.25, 1e-6);

  weighted w = {1.5, 3}, dw = {1, 99};
  CHECK_CLOSE(__enzyme_fwddiff((void *)fw, w, dw), 2 * 1.5 * 3, 1e-12);

  /* mixed: a scalar, a pair, an int and a complex value */
  pair q = {2, 3}, dq = {0.5, -1};
  double _Complex c = 1.5 - 2 * I, dc = 0.25 + 2 * I;
  double got = __enzyme_fwddiff((void *)fmix, 1.25, 0.75, q, dq, enzyme_const,
                                4, c, dc);
  double want = 0.75 * 2 + 1.25 * 0.5 + 4 * (-1 * 1.5 + 3 * 0.25) +
                (2 * 2 + -2 * 0.5);
  CHECK_CLOSE(got, want, 1e-12);

  /* the callee's pair in memory (registers ran out) */
  double late = __enzyme_fwddiff((void *)flate, 1.0, 1.0, 2.0, 0.0, 3.0, 0.0,
                                 4.0, 0.0, 5.0, 0.0, 6.0, 0.0, 7.0, 0.0,
                                 (pair){8, 9}, (pair){0, 1});
  CHECK_CLOSE(late, 2 + 8 * 9 + 8 * 1, 1e-12);
}

/* The interleaved form (values, enzyme_interleave, then the shadows) and a
 * width-2 call mixing split values and scalars. */
extern int enzyme_interleave;
static double fpxz(pair p, double x, double _Complex z) {
  return p.a * p.b * x + creal(z) * cimag(z);
}
static void interleaved_and_batched(void) {
  pair p = {2, 3};
  double _Complex z = 1 + 4 * I;
  double t = __enzyme_fwddiff((void *)fpxz, p, 5.0, z, enzyme_interleave,
                              (pair){1, 0}, 0.0, (double _Complex)I);
  CHECK_CLOSE(t, 3 * 5 + 1, 1e-12);
  two w = __enzyme_fwddiff_two((void *)fpxz, enzyme_width, 2, p, (pair){1, 0},
                               (pair){0, 1}, 5.0, 0.0, 1.0, z,
                               (double _Complex)0, (double _Complex)1);
  CHECK_CLOSE(w.d[0], 3 * 5, 1e-12);
  CHECK_CLOSE(w.d[1], 2 * 5 + 2 * 3 + 4, 1e-12);
}

static void reverse_calls(void) {
  double _Complex z = 0.7 + 1.3 * I;
  double _Complex g = __enzyme_autodiff_c((void *)fz, z);
  CHECK_CLOSE(creal(g), __enzyme_fwddiff((void *)fz, z, (double _Complex)1),
              1e-12);
  CHECK_CLOSE(cimag(g), __enzyme_fwddiff((void *)fz, z, (double _Complex)I),
              1e-12);

  pair p = {0.4, -0.3};
  pair gp = __enzyme_autodiff_pair((void *)fp, enzyme_out, p);
  CHECK_CLOSE(gp.a, exp(-0.3), 1e-12);
  CHECK_CLOSE(gp.b, 0.4 * exp(-0.3) - 0.6, 1e-12);
  CHECK_CLOSE(gp.a, cd(fp((pair){0.4 + H, -0.3}), fp((pair){0.4 - H, -0.3})),
              1e-7);

  /* a constant pair: the adjoint of the active scalar only */
  double gs = __enzyme_autodiff_d((void *)fmix, 1.25, enzyme_const,
                                  (pair){2, 3}, enzyme_const, 4, enzyme_const,
                                  1.5 - 2 * I);
  CHECK_CLOSE(gs, 2, 1e-12);

  /* a struct of two pointers, each with its shadow */
  double P[2] = {3, 4}, Q[1] = {5}, dP[2] = {0, 0}, dQ[1] = {0};
  double out = 0, dout = 1;
  __enzyme_autodiff_void((void *)fptr, (twoptr){P, Q}, (twoptr){dP, dQ},
                         enzyme_dup, &out, &dout);
  CHECK_CLOSE(out, 19, 0);
  CHECK_CLOSE(dP[0], 5, 1e-12);
  CHECK_CLOSE(dP[1], 1, 1e-12);
  CHECK_CLOSE(dQ[0], 3, 1e-12);
}

/* The attribute spellings. */
ADCC_FORWARD(d_fp_attr, Dual, Dual)
double fp_attr(pair p) { return p.a * exp(p.b) + p.b * p.b; }
ADCC_FORWARD(d_fz_attr, Dual, DualOnly)
double fz_attr(double _Complex z) { return creal(z) * cimag(z) * cimag(z); }
ADCC_REVERSE(g_fz_attr, Active, Active)
double fz_rev(double _Complex z) { return creal(z) * cimag(z) * cimag(z); }
ADCC_FORWARD_BATCH(d_fmix_attr, 2, Dual, Dual, Const, Dual, DualOnly)
double fmix_attr(double s, pair p, int n, double _Complex z) {
  return s * p.a + n * p.b * creal(z) + cimag(z) * p.a;
}

/* The example of docs/api.md: both values active in reverse mode. */
static double fpz(pair p, double _Complex z) {
  return p.a * creal(z) + p.b * p.b * cimag(z);
}
typedef struct {
  pair dp;
  double _Complex dz;
} grad_t;
grad_t __enzyme_autodiff_g(void *, ...);
ADCC_REVERSE(grad_fpz, Active, Active, Active)
double fpz_attr(pair p, double _Complex z) {
  return p.a * creal(z) + p.b * p.b * cimag(z);
}

static void example(void) {
  pair p = {1, 2};
  double _Complex z = 3 + I;
  grad_t g = __enzyme_autodiff_g((void *)fpz, enzyme_out, p, enzyme_out, z);
  CHECK_CLOSE(g.dp.a, 3, 1e-12);
  CHECK_CLOSE(g.dp.b, 2 * 2 * 1, 1e-12);
  CHECK_CLOSE(creal(g.dz), 1, 1e-12);
  CHECK_CLOSE(cimag(g.dz), 4, 1e-12);
  __auto_type r = grad_fpz(p, z, 2.0);
  CHECK_CLOSE(r.primal, 3 + 4, 1e-12);
  CHECK_CLOSE(r.d_p.a, 2 * 3, 1e-12);
  CHECK_CLOSE(r.d_p.b, 2 * 4, 1e-12);
  CHECK_CLOSE(creal(r.d_z), 2 * 1, 1e-12);
  CHECK_CLOSE(cimag(r.d_z), 2 * 4, 1e-12);
  /* forward against reverse */
  CHECK_CLOSE(__enzyme_fwddiff((void *)fpz, p, (pair){0, 1}, z,
                               (double _Complex)0),
              g.dp.b, 1e-12);
}

/* A complex result, Active: the seed is a complex value (a vector-Jacobian
 * product of the two real outputs). */
ADCC_REVERSE(g_cres, Active, Active)
double _Complex cres(double x) { return x * x + I * 3 * sin(x); }

static void attributes(void) {
  __auto_type cr = g_cres(2.0, 1.0);
  CHECK_CLOSE(creal(cr.primal), 4, 1e-15);
  CHECK_CLOSE(cr.d_x, 4, 1e-12);
  cr = g_cres(2.0, 0.5 + 2 * I);
  CHECK_CLOSE(cr.d_x, 0.5 * 4 + 2 * 3 * cos(2.0), 1e-12);

  __auto_type r = d_fp_attr((pair){0.4, -0.3}, (pair){0, 1});
  CHECK_CLOSE(r.primal, fp_attr((pair){0.4, -0.3}), 1e-15);
  CHECK_CLOSE(r.d_return, 0.4 * exp(-0.3) - 0.6, 1e-12);

  double _Complex z = 2 + 3 * I;
  CHECK_CLOSE(d_fz_attr(z, 1), 9, 1e-12);
  CHECK_CLOSE(d_fz_attr(z, I), 12, 1e-12);

  __auto_type g = g_fz_attr(z, 1.0);
  CHECK_CLOSE(g.primal, 18, 1e-12);
  CHECK_CLOSE(creal(g.d_z), 9, 1e-12);
  CHECK_CLOSE(cimag(g.d_z), 12, 1e-12);

  pair q = {2, 3};
  double _Complex c = 1.5 - 2 * I;
  __auto_type b = d_fmix_attr(1.25, 1, 0, q, (pair){0, 0}, (pair){0.5, -1}, 4,
                              c, 0, 0.25 + 2 * I);
  CHECK_CLOSE(b.d_return[0], 2, 1e-12);
  CHECK_CLOSE(b.d_return[1], 1.25 * 0.5 + 4 * (-1 * 1.5 + 3 * 0.25) +
                                 (2 * 2 + -2 * 0.5),
              1e-12);
}

int main(void) {
  forward_calls();
  interleaved_and_batched();
  reverse_calls();
  attributes();
  example();
  return check_finish();
}
