/* Second derivatives by reverse mode over reverse mode (issue 33, item 9):
 * the gradient of a function that itself calls __enzyme_autodiff. The
 * inner sweeps push records on the thread's tape and pop them back; the
 * outer derivative records on a tape of its own and gives each inner
 * record a shadow block.
 *  (a) the Hessian of a scalar function of three variables, row by row
 *      (the gradient of each partial derivative), against closed forms,
 *      forward over reverse and central differences of the partials;
 *      also through pointers (enzyme_dup arrays): H v as the gradient of
 *      <grad f, v>;
 *  (b) the gradient of g(x) = |grad f(x)|^2 for an f with loops over
 *      n = 5, 12 and 20 elements (records in loops), against central
 *      differences of g and the closed form 2 H grad f;
 *  (c) split mode inside and outside (__enzyme_augmentfwd and
 *      __enzyme_reverse), and third derivatives: reverse over reverse over
 *      reverse (the outermost derivative on the tape of level 2) and
 *      forward over reverse over reverse;
 *  (d) copies in the inner function (memcpy of doubles and of structs
 *      with an int field): the inner reverse sweep's adjoint copies
 *      (adcc_adjoint_copy_f64 and its strided form) differentiated. */
#include <string.h>
#include "rev_check.h"

/* (a) ---------------------------------------------------------------- */

static double f3(double x, double y, double z) {
  return x * x * y + sin(x * y) + exp(0.3 * x) * z / (1 + y * y) + z * z * z;
}

static void f3_hessian(double x, double y, double z, double H[3][3]) {
  double s = sin(x * y), c = cos(x * y), e = exp(0.3 * x), q = 1 + y * y;
  H[0][0] = 2 * y - y * y * s + 0.09 * e * z / q;
  H[0][1] = 2 * x + c - x * y * s - 0.3 * e * z * 2 * y / (q * q);
  H[0][2] = 0.3 * e / q;
  H[1][1] = -x * x * s + e * z * (6 * y * y - 2) / (q * q * q);
  H[1][2] = -e * 2 * y / (q * q);
  H[2][2] = 6 * z;
  H[1][0] = H[0][1];
  H[2][0] = H[0][2];
  H[2][1] = H[1][2];
}

/* The partial derivatives of f3, each by its own gradient. */
static double f3_x(double x, double y, double z) {
  return __enzyme_autodiff3((void *)f3, x, y, z).a;
}
static double f3_y(double x, double y, double z) {
  return __enzyme_autodiff3((void *)f3, x, y, z).b;
}
static double f3_z(double x, double y, double z) {
  return __enzyme_autodiff3((void *)f3, x, y, z).c;
}

static double at_x, at_y, at_z;
static double (*row_fn)(double, double, double);
static double along_x(double t) { return row_fn(t, at_y, at_z); }
static double along_y(double t) { return row_fn(at_x, t, at_z); }
static double along_z(double t) { return row_fn(at_x, at_y, t); }

/* Row i of the Hessian: the gradient of the partial fn, against the closed
 * form, forward over reverse (one column at a time) and central
 * differences of fn. (Straight-line code: the optimizer would otherwise
 * merge the requests of the rows into one call of a chosen function.) */
#define CHECK_ROW(i, fn)                                                       \
  do {                                                                         \
    rev_three r_ = __enzyme_autodiff3((void *)fn, x, y, z);                    \
    double got_[3] = {r_.a, r_.b, r_.c};                                       \
    double fwd_[3] = {__enzyme_fwddiff((void *)fn, x, 1.0, y, 0.0, z, 0.0),   \
                      __enzyme_fwddiff((void *)fn, x, 0.0, y, 1.0, z, 0.0),   \
                      __enzyme_fwddiff((void *)fn, x, 0.0, y, 0.0, z, 1.0)};  \
    row_fn = fn;                                                               \
    double fd_[3] = {fd_central(along_x, x), fd_central(along_y, y),           \
                     fd_central(along_z, z)};                                  \
    for (int j = 0; j < 3; ++j) {                                              \
      CHECK_CLOSE(got_[j], H[i][j], REV_TOL_EXACT);                            \
      CHECK_CLOSE(got_[j], fwd_[j], REV_TOL_EXACT);                            \
      CHECK_CLOSE(got_[j], fd_[j], REV_TOL_FD);                                \
    }                                                                          \
  } while (0)

