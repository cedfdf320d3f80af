/*
 * numeric.c: compile-time benchmark input for bench/compile/compile-speed.sh.
 *
 * A self-contained, realistic piece of numerical C of the kind adcc users
 * compile: grid stencils, small dense linear algebra (LU, Cholesky,
 * triangular solves), explicit ODE integrators (RK4 and an adaptive
 * embedded Runge-Kutta pair), reductions (Kahan sums, log-sum-exp, moments)
 * and objective functions built on libm. It is never run by the benchmark
 * (the benchmark compiles with -c), but it builds into a program that prints
 * a checksum, so that it can be checked by hand:
 *
 *     clang -O2 numeric.c -lm -o numeric && ./numeric
 *
 * With -DNUMERIC_AD the file also requests derivatives through the
 * Enzyme-compatible entry points (__enzyme_autodiff / __enzyme_fwddiff), so
 * that adcc's differentiation work is part of the measured compile time.
 * Plain clang compiles that variant too (the entry points are then ordinary
 * external calls), but only an adcc build can be linked.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI /* strict ISO C modes do not define it */
#define M_PI 3.14159265358979323846
#endif

#define NX 64
#define NY 64
#define NZ 16
#define MAXN 16

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */

/* Compensated (Kahan) summation. */
double sum_kahan(const double *x, size_t n) {
  double s = 0.0, c = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double y = x[i] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

double dot(const double *x, const double *y, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

/* Euclidean norm with scaling against overflow, as in BLAS dnrm2. */
double norm2(const double *x, size_t n) {
  double scale = 0.0, ssq = 1.0;
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != 0.0) {
      double a = fabs(x[i]);
      if (scale < a) {
        ssq = 1.0 + ssq * (scale / a) * (scale / a);
        scale = a;
      } else {
        ssq += (a / scale) * (a / scale);
      }
    }
  }
  return scale * sqrt(ssq);
}

double log_sum_exp(const double *x, size_t n) {
  double m = -INFINITY;
  for (size_t i = 0; i < n; ++i)
    m = fmax(m, x[i]);
  if (!isfinite(m))
    return m;
  double s = 0.0;
  for (size_t i = 0; i < n; ++i)
    s += exp(x[i] - m);
  return m + log(s);
}

void softmax(const double *x, double *out, size_t n) {
  double lse = log_sum_exp(x, n);
  for (size_t i = 0; i < n; ++i)
    out[i] = exp(x[i] - lse);
}

/* Mean, variance, skewness and kurtosis in one pass (Welford / Terriberry). */
typedef struct {
  double mean, var, skew, kurt;
} moments_t;

moments_t moments(const double *x, size_t n) {
  double mean = 0.0, m2 = 0.0, m3 = 0.0, m4 = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double k = (double)(i + 1);
    double delta = x[i] - mean;
    double dn = delta / k;
    double dn2 = dn * dn;
    double term1 = delta * dn * (k - 1.0);
    mean += dn;
    m4 += term1 * dn2 * (k * k - 3.0 * k + 3.0) + 6.0 * dn2 * m2 - 4.0 * dn * m3;
    m3 += term1 * dn * (k - 2.0) - 3.0 * dn * m2;
    m2 += term1;
  }
  moments_t r = {mean, 0.0, 0.0, 0.0};
  if (n > 1 && m2 > 0.0) {
    double dn = (double)n;
    r.var = m2 / (dn - 1.0);
    r.skew = sqrt(dn) * m3 / pow(m2, 1.5);
    r.kurt = dn * m4 / (m2 * m2) - 3.0;
  }
  return r;
}

/* ------------------------------------------------------------------------ */
/* Stencils                                                                  */
/* ------------------------------------------------------------------------ */

/* One Jacobi sweep of the 2-D Poisson equation -lap(u) = f on a unit grid
 * with Dirichlet boundary; returns the max-norm of the update. */
