/* Idiom corpus, numerical C as people write it: a switch-based stack
 * machine evaluating an expression, a goto loop, a static table of
 * coefficients filled on the first call, __restrict__ helpers, long double
 * and float accumulators mixed with double, the rounding mode changed with
 * fesetround, a CSR sparse matrix-vector product with integer index tables,
 * secant and Newton root finders that leave their loops early, frexp/ldexp
 * and a periodic wrap, a median through qsort, Kahan summation, and a
 * piecewise function evaluated exactly at its breakpoints (the derivative
 * of the piece the program takes). Both modes, central differences and
 * exact values (probe_check.h). */
#include "probe_check.h"

#include <fenv.h>

enum { PUSH_X, PUSH_C, ADD, SUB, MUL, DIV, SIN, EXP, DUP, SWAP, HALT };
static double vm_run(const int *code, const double *consts, const double *x) {
  double stack[16];
  int sp = 0, pc = 0;
  for (;;) {
    switch (code[pc++]) {
    case PUSH_X:
      stack[sp++] = x[code[pc++]];
      break;
    case PUSH_C:
      stack[sp++] = consts[code[pc++]];
      break;
    case ADD:
      --sp;
      stack[sp - 1] += stack[sp];
      break;
    case SUB:
      --sp;
      stack[sp - 1] -= stack[sp];
      break;
    case MUL:
      --sp;
      stack[sp - 1] *= stack[sp];
      break;
    case DIV:
      --sp;
      stack[sp - 1] /= stack[sp];
      break;
    case SIN:
      stack[sp - 1] = sin(stack[sp - 1]);
      break;
    case EXP:
      stack[sp - 1] = exp(stack[sp - 1]);
      break;
    case DUP:
      stack[sp] = stack[sp - 1];
      ++sp;
      break;
    case SWAP: {
      double t = stack[sp - 1];
      stack[sp - 1] = stack[sp - 2];
      stack[sp - 2] = t;
      break;
    }
    default:
      return stack[sp - 1];
    }
  }
}
/* ((x0 + x1) sin x2 - x0 / x1)^2 + exp(0.25) */
static const int program[] = {
    PUSH_X, 0,   PUSH_X, 1,   ADD, PUSH_X, 2, SIN, MUL, PUSH_X, 0, PUSH_X, 1,
    SWAP,   DIV, SUB,    DUP, MUL, PUSH_C, 0, EXP, ADD, HALT};
static const double constants[] = {0.25};
static double f_vm(const double *x) { return vm_run(program, constants, x); }

static double f_goto(const double *x) {
  double s = 0, t = x[0];
  int i = 0;
loop:
  if (i >= 6)
    goto done;
  s += t * x[1];
  t = t * 0.9 + sin(s);
  ++i;
  goto loop;
done:
  return s + t;
}

static double exp_series(double x) {
  static double c[8];
  static int filled = 0;
  if (!filled) {
    double f = 1;
    for (int i = 0; i < 8; ++i) {
      c[i] = 1.0 / f;
      f *= i + 1;
    }
    filled = 1;
  }
  double r = c[7];
  for (int i = 6; i >= 0; --i)
    r = r * x + c[i];
  return r;
}
static double f_static_table(const double *x) {
  return exp_series(x[0]) * exp_series(x[1] * 0.5);
}

