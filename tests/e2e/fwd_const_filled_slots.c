/* Local arrays filled by a callee from arguments that are constant in the
 * request (the ADBench hand objective's posed transforms along u, theta
 * constant): such an array holds no derivative, the call runs as the
 * primal, and what is read from the array is a constant of the tangent or
 * adjoint; along theta the same array carries theta's derivatives.  Forward
 * mode at widths 1 and 2 and reverse mode, each argument constant in turn,
 * against central differences and against each other. */
#include "fwd_check.h"
#include <string.h>

void __enzyme_autodiff(void *, ...);
typedef struct {
  double d[2];
} d2;
d2 __enzyme_fwddiff_w2(void *, ...);

enum { NB = 5, NU = 4 };

/* A[12 b + ..]: a rotation by theta's angles and an offset, per bone; a
 * second callee fills the offsets, so the array goes two calls deep. */
__attribute__((noinline)) static void offsets(const double *th, double *A) {
  for (int b = 0; b < NB; ++b)
    for (int i = 0; i < 3; ++i)
      A[12 * b + 4 * i + 3] = th[(b + i) % NB] * (0.5 + 0.1 * i);
}
__attribute__((noinline)) static void pose(const double *th, double *A) {
  for (int b = 0; b < NB; ++b) {
    double c = cos(th[b]), s = sin(th[b]);
    double R[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        A[12 * b + 4 * i + j] = R[3 * i + j] * (1 + 0.05 * b) + 0.01 * i;
  }
  offsets(th, A);
}

/* err[3 k + c]: point k, a mix of two bones' posed vertices weighted by
 * u[k], minus a target. */
__attribute__((noinline)) static void objective(const double *th,
                                                const double *u, double *err) {
  double A[12 * NB];
  pose(th, A);
  static const double x[3] = {0.3, -0.7, 0.45};
  for (int k = 0; k < NU; ++k) {
    const double *A0 = &A[12 * (k % NB)], *A1 = &A[12 * ((k + 2) % NB)];
    for (int c = 0; c < 3; ++c) {
      double p0 = A0[4 * c] * x[0] + A0[4 * c + 1] * x[1] +
                  A0[4 * c + 2] * x[2] + A0[4 * c + 3];
      double p1 = A1[4 * c] * x[0] + A1[4 * c + 1] * x[1] +
                  A1[4 * c + 2] * x[2] + A1[4 * c + 3];
      err[3 * k + c] = u[k] * p0 + (1 - u[k]) * p1 - 0.1 * c;
    }
  }
}

/* The sum of the residuals weighted by row, for reverse mode. */
static double weighted(const double *th, const double *u) {
  double err[3 * NU];
  objective(th, u, err);
  double s = 0;
  for (int r = 0; r < 3 * NU; ++r)
    s += err[r] * (1 + 0.25 * r);
  return s;
}

static double Theta[NB], U[NU];
static int Dir; /* 0..NB-1: theta, NB..: u */
static double along(double t) {
  double th[NB], u[NU];
  memcpy(th, Theta, sizeof th);
  memcpy(u, U, sizeof u);
  if (Dir < NB)
    th[Dir] += t;
  else
    u[Dir - NB] += t;
  return weighted(th, u);
}

static double weigh_rows(const double *e) {
  double s = 0;
  for (int r = 0; r < 3 * NU; ++r)
    s += e[r] * (1 + 0.25 * r);
  return s;
}

int main(void) {
  for (int b = 0; b < NB; ++b)
    Theta[b] = 0.4 * sin(1.3 * b + 0.2);
  for (int k = 0; k < NU; ++k)
    U[k] = 0.2 + 0.15 * k;
  double err[3 * NU], e1[3 * NU], e2[3 * NU];
  double zth[NB] = {0}, zu[NU] = {0};

  /* Reverse: the gradient along u with theta constant, along theta with u
   * constant, and both. */
  double gu[NU] = {0}, gth[NB] = {0}, gth2[NB] = {0}, gu2[NU] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_const, Theta, enzyme_dup, U, gu);
  __enzyme_autodiff((void *)weighted, enzyme_dup, Theta, gth, enzyme_const, U);
  __enzyme_autodiff((void *)weighted, enzyme_dup, Theta, gth2, enzyme_dup, U,
                    gu2);
  for (Dir = 0; Dir < NB + NU; ++Dir) {
    double fd = fd_central(along, 0);
    double g = Dir < NB ? gth[Dir] : gu[Dir - NB];
    double g2 = Dir < NB ? gth2[Dir] : gu2[Dir - NB];
    CHECK_CLOSE(g, fd, FWD_TOL_FD);
    CHECK_CLOSE(g2, g, 1e-12);
  }

  /* Forward, one direction per call: u's with theta constant, theta's with
   * u constant, both duplicated; then two directions per call. */
  for (Dir = 0; Dir < NB + NU; ++Dir) {
    double dth[NB] = {0}, du[NU] = {0};
    double fd = fd_central(along, 0);
    if (Dir < NB) {
      dth[Dir] = 1;
      __enzyme_fwddiff((void *)objective, enzyme_dup, Theta, dth,
                       enzyme_const, U, enzyme_dupnoneed, err, e1);
    } else {
      du[Dir - NB] = 1;
      __enzyme_fwddiff((void *)objective, enzyme_const, Theta, enzyme_dup, U,
                       du, enzyme_dupnoneed, err, e1);
    }
    __enzyme_fwddiff((void *)objective, enzyme_dup, Theta, dth, enzyme_dup, U,
                     du, enzyme_dupnoneed, err, e2);
    CHECK_CLOSE(weigh_rows(e1), fd, FWD_TOL_FD);
    for (int r = 0; r < 3 * NU; ++r)
      CHECK_CLOSE(e1[r], e2[r], 1e-12);
  }
  for (int k = 0; k + 1 < NU; ++k) {
    double du[2][NU] = {{0}}, w[2][3 * NU], one[3 * NU];
    du[0][k] = 1, du[1][k + 1] = 1;
    __enzyme_fwddiff_w2((void *)objective, enzyme_width, 2, enzyme_const,
                        Theta, enzyme_dup, U, du[0], du[1], enzyme_dupnoneed,
                        err, w[0], w[1]);
    for (int l = 0; l < 2; ++l) {
      __enzyme_fwddiff((void *)objective, enzyme_dup, Theta, zth, enzyme_dup,
                       U, du[l], enzyme_dupnoneed, err, one);
      for (int r = 0; r < 3 * NU; ++r)
        CHECK_CLOSE(w[l][r], one[r], 1e-12);
    }
  }
  for (int b = 0; b + 1 < NB; ++b) {
    double dth[2][NB] = {{0}}, w[2][3 * NU], one[3 * NU];
    dth[0][b] = 1, dth[1][b + 1] = 1;
    __enzyme_fwddiff_w2((void *)objective, enzyme_width, 2, enzyme_dup, Theta,
                        dth[0], dth[1], enzyme_const, U, enzyme_dupnoneed, err,
                        w[0], w[1]);
    for (int l = 0; l < 2; ++l) {
      __enzyme_fwddiff((void *)objective, enzyme_dup, Theta, dth[l],
                       enzyme_dup, U, zu, enzyme_dupnoneed, err, one);
      for (int r = 0; r < 3 * NU; ++r)
        CHECK_CLOSE(w[l][r], one[r], 1e-12);
    }
  }
  /* The primal's residuals are those of the objective. */
  double want[3 * NU];
  objective(Theta, U, want);
  __enzyme_fwddiff((void *)objective, enzyme_const, Theta, enzyme_dup, U, zu,
                   enzyme_dup, err, e1);
  for (int r = 0; r < 3 * NU; ++r) {
    CHECK_CLOSE(err[r], want[r], 0);
    CHECK_CLOSE(e1[r], 0, 0);
  }
  return check_finish();
}