double jacobi_sweep(double u[NY][NX], double unew[NY][NX], double f[NY][NX],
                    double h) {
  double h2 = h * h, diff = 0.0;
  for (int j = 1; j < NY - 1; ++j)
    for (int i = 1; i < NX - 1; ++i) {
      unew[j][i] = 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] +
                           u[j + 1][i] + h2 * f[j][i]);
      diff = fmax(diff, fabs(unew[j][i] - u[j][i]));
    }
  for (int j = 1; j < NY - 1; ++j)
    memcpy(&u[j][1], &unew[j][1], (NX - 2) * sizeof(double));
  return diff;
}

/* Explicit heat-equation step with a 7-point stencil in 3-D. */
void heat3d_step(const double *restrict in, double *restrict out, int nx,
                 int ny, int nz, double alpha) {
#define IDX(i, j, k)                                                           \
  ((size_t)(k) * (size_t)(nx * ny) + (size_t)(j) * (size_t)nx + (size_t)(i))
  for (int k = 1; k < nz - 1; ++k)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        double c = in[IDX(i, j, k)];
        double lap = in[IDX(i - 1, j, k)] + in[IDX(i + 1, j, k)] +
                     in[IDX(i, j - 1, k)] + in[IDX(i, j + 1, k)] +
                     in[IDX(i, j, k - 1)] + in[IDX(i, j, k + 1)] - 6.0 * c;
        out[IDX(i, j, k)] = c + alpha * lap;
      }
#undef IDX
}

/* Discrete Dirichlet energy 0.5 * sum |grad u|^2 plus a smooth potential. */
double grid_energy(const double *u, int nx, int ny, double h) {
  double e = 0.0;
  for (int j = 0; j < ny - 1; ++j)
    for (int i = 0; i < nx - 1; ++i) {
      double c = u[j * nx + i];
      double dx = (u[j * nx + i + 1] - c) / h;
      double dy = (u[(j + 1) * nx + i] - c) / h;
      e += 0.5 * (dx * dx + dy * dy) + 0.1 * (1.0 - cos(c));
    }
  return e * h * h;
}

/* ------------------------------------------------------------------------ */
/* Dense linear algebra (row-major, n <= MAXN)                               */
/* ------------------------------------------------------------------------ */

void matvec(int n, const double *a, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

void matmul(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      c[i * n + j] = 0.0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      double aik = a[i * n + k];
      for (int j = 0; j < n; ++j)
        c[i * n + j] += aik * b[k * n + j];
    }
}

/* LU factorization with partial pivoting, in place. Returns 0 on success,
 * -1 if the matrix is singular to working precision. */
int lu_factor(int n, double *a, int *piv) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    double best = fabs(a[k * n + k]);
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i * n + k]) > best) {
        best = fabs(a[i * n + k]);
        p = i;
      }
    piv[k] = p;
    if (best < 1e-300)
      return -1;
    if (p != k)
      for (int j = 0; j < n; ++j) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    double inv = 1.0 / a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      double l = a[i * n + k] * inv;
      a[i * n + k] = l;
      for (int j = k + 1; j < n; ++j)
        a[i * n + j] -= l * a[k * n + j];
    }
  }
  return 0;
}

void lu_solve(int n, const double *lu, const int *piv, double *b) {
  for (int k = 0; k < n; ++k)
    if (piv[k] != k) {
      double t = b[k];
      b[k] = b[piv[k]];
      b[piv[k]] = t;
    }
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < i; ++j)
      b[i] -= lu[i * n + j] * b[j];
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j)
      b[i] -= lu[i * n + j] * b[j];
    b[i] /= lu[i * n + i];
  }
}

/* Cholesky factorization A = L L^T (lower triangle overwritten). */
int cholesky(int n, double *a) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k)
      d -= a[j * n + k] * a[j * n + k];
    if (d <= 0.0)
      return -1;
    d = sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k)
        s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return 0;
}

/* log det(A) for symmetric positive definite A, via Cholesky (copy). */
double spd_logdet(int n, const double *a) {
  double l[MAXN * MAXN];
  memcpy(l, a, (size_t)(n * n) * sizeof(double));
  if (cholesky(n, l) != 0)
    return NAN;
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += log(l[i * n + i]);
  return 2.0 * s;
}

