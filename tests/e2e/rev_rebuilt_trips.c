/* Reverse mode of loops whose trip count changes with an outer loop but
 * follows from its iteration (from -O1 on the reverse sweep rebuilds those
 * counts instead of recording them): the upper triangle `r = c + 1 .. n`
 * (GMM's Q (x - mu)), the lower triangle `j = 0 .. i` (forward
 * substitution with a Cholesky factor), a count of 2c + 1, a count falling
 * with two outer loops (k - j), an inner loop counting down, and for
 * contrast counts the reverse sweep cannot rebuild (read from memory, or a
 * loop with an early exit). The size comes from a global set before each
 * call: 1 (inner loops that never run), 2, 5 and 9.
 *
 * Each gradient: against central differences and, along a random
 * direction, against forward mode (dot-product test). */
#include "rev_check.h"

#define MAXN 9

static int dim = MAXN;
static int counts[MAXN] = {3, 0, 4, 1, 2, 5, 0, 1, 2};

/* sum over c of (sum_{r > c} l_rc x_r x_c)^2, l packed column by column
 * after the diagonal, as GMM stores the factor; li runs on across
 * columns. */
static double upper(const double *x) {
  int n = dim, li = 0;
  double s = 0;
  for (int c = 0; c < n; c++) {
    double t = exp(0.1 * x[c]);
    for (int r = c + 1; r < n; r++)
      t += (0.5 + 0.1 * li++) * x[r] * x[c];
    s += t * t;
  }
  return s;
}

/* Solves L y = x (L lower triangular, L_ij = 1 + 0.1 (i + j) x_j^2 off the
 * diagonal) and returns sum y_i sin(y_i). */
static double forward_subst(const double *x) {
  int n = dim;
  double y[MAXN];
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int j = 0; j < i; j++)
      s -= (1 + 0.1 * (i + j) * x[j] * x[j]) * y[j];
    y[i] = s / (2 + x[i] * x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * sin(y[i]);
  return r;
}

/* 2c + 1 iterations: every other element, around c. */
static double odd_counts(const double *x) {
  int n = dim;
  double s = 0;
  for (int c = 0; c < n; c++) {
    double p = x[c];
    for (int k = 0; k < 2 * c + 1; k++)
      p = p * 0.9 + x[(c + k) % n] * cos(p);
    s += p;
  }
  return s;
}

/* Three loops; the innermost runs k - j times. */
static double three_deep(const double *x) {
  int n = dim;
  double s = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < k; j++) {
      double p = x[j];
      for (int i = j; i < k; i++)
        p = p * x[i] + 0.25 * x[k];
      s += tanh(p);
    }
  return s;
}

/* The inner loop counts down from c to 0 (c + 1 iterations). */
static double counting_down(const double *x) {
  int n = dim;
  double s = 0;
  for (int c = 0; c < n; c++) {
    double p = 1;
    for (int r = c; r >= 0; r--)
      p = p * 0.5 + x[r] * x[c];
    s += p * p;
  }
  return s;
}

/* Counts read from memory and an early exit: recorded as before. */
static double recorded(const double *x) {
  int n = dim;
  double s = 0;
  for (int c = 0; c < n; c++) {
    for (int k = 0; k < counts[c]; k++)
      s += x[c] * x[(c + k) % n];
    for (int r = c; r < n; r++) {
      if (x[r] > 0.9)
        break;
      s += sin(x[r]) * x[c];
    }
  }
  return s;
}

#define check_one(f)                                                           \
  do {                                                                         \
    double x[MAXN], g[MAXN] = {0}, v[MAXN];                                    \
    for (int i = 0; i < dim; ++i)                                              \
      x[i] = 0.2 + 0.6 * rev_rand();                                           \
    __enzyme_autodiff((void *)f, x, g);                                        \
    printf("%-14s n=%d d/dx0 = %.12g\n", #f, dim, g[0]);                       \
    CHECK_GRAD(f, x, dim, g, NULL);                                            \
    rev_dir(g, v, dim);                                                        \
    CHECK_DOT(g, v, dim, __enzyme_fwddiff((void *)f, x, v));                   \
  } while (0)

int main(void) {
  static const int sizes[] = {1, 2, 5, MAXN};
  for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    dim = sizes[s];
    check_one(upper);
    check_one(forward_subst);
    check_one(odd_counts);
    check_one(three_deep);
    check_one(counting_down);
    check_one(recorded);
  }
  return check_finish();
}
