/* Derivatives through OSQP (github.com/osqp/osqp, the ADMM solver of
 * convex quadratic programs, version 1.0 with its builtin algebra and QDLDL
 * as the linear system solver), its sources compiled unchanged, each on its
 * own, the derivatives of their functions made at link time. What the
 * derivatives go through: osqp_setup (settings copied, the problem's
 * matrices copied into the solver's own CSC matrices, Ruiz equilibration
 * with square roots of column norms clamped to a range, the rho vector
 * chosen by comparing l and u, the KKT matrix assembled, ordered by AMD
 * (integers only) and permuted, QDLDL's factorization), the linear system
 * solver reached through the function pointers of its struct, osqp_solve's
 * ADMM iterations (x and z swapped through pointers each iteration,
 * projections onto the box [l, u] by min and max, the relaxation), the
 * solution unscaled, the objective computed, timers, printing and the
 * interrupt handler compiled in as OSQP's CMake build has them.
 *
 * min 1/2 x'Px + q'x subject to l <= Ax <= u, n variables, A = [I; 1'] (a
 * box on each variable, some of them active, and one equality), P sparse
 * and positive definite (its upper triangle in CSC form). The derivative
 * is taken of f(q, Px) = obj_val + w.x after a fixed number of ADMM
 * iterations (adaptive rho and the termination checks off through the
 * settings, polishing off):
 *  1. reverse mode against central differences and forward mode, with and
 *     without scaling, after 25 iterations;
 *  2. after 2000 iterations (converged to the precision of the doubles),
 *     with w = 0: the gradient of the optimal value, x* for q, x*_i x*_j
 *     for an upper off-diagonal value of P and x*_i^2 / 2 for a diagonal
 *     one (the envelope theorem).
 * Run by osqp.sh. */
#include "osqp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 5, M = N + 1, PNZ_MAX = N * (N + 1) / 2, ANZ = 2 * N };

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* What stays constant: P's pattern, A, l, u, the weights, the settings. */
struct qp {
  OSQPInt Pp[N + 1], Pi[PNZ_MAX], pnz;
  int Pcol[PNZ_MAX];
  OSQPInt Ap[N + 1], Ai[ANZ];
  OSQPFloat Ax[ANZ], l[M], u[M];
  double w[N];
  OSQPSettings settings;
};

/* obj_val + w.x after the solve; NaN where OSQP fails. */
static double qp_value(const OSQPFloat *q, const OSQPFloat *Px,
                       const struct qp *pb) {
  OSQPCscMatrix P, A;
  OSQPCscMatrix_set_data(&P, N, N, pb->pnz, (OSQPFloat *)Px,
                         (OSQPInt *)pb->Pi, (OSQPInt *)pb->Pp);
  OSQPCscMatrix_set_data(&A, M, N, ANZ, (OSQPFloat *)pb->Ax,
                         (OSQPInt *)pb->Ai, (OSQPInt *)pb->Ap);
  OSQPSolver *solver = NULL;
  double out = NAN;
  if (osqp_setup(&solver, &P, q, &A, pb->l, pb->u, M, N, &pb->settings) ==
          0 &&
      osqp_solve(solver) == 0) {
    out = solver->info->obj_val;
    for (int i = 0; i < N; ++i)
      out += pb->w[i] * solver->solution->x[i];
  }
  osqp_cleanup(solver);
  return out;
}

/* The solution itself (outside the derivatives, for the analytic check). */
static void qp_solution(const OSQPFloat *q, const OSQPFloat *Px,
                        const struct qp *pb, double *x) {
  OSQPCscMatrix P, A;
  OSQPCscMatrix_set_data(&P, N, N, pb->pnz, (OSQPFloat *)Px,
                         (OSQPInt *)pb->Pi, (OSQPInt *)pb->Pp);
  OSQPCscMatrix_set_data(&A, M, N, ANZ, (OSQPFloat *)pb->Ax,
                         (OSQPInt *)pb->Ai, (OSQPInt *)pb->Ap);
  OSQPSolver *solver = NULL;
  int ok = osqp_setup(&solver, &P, q, &A, pb->l, pb->u, M, N,
                      &pb->settings) == 0 &&
           osqp_solve(solver) == 0;
  for (int i = 0; i < N; ++i)
    x[i] = ok ? solver->solution->x[i] : NAN;
  osqp_cleanup(solver);
}

