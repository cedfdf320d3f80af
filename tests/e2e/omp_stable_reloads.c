/* An OpenMP region that reads the forking function's arrays through its
 * captured pointers (the GMM objective's triangular loop): where nothing
 * writes them between the sweeps, the reverse region reads them again
 * instead of recording them (reverse/StableMemory.cpp). Checked at 1, 2
 * and 4 threads against central differences and forward mode: with the
 * parameters read only (reloaded); written by the forking function after
 * the region through another pointer that points into them (recorded: a
 * reload would read the new values); and with the region itself writing
 * into the array through another argument (recorded). */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* (Not inlined into main: a fork of the region there, whose slots hold
 * main's arrays, would keep every fork's reverse from reading again.) */
#define NOINLINE __attribute__((noinline))

enum { D = 6, ICF = D * (D + 1) / 2, K = 2, NP = 7, P = K * ICF + 1 };

/* |Q x_i|^2 with Q from icf (GMM's factor of one component). */
static double point_term(const double *icf, const double *xi) {
  double qxc[D];
  const double *l = icf + D;
  for (int j = 0; j < D; j++)
    qxc[j] = icf[j] * xi[j];
  int li = 0;
  for (int c = 0; c < D; c++)
    for (int r = c + 1; r < D; r++)
      qxc[r] += l[li++] * xi[c];
  double sq = 0;
  for (int j = 0; j < D; j++)
    sq += qxc[j] * qxc[j];
  return sq;
}

/* The parameters only read. */
NOINLINE double read_only(const double *icf, const double *x, double *scratch) {
  double s = 0;
  (void)scratch;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < NP; i++)
    s += point_term(icf + (i % K) * ICF, x + i * D);
  return s;
}

/* After the region, a write through `scratch` (here icf + ICF: the second
 * half of the same array, which the region reads too). */
NOINLINE double written_after(const double *icf, const double *x, double *scratch) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < NP; i++)
    s += point_term(icf + (i % K) * ICF, x + i * D);
  scratch[0] = 2 * scratch[0];
  return s;
}

/* The region writes through `scratch` (into the array it reads). */
NOINLINE double written_inside(const double *icf, const double *x, double *scratch) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < NP; i++) {
    s += point_term(icf + (i % K) * ICF, x + i * D);
    if (i == 0)
      scratch[ICF] = 3 * scratch[ICF];
  }
  return s;
}

typedef double (*objective)(const double *, const double *, double *);

static void check(objective f, const char *name) {
  double w[P], x[NP * D];
  for (int k = 0; k < P; k++)
    w[k] = 0.1 * sin(1.0 + k);
  for (int k = 0; k < NP * D; k++)
    x[k] = cos(0.5 * k);
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double base[P], dw[P], v[P], dv[P];
    for (int k = 0; k < P; k++) {
      base[k] = w[k];
      dw[k] = 0;
      v[k] = cos(2.0 + k);
    }
    double wk[P];
    for (int k = 0; k < P; k++)
      wk[k] = base[k];
    /* scratch: the second half of the parameters' array */
    __enzyme_autodiff((void *)f, enzyme_dup, wk, dw, enzyme_const, x,
                      enzyme_dup, wk + ICF, dw + ICF);
    double dot = 0;
    for (int k = 0; k < P; k++) {
      double wp[P], wm[P], h = 1e-6;
      for (int j = 0; j < P; j++)
        wp[j] = wm[j] = base[j];
      wp[k] += h;
      wm[k] -= h;
      double fd = (f(wp, x, wp + ICF) - f(wm, x, wm + ICF)) / (2 * h);
      CHECK_CLOSE(dw[k], fd, 1e-6);
      dot += dw[k] * v[k];
    }
    for (int k = 0; k < P; k++) {
      wk[k] = base[k];
      dv[k] = v[k];
    }
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, wk, dv, enzyme_const,
                                  x, enzyme_dup, wk + ICF, dv + ICF);
    CHECK_CLOSE(tan, dot, 1e-9);
    (void)name;
  }
}

int main(void) {
  check(read_only, "read_only");
  check(written_after, "written_after");
  check(written_inside, "written_inside");
  return check_finish();
}