/* ------------------------------------------------------------------------ */
/* ODE integrators                                                           */
/* ------------------------------------------------------------------------ */

typedef void (*rhs_fn)(double t, const double *y, double *dy, const double *p);

/* Lorenz system, p = {sigma, rho, beta}. */
void lorenz(double t, const double *y, double *dy, const double *p) {
  (void)t;
  dy[0] = p[0] * (y[1] - y[0]);
  dy[1] = y[0] * (p[1] - y[2]) - y[1];
  dy[2] = y[0] * y[1] - p[2] * y[2];
}

/* Damped, driven pendulum, p = {damping, drive amplitude, drive freq}. */
void pendulum(double t, const double *y, double *dy, const double *p) {
  dy[0] = y[1];
  dy[1] = -p[0] * y[1] - sin(y[0]) + p[1] * cos(p[2] * t);
}

/* Classical fourth-order Runge-Kutta over nsteps fixed steps (dim <= 8). */
void rk4(rhs_fn f, int dim, double *y, double t0, double t1, int nsteps,
         const double *p) {
  double k1[8], k2[8], k3[8], k4[8], tmp[8];
  double h = (t1 - t0) / nsteps, t = t0;
  for (int s = 0; s < nsteps; ++s) {
    f(t, y, k1, p);
    for (int i = 0; i < dim; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, tmp, k2, p);
    for (int i = 0; i < dim; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    f(t + 0.5 * h, tmp, k3, p);
    for (int i = 0; i < dim; ++i) tmp[i] = y[i] + h * k3[i];
    f(t + h, tmp, k4, p);
    for (int i = 0; i < dim; ++i)
      y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    t += h;
  }
}

/* Bogacki-Shampine 3(2) pair with step-size control. Returns the number of
 * accepted steps, or -1 if the step size underflowed. */
int rk23_adaptive(rhs_fn f, int dim, double *y, double t0, double t1,
                  double rtol, double atol, const double *p) {
  double k1[8], k2[8], k3[8], k4[8], tmp[8], y3[8];
  double t = t0, h = (t1 - t0) * 1e-2;
  int accepted = 0;
  f(t, y, k1, p);
  while (t < t1) {
    if (t + h > t1) h = t1 - t;
    for (int i = 0; i < dim; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, tmp, k2, p);
    for (int i = 0; i < dim; ++i) tmp[i] = y[i] + 0.75 * h * k2[i];
    f(t + 0.75 * h, tmp, k3, p);
    for (int i = 0; i < dim; ++i)
      y3[i] = y[i] + h * (2.0 / 9.0 * k1[i] + 1.0 / 3.0 * k2[i] + 4.0 / 9.0 * k3[i]);
    f(t + h, y3, k4, p);
    double err = 0.0;
    for (int i = 0; i < dim; ++i) {
      double e = h * (-5.0 / 72.0 * k1[i] + 1.0 / 12.0 * k2[i] +
                      1.0 / 9.0 * k3[i] - 1.0 / 8.0 * k4[i]);
      double sc = atol + rtol * fmax(fabs(y[i]), fabs(y3[i]));
      err = fmax(err, fabs(e) / sc);
    }
    if (err <= 1.0) {
      t += h;
      memcpy(y, y3, (size_t)dim * sizeof(double));
      memcpy(k1, k4, (size_t)dim * sizeof(double)); /* FSAL */
      ++accepted;
    }
    double fac = err > 0.0 ? 0.9 * pow(err, -1.0 / 3.0) : 5.0;
    h *= fmin(5.0, fmax(0.2, fac));
    if (h < 1e-14)
      return -1;
  }
  return accepted;
}

/* ------------------------------------------------------------------------ */
/* Objectives (the functions one would differentiate)                        */
/* ------------------------------------------------------------------------ */

double rosenbrock(const double *x, int n) {
  double f = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1.0 - x[i];
    f += 100.0 * a * a + b * b;
  }
  return f;
}

