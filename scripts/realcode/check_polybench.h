/* The check of polybench.py's drivers: the gradient of an objective of n
 * inputs (reverse mode) and its tangent along a fixed direction (forward
 * mode) against each other and against central differences, along the
 * direction and for a few coordinates (those with the largest gradient
 * entries and some spread over the inputs). Prints one line per failed
 * check and a last line "ok ...", "FAIL ..." or "not differentiable ..."
 * (exit status 77: the differences are not finite); returns the exit
 * status. */
#ifndef ADCC_CHECK_POLYBENCH_H
#define ADCC_CHECK_POLYBENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double (*polybench_objective)(const double *);

static double polybench_difference(polybench_objective f, const double *x,
                                   const double *v, size_t n, double h) {
  double *p = (double *)malloc(n * sizeof *p);
  double *m = (double *)malloc(n * sizeof *m);
  for (size_t i = 0; i < n; ++i) {
    p[i] = x[i] + h * v[i];
    m[i] = x[i] - h * v[i];
  }
  double d = (f(p) - f(m)) / (2 * h);
  free(p);
  free(m);
  return d;
}

static int polybench_close(const char *what, double got, double want,
                           double tol) {
  if (fabs(got - want) <= tol * (1 + fabs(want)) && isfinite(got))
    return 1;
  printf("  %s: %.12g, expected %.12g\n", what, got, want);
  return 0;
}

static int check_polybench(const char *name, polybench_objective f,
                           const double *x, size_t n, int single) {
  double *dx = (double *)calloc(n, sizeof *dx);
  double *v = (double *)malloc(n * sizeof *v);
  double *e = (double *)calloc(n, sizeof *e);
  for (size_t i = 0; i < n; ++i)
    v[i] = cos(1.3 * (double)i + 0.2) * (0.1 + 0.01 * fabs(x[i]));
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double tangent = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  double dot = 0, scale = 0;
  for (size_t i = 0; i < n; ++i) {
    dot += dx[i] * v[i];
    scale += fabs(dx[i] * v[i]);
  }
  /* Differences of a float kernel see its rounding: larger steps, looser. */
  double h = single ? 1e-2 : 1e-6, tol = single ? 2e-2 : 1e-5;
  /* Coordinates: the three largest gradient entries, and four spread. */
  size_t pick[7] = {0, 0, 0, n / 7, n / 3, n / 2, n - 1};
  for (int k = 0; k < 3; ++k)
    for (size_t i = 0; i < n; ++i) {
      int taken = 0;
      for (int j = 0; j < k; ++j)
        taken |= pick[j] == i;
      if (!taken && fabs(dx[i]) > fabs(dx[pick[k]]))
        pick[k] = i;
    }
  double along = polybench_difference(f, x, v, n, h), fd[7];
  int finite = isfinite(along) && isfinite(f(x));
  for (int k = 0; k < 7; ++k) {
    e[pick[k]] = 1;
    fd[k] = polybench_difference(f, x, e, n, h);
    e[pick[k]] = 0;
    finite &= isfinite(fd[k]);
  }
  /* A kernel singular at its benchmark's inputs (gramschmidt: more columns
   * than rows, so the last ones have norms made of rounding errors) has no
   * derivative to check: reported as such, not as passed. */
  if (!finite) {
    printf("not differentiable %s: the objective or its differences are not "
           "finite here\n",
           name);
    free(dx);
    free(v);
    free(e);
    return 77;
  }
  int ok = 1;
  /* (Forward and reverse sum in other orders: in float, 1e-4 apart.) */
  ok &= polybench_close("tangent against the gradient", tangent, dot,
                        (single ? 1e-4 : 1e-9) *
                            (1 + scale / (1 + fabs(dot))));
  ok &= polybench_close("tangent against differences", tangent, along,
                        tol * (1 + scale / (1 + fabs(tangent))));
  for (int k = 0; k < 7; ++k) {
    char what[64];
    snprintf(what, sizeof what, "gradient entry %zu", pick[k]);
    ok &= polybench_close(what, dx[pick[k]], fd[k], tol);
  }
  printf("%s %s (%zu inputs, tangent %.6g)\n", ok ? "ok" : "FAIL", name, n,
         tangent);
  free(dx);
  free(v);
  free(e);
  return ok ? 0 : 1;
}

#endif