static void axpy(int n, double a, const double *__restrict__ x,
                 double *__restrict__ y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
static double dot(int n, const double *__restrict__ x,
                  const double *__restrict__ y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
static double f_restrict(const double *__restrict__ x) {
  double y[4] = {1, 2, 3, 4}, z[4] = {0};
  axpy(4, x[4], x, y);
  axpy(4, x[0], y, z);
  return dot(4, y, x) + dot(4, z, y);
}

static double f_long_double(const double *x) {
  long double acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += (long double)x[i] * x[i] / (1.0L + i);
  long double e = expl(acc * 0.1L);
  return (double)(e * (long double)x[0]) + (double)sqrtl(acc);
}

static double f_float_sum(const double *x) {
  float acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += (float)(x[i] * x[i]);
  return (double)acc * x[0];
}

static double f_rounding(const double *x) {
  int old = fegetround();
  fesetround(FE_UPWARD);
  double a = x[0] * x[1] + rint(x[0] * 3.0);
  fesetround(old);
  return a + nearbyint(x[1] * 10) * x[0];
}

/* y = A v with A in CSR form: values x[0..7), v = x[7..11) */
static const int row_start[] = {0, 2, 3, 6, 7};
static const int column[] = {0, 3, 1, 0, 2, 3, 2};
static double f_csr(const double *x) {
  double y[4];
  for (int i = 0; i < 4; ++i) {
    double s = 0;
    for (int k = row_start[i]; k < row_start[i + 1]; ++k)
      s += x[k] * x[7 + column[k]];
    y[i] = s;
  }
  return y[0] * y[1] + y[2] * y[3] + y[0] * y[3];
}

/* the root of t^3 + a t - b by secants, leaving when converged */
static double f_secant(const double *x) {
  double a = x[0], b = x[1];
  double t0 = 0, t1 = 1;
  double f0 = -b, f1 = 1 + a - b;
  for (int it = 0; it < 60; ++it) {
    if (f1 == f0)
      break;
    double t2 = t1 - f1 * (t1 - t0) / (f1 - f0);
    t0 = t1;
    f0 = f1;
    t1 = t2;
    f1 = t1 * t1 * t1 + a * t1 - b;
    if (fabs(f1) < 1e-15)
      break;
  }
  return t1;
}
/* Lambert's W(x0) by Newton, leaving through a goto */
static double f_newton(const double *x) {
  double t = 1;
  for (int i = 0; i < 50; ++i) {
    double r = t * exp(t) - x[0];
    if (fabs(r) < 1e-14)
      goto out;
    t -= r / ((1 + t) * exp(t));
  }
out:
  return t * x[1];
}

static double f_frexp(const double *x) {
  int e;
  double m = frexp(x[0] * 3.7, &e);
  double wrapped = x[1] - 2.0 * floor(x[1] / 2.0);
  return ldexp(m * m, e) + fmod(x[0] * 5, 1.3) * wrapped +
         copysign(x[1], -x[0]);
}

static int by_value(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}
static double f_median(const double *x) {
  double c[5];
  for (int i = 0; i < 5; ++i)
    c[i] = x[i] * x[i] - x[(i + 1) % 5];
  qsort(c, 5, sizeof c[0], by_value);
  return c[2] + 0.5 * (c[4] - c[0]);
}

static double f_kahan(const double *x) {
  double s = 0, c = 0;
  for (int i = 0; i < 20; ++i) {
    double y = sin(x[i % 3] * (i + 1)) - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

static double piece(double t) {
  if (t < 0)
    return 0;
  if (t <= 1)
    return t * t;
  if (t < 2)
    return 2 * t - 1;
  return 3;
}
static double f_breakpoints(const double *x) {
  return piece(x[0]) + piece(x[1]) * x[2] + piece(x[2]);
}

int main(void) {
  PROBE(f_vm, 3, 0.7, 0.3, 1.1);
  PROBE(f_goto, 2, 0.7, 0.3);
  PROBE(f_static_table, 2, 0.7, 0.3);
  PROBE(f_restrict, 5, 0.3, -0.4, 0.5, 0.6, -0.7);
  PROBE(f_long_double, 4, 0.3, -0.4, 0.5, 0.6);
  {
    /* float sums: exact values (float rounding spoils differences) */
    double s = 0.09 + 0.16 + 0.25 + 0.36;
    double exact[4] = {s + 2 * 0.09, 2 * -0.4 * 0.3, 2 * 0.5 * 0.3,
                       2 * 0.6 * 0.3};
    double x[4] = {0.3, -0.4, 0.5, 0.6}, g[4] = {0}, t[4];
    __enzyme_autodiff((void *)f_float_sum, enzyme_dup, x, g);
    for (int i = 0; i < 4; ++i) {
      memset(t, 0, sizeof t);
      t[i] = 1;
      CHECK_CLOSE(g[i], exact[i], 1e-6);
      CHECK_CLOSE(__enzyme_fwddiff((void *)f_float_sum, enzyme_dup, x, t),
                  exact[i], 1e-6);
    }
  }
  PROBE(f_rounding, 2, 0.31, -0.43);
  PROBE(f_csr, 11, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, -1.2, 1.3, 1.4);
  {
    /* implicit derivatives of the root t: 3t^2 + a; dt/da = -t/D, dt/db = 1/D
     */
    double x[2] = {0.7, 1.9};
    double t = f_secant(x), d = 3 * t * t + 0.7;
    double exact[2] = {-t / d, 1 / d};
    PROBE_AT(f_secant, 2, exact, REV_TOL_FD, 0.7, 1.9);
  }
  {
    /* W' = W / (x (1 + W)) */
    double x[2] = {2.5, 1.3};
    double w = f_newton(x) / 1.3;
    double exact[2] = {1.3 * w / (2.5 * (1 + w)), w};
    PROBE_AT(f_newton, 2, exact, REV_TOL_FD, 2.5, 1.3);
  }
  PROBE(f_frexp, 2, 0.3, 2.7);
  PROBE(f_median, 5, 0.3, -0.4, 0.5, 0.6, -0.7);
  PROBE(f_kahan, 3, 0.3, -0.4, 0.5);
  {
    /* x = (1, 2, 0): piece(1) is t*t (2), piece(2) is 3 (0), piece(0) is
     * t*t (0); d/dx2 = piece(2) + 0 */
    double exact[3] = {2, 0, 3};
    PROBE_AT(f_breakpoints, 3, exact, 0, 1.0, 2.0, 0.0);
  }
  return check_finish();
}