/* Mean logistic loss with L2 regularization; data is m x n row-major. */
double logistic_loss(const double *w, const double *data, const double *label,
                     int m, int n, double lambda) {
  double loss = 0.0;
  for (int i = 0; i < m; ++i) {
    double z = dot(w, data + (size_t)i * (size_t)n, (size_t)n);
    /* log(1 + exp(-y z)), evaluated stably */
    double yz = label[i] * z;
    loss += yz > 0.0 ? log1p(exp(-yz)) : -yz + log1p(exp(yz));
  }
  double reg = 0.0;
  for (int j = 0; j < n; ++j)
    reg += w[j] * w[j];
  return loss / m + 0.5 * lambda * reg;
}

/* Negative log-likelihood of 1-D points under a k-component Gaussian
 * mixture; theta = {logit weights[k], means[k], log sigmas[k]}. */
double gmm1d_nll(const double *theta, const double *x, int npts, int k) {
  double lw[MAXN], comp[MAXN];
  const double *mu = theta + k, *ls = theta + 2 * k;
  double lse_w = log_sum_exp(theta, (size_t)k);
  for (int j = 0; j < k; ++j)
    lw[j] = theta[j] - lse_w;
  double nll = 0.0;
  for (int i = 0; i < npts; ++i) {
    for (int j = 0; j < k; ++j) {
      double z = (x[i] - mu[j]) * exp(-ls[j]);
      comp[j] = lw[j] - ls[j] - 0.5 * z * z - 0.5 * log(2.0 * M_PI);
    }
    nll -= log_sum_exp(comp, (size_t)k);
  }
  return nll;
}

/* A smooth test function using a spread of libm calls. */
double libm_mix(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    s += tanh(v) * erf(0.5 * v) + atan2(v, 1.0 + v * v) + hypot(v, 2.0) +
         cbrt(1.0 + v * v) + expm1(-v * v) + lgamma(2.0 + v * v) +
         sinh(0.1 * v) * cosh(0.1 * v) + pow(1.0 + fabs(v), 0.3) + exp2(-fabs(v));
  }
  return s;
}

/* Final Lorenz state after integrating from y0 with parameters p: the
 * objective is the squared distance to a target point. */
double lorenz_shoot(const double *y0, const double *p) {
  double y[3] = {y0[0], y0[1], y0[2]};
  rk4(lorenz, 3, y, 0.0, 0.5, 200, p);
  const double target[3] = {1.0, 2.0, 20.0};
  double d = 0.0;
  for (int i = 0; i < 3; ++i)
    d += (y[i] - target[i]) * (y[i] - target[i]);
  return d;
}

double energy_of_grid(const double *u) {
  return grid_energy(u, NX, NY, 1.0 / (NX - 1));
}

#ifdef NUMERIC_AD
/* Enzyme-compatible derivative requests (see docs/api.md). Under plain clang
 * these are external calls; adcc synthesizes the derivatives. */
extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

void grad_rosenbrock(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, dx, enzyme_const, n);
}

void grad_logistic(const double *w, double *dw, const double *data,
                   const double *label, int m, int n, double lambda) {
  __enzyme_autodiff((void *)logistic_loss, enzyme_dup, w, dw, enzyme_const,
                    data, enzyme_const, label, enzyme_const, m, enzyme_const,
                    n, enzyme_const, lambda);
}

void grad_gmm1d(const double *theta, double *dtheta, const double *x, int npts,
                int k) {
  __enzyme_autodiff((void *)gmm1d_nll, enzyme_dup, theta, dtheta,
                    enzyme_const, x, enzyme_const, npts, enzyme_const, k);
}

void grad_lorenz_shoot(const double *y0, double *dy0, const double *p,
                       double *dp) {
  __enzyme_autodiff((void *)lorenz_shoot, enzyme_dup, y0, dy0, enzyme_dup, p,
                    dp);
}

void grad_grid_energy(const double *u, double *du) {
  __enzyme_autodiff((void *)energy_of_grid, enzyme_dup, u, du);
}