static void check_hessian(double x, double y, double z) {
  double H[3][3];
  f3_hessian(x, y, z, H);
  at_x = x, at_y = y, at_z = z;
  CHECK_ROW(0, f3_x);
  CHECK_ROW(1, f3_y);
  CHECK_ROW(2, f3_z);
  printf("H(%.2f, %.2f, %.2f): %.12f %.12f %.12f\n", x, y, z, H[0][0],
         H[0][1], H[2][2]);
}

/* Through memory: the gradient into an array, then H v as the gradient of
 * <grad f, v> with respect to x. */
static double f3p(const double *x) { return f3(x[0], x[1], x[2]); }

static double grad_dot(const double *x, const double *v) {
  double g[3] = {0, 0, 0};
  __enzyme_autodiff_void((void *)f3p, enzyme_dup, x, g);
  return g[0] * v[0] + g[1] * v[1] + g[2] * v[2];
}

static void check_hessian_vector(void) {
  double x[3] = {0.4, -0.9, 1.1}, v[3] = {0.3, 1.2, -0.7}, hv[3] = {0};
  __enzyme_autodiff_void((void *)grad_dot, enzyme_dup, x, hv, enzyme_const,
                         v);
  double H[3][3];
  f3_hessian(x[0], x[1], x[2], H);
  for (int i = 0; i < 3; ++i) {
    double want = H[i][0] * v[0] + H[i][1] * v[1] + H[i][2] * v[2];
    CHECK_CLOSE(hv[i], want, REV_TOL_EXACT);
  }
}

/* (b) ---------------------------------------------------------------- */

enum { MaxN = 20 };
static int n_cur;

/* a chain with neighbours, a nonlinearity and a branch per element */
static double chain(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double d = x[i] - (i ? x[i - 1] : 0.5);
    s += d * d * (1 + 0.1 * i) + sin(x[i]) * x[(i + 2) % n];
    if (x[i] > 0)
      s += 0.25 * x[i] * x[i] * x[i];
  }
  return s;
}