static void make_qp(struct qp *pb, OSQPFloat *q, OSQPFloat *Px, int scaling,
                    int iterations, int weighted) {
  /* P: tridiagonal plus one far entry, diagonally dominant. */
  double dense[N][N] = {{0}};
  for (int i = 0; i < N; ++i) {
    dense[i][i] = 2.0 + 0.3 * i;
    if (i + 1 < N)
      dense[i][i + 1] = dense[i + 1][i] = 0.4 - 0.15 * i;
  }
  dense[0][N - 1] = dense[N - 1][0] = 0.25;
  OSQPInt k = 0;
  for (int j = 0; j < N; ++j) {
    pb->Pp[j] = k;
    for (int i = 0; i <= j; ++i)
      if (dense[i][j] != 0) {
        pb->Pi[k] = i;
        pb->Pcol[k] = j;
        Px[k] = dense[i][j];
        ++k;
      }
  }
  pb->Pp[N] = k;
  pb->pnz = k;
  /* A = [I; 1'], column by column: row j, then the last row. */
  for (int j = 0; j < N; ++j) {
    pb->Ap[j] = 2 * j;
    pb->Ai[2 * j] = j;
    pb->Ax[2 * j] = 1;
    pb->Ai[2 * j + 1] = N;
    pb->Ax[2 * j + 1] = 1;
  }
  pb->Ap[N] = ANZ;
  static const double qs[N] = {1.3, -2.1, 0.4, 1.7, -0.6};
  static const double lo[N] = {-0.5, -0.4, -1.0, -0.3, -1.0};
  static const double hi[N] = {0.6, 0.5, 1.0, 1.0, 0.2};
  for (int i = 0; i < N; ++i) {
    q[i] = qs[i];
    pb->l[i] = lo[i];
    pb->u[i] = hi[i];
    pb->w[i] = weighted ? 0.3 * (i + 1) - 0.7 : 0;
  }
  pb->l[N] = pb->u[N] = 0.25; /* sum x = 0.25 */
  osqp_set_default_settings(&pb->settings);
  pb->settings.verbose = 0;
  pb->settings.scaling = scaling;
  pb->settings.polishing = 0;
  pb->settings.adaptive_rho = OSQP_ADAPTIVE_RHO_UPDATE_DISABLED;
  pb->settings.check_termination = 0;
  pb->settings.max_iter = iterations;
  /* (Never checked: the termination checks are off.) */
  pb->settings.eps_abs = 1e-12;
  pb->settings.eps_rel = 0;
}

typedef double (*objective)(const OSQPFloat *, const OSQPFloat *,
                            const struct qp *);

static double central(const struct qp *pb, const OSQPFloat *q,
                      const OSQPFloat *Px, int j) {
  OSQPFloat q1[N], q2[N], P1[PNZ_MAX], P2[PNZ_MAX];
  memcpy(q1, q, sizeof q1);
  memcpy(q2, q, sizeof q2);
  memcpy(P1, Px, sizeof(OSQPFloat) * pb->pnz);
  memcpy(P2, Px, sizeof(OSQPFloat) * pb->pnz);
  OSQPFloat *v1 = j < N ? q1 : P1, *v2 = j < N ? q2 : P2;
  int at = j < N ? j : j - N;
  double h = 1e-6 * (1 + fabs(v1[at]));
  v1[at] += h;
  v2[at] -= h;
  return (qp_value(q1, P1, pb) - qp_value(q2, P2, pb)) / (2 * h);
}

static void run(const char *name, int scaling, int iterations, int weighted,
                int analytic) {
  struct qp pb;
  OSQPFloat q[N], Px[PNZ_MAX];
  make_qp(&pb, q, Px, scaling, iterations, weighted);
  int nin = N + (int)pb.pnz;
  OSQPFloat gq[N] = {0}, gP[PNZ_MAX] = {0};
  __enzyme_autodiff((void *)qp_value, enzyme_dup, q, gq, enzyme_dup, Px, gP,
                    enzyme_const, &pb);
  double x[N];
  if (analytic)
    qp_solution(q, Px, &pb, x);
  char what[128];
  for (int j = 0; j < nin; ++j) {
    double g = j < N ? gq[j] : gP[j - N];
    snprintf(what, sizeof what, "%s reverse vs differences", name);
    check(what, j, g, central(&pb, q, Px, j), 1e-6);
    OSQPFloat dq[N] = {0}, dP[PNZ_MAX] = {0};
    if (j < N)
      dq[j] = 1;
    else
      dP[j - N] = 1;
    double t = __enzyme_fwddiff((void *)qp_value, enzyme_dup, q, dq,
                                enzyme_dup, Px, dP, enzyme_const, &pb);
    snprintf(what, sizeof what, "%s forward vs reverse", name);
    check(what, j, t, g, 1e-10);
    if (analytic) {
      double want;
      if (j < N) {
        want = x[j];
      } else {
        int r = (int)pb.Pi[j - N], c = pb.Pcol[j - N];
        want = r == c ? 0.5 * x[r] * x[r] : x[r] * x[c];
      }
      snprintf(what, sizeof what, "%s reverse vs envelope theorem", name);
      check(what, j, g, want, 1e-8);
    }
  }
  printf("%s: %d inputs, f = %.12g\n", name, nin, qp_value(q, Px, &pb));
}

int main(void) {
  run("25 iterations, scaled", 10, 25, 1, 0);
  run("25 iterations, unscaled", 0, 25, 1, 0);
  run("converged, scaled", 10, 2000, 0, 1);
  run("converged, unscaled", 0, 2000, 0, 1);
  printf("osqp: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