double dir_deriv_libm_mix(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)libm_mix, enzyme_dup, x, v, enzyme_const, n);
}
#endif

/* ------------------------------------------------------------------------ */
/* Driver: exercises everything and prints a checksum                        */
/* ------------------------------------------------------------------------ */

static double grid_u[NY][NX], grid_unew[NY][NX], grid_f[NY][NX];

int main(void) {
  double checksum = 0.0;

  /* Poisson solve by Jacobi iteration. */
  double h = 1.0 / (NX - 1);
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i)
      grid_f[j][i] = sin(M_PI * i * h) * sin(M_PI * j * h);
  int it = 0;
  while (jacobi_sweep(grid_u, grid_unew, grid_f, h) > 1e-6 && it < 2000)
    ++it;
  checksum += grid_u[NY / 2][NX / 2] + it * 1e-6;
  checksum += energy_of_grid(&grid_u[0][0]);

  /* 3-D heat diffusion. */
  size_t cells = (size_t)NX * NY * NZ;
  double *a = calloc(cells, sizeof(double)), *b = calloc(cells, sizeof(double));
  if (!a || !b)
    return 1;
  a[cells / 2 + NX / 2] = 1.0;
  for (int s = 0; s < 20; ++s) {
    heat3d_step(a, b, NX, NY, NZ, 0.1);
    double *t = a; a = b; b = t;
  }
  checksum += sum_kahan(a, cells) + norm2(a, cells);
  free(a);
  free(b);

  /* Linear algebra: SPD system A = M M^T + n I. */
  int n = 8;
  double m[MAXN * MAXN], spd[MAXN * MAXN], lu[MAXN * MAXN], rhs[MAXN], x[MAXN];
  int piv[MAXN];
  for (int i = 0; i < n * n; ++i)
    m[i] = cos(0.37 * i) + 0.01 * i;
  double mt[MAXN * MAXN];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      mt[j * n + i] = m[i * n + j];
  matmul(n, m, mt, spd);
  for (int i = 0; i < n; ++i)
    spd[i * n + i] += n;
  memcpy(lu, spd, sizeof(double) * (size_t)(n * n));
  for (int i = 0; i < n; ++i)
    rhs[i] = x[i] = 1.0 / (1.0 + i);
  if (lu_factor(n, lu, piv) == 0)
    lu_solve(n, lu, piv, x);
  double r[MAXN];
  matvec(n, spd, x, r);
  for (int i = 0; i < n; ++i)
    r[i] -= rhs[i];
  checksum += norm2(x, (size_t)n) + norm2(r, (size_t)n) + spd_logdet(n, spd);

  /* ODEs. */
  double y[3] = {1.0, 1.0, 1.0}, p[3] = {10.0, 28.0, 8.0 / 3.0};
  checksum += lorenz_shoot(y, p);
  double yp[2] = {0.2, 0.0}, pp[3] = {0.1, 0.5, 2.0 / 3.0};
  int steps = rk23_adaptive(pendulum, 2, yp, 0.0, 20.0, 1e-6, 1e-9, pp);
  checksum += yp[0] + yp[1] + steps * 1e-6;

  /* Statistics and objectives. */
  double samples[256], probs[256];
  for (int i = 0; i < 256; ++i)
    samples[i] = sin(0.1 * i) + 0.5 * cos(0.37 * i);
  softmax(samples, probs, 256);
  moments_t mo = moments(samples, 256);
  checksum += probs[7] + mo.mean + mo.var + mo.skew + mo.kurt;
  double theta[6] = {0.0, 0.5, -0.5, 0.5, 0.0, -0.3};
  checksum += gmm1d_nll(theta, samples, 256, 2);
  checksum += rosenbrock(samples, 16) + libm_mix(samples, 32);
  double label[16];
  for (int i = 0; i < 16; ++i)
    label[i] = (i % 3 == 0) ? 1.0 : -1.0;
  checksum += logistic_loss(samples, samples + 16, label, 16, 8, 0.01);

  printf("checksum = %.10g\n", checksum);
  return 0;
}