static double norm2_grad(const double *x, int n) {
  double g[MaxN];
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff_void((void *)chain, enzyme_dup, x, g, enzyme_const, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g[i] * g[i];
  return s;
}

static double norm2_grad_cur(const double *x) { return norm2_grad(x, n_cur); }

/* closed forms: the gradient and the Hessian of chain */
static void chain_derivs(const double *x, int n, double *g,
                         double H[MaxN][MaxN]) {
  for (int i = 0; i < n; ++i) {
    g[i] = 0;
    for (int j = 0; j < n; ++j)
      H[i][j] = 0;
  }
  for (int i = 0; i < n; ++i) {
    double w = 2 * (1 + 0.1 * i), d = x[i] - (i ? x[i - 1] : 0.5);
    int k = (i + 2) % n;
    g[i] += w * d + cos(x[i]) * x[k];
    g[k] += sin(x[i]);
    H[i][i] += w - sin(x[i]) * x[k];
    H[i][k] += cos(x[i]);
    H[k][i] += cos(x[i]);
    if (i) {
      g[i - 1] -= w * d;
      H[i - 1][i - 1] += w;
      H[i][i - 1] -= w;
      H[i - 1][i] -= w;
    }
    if (x[i] > 0) {
      g[i] += 0.75 * x[i] * x[i];
      H[i][i] += 1.5 * x[i];
    }
  }
}

static void check_gradient_norm(int n) {
  double x[MaxN], dx[MaxN], g[MaxN], H[MaxN][MaxN];
  for (int i = 0; i < n; ++i) {
    x[i] = rev_rand();
    dx[i] = 0;
  }
  __enzyme_autodiff_void((void *)norm2_grad, enzyme_dup, x, dx, enzyme_const,
                         n);
  chain_derivs(x, n, g, H);
  double want[MaxN];
  for (int i = 0; i < n; ++i) {
    want[i] = 0;
    for (int j = 0; j < n; ++j)
      want[i] += 2 * H[i][j] * g[j];
  }
  n_cur = n;
  CHECK_GRAD_TOL(norm2_grad_cur, x, n, dx, want, 1e-5);
  printf("n = %d: d/dx0 |grad|^2 = %.12f\n", n, dx[0]);
}

/* (c) ---------------------------------------------------------------- */

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

static double cubic(double x, double y) { return x * x * x * y + sin(x * y); }

/* the inner gradient in split mode */
static double cubic_x(double x, double y) {
  void *tape = __enzyme_augmentfwd((void *)cubic, x, enzyme_const, y);
  return __enzyme_reverse((void *)cubic, x, enzyme_const, y, 1.0, tape);
}

static double cubic_xx(double x, double y) {
  return __enzyme_autodiff((void *)cubic_x, x, enzyme_const, y);
}

static void check_split_and_third(double x, double y) {
  double s = sin(x * y), c = cos(x * y);
  CHECK_CLOSE(cubic_x(x, y), 3 * x * x * y + y * c, REV_TOL_EXACT);
  double want2 = 6 * x * y - y * y * s, want3 = 6 * y - y * y * y * c;
  CHECK_CLOSE(cubic_xx(x, y), want2, REV_TOL_EXACT);
  /* the outer derivative in split mode too */
  void *tape = __enzyme_augmentfwd((void *)cubic_x, x, enzyme_const, y);
  CHECK_CLOSE(__enzyme_reverse((void *)cubic_x, x, enzyme_const, y, 1.0, tape),
              want2, REV_TOL_EXACT);
  double d3 = __enzyme_autodiff((void *)cubic_xx, x, enzyme_const, y);
  CHECK_CLOSE(d3, want3, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)cubic_xx, x, 1.0, enzyme_const, y), d3,
              REV_TOL_EXACT);
  printf("third derivative at (%.2f, %.2f): %.12f\n", x, y, d3);
}

/* (d) ---------------------------------------------------------------- */

enum { NC = 4 };
typedef struct {
  int tag;
  double v;
} item;

static double copies(const double *x) {
  double y[NC];
  item it[NC], jt[NC];
  memcpy(y, x, sizeof y);
  for (int i = 0; i < NC; ++i) {
    it[i].tag = i;
    it[i].v = y[i] * y[i];
  }
  memcpy(jt, it, sizeof it);
  double s = 0;
  for (int i = 0; i < NC; ++i)
    s += jt[i].v * y[(i + 1) % NC] + sin(y[i]);
  return s;
}

static double copies_c[NC];
static double copies_grad_dot(const double *x) {
  double g[NC] = {0};
  __enzyme_autodiff_void((void *)copies, enzyme_dup, x, g);
  double s = 0;
  for (int i = 0; i < NC; ++i)
    s += copies_c[i] * g[i];
  return s;
}

static void check_copies(void) {
  double x[NC], dx[NC] = {0}, want[NC] = {0};
  for (int i = 0; i < NC; ++i) {
    x[i] = rev_rand();
    copies_c[i] = rev_rand();
  }
  __enzyme_autodiff_void((void *)copies_grad_dot, enzyme_dup, x, dx);
  /* H c in closed form: s = sum x_i^2 x_{i+1} + sin x_i */
  for (int i = 0; i < NC; ++i) {
    int j = (i + 1) % NC;
    want[i] += (2 * x[j] - sin(x[i])) * copies_c[i] + 2 * x[i] * copies_c[j];
    want[j] += 2 * x[i] * copies_c[i];
  }
  CHECK_GRAD_TOL(copies_grad_dot, x, NC, dx, want, 1e-5);
}

int main(void) {
  check_hessian(0.7, 1.3, -0.4);
  check_hessian(-1.1, 0.25, 0.8);
  check_hessian_vector();
  check_gradient_norm(5);
  check_gradient_norm(12);
  check_gradient_norm(20);
  check_split_and_third(0.7, 1.3);
  check_split_and_third(-0.4, 2.1);
  check_copies();
  return check_finish();
}
