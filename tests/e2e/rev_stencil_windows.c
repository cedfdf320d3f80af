/* Reverse mode of stencil loops, whose reverse loops add into neighbouring
 * shadow elements (du[i-1], du[i], du[i+1] += ...): offsets -1..1, -2..2,
 * only +-2, a primal loop that walks down (its reverse walks up), a 2-D
 * five-point stencil (rows n apart; on rows of 8, whose reverse rows pull
 * the updates of their neighbours), float, loops of one and two
 * iterations, and pointers that may alias: separate arrays, and in and out
 * overlapping in one buffer (the shadows overlap the same way). From -O1 on
 * adcc gathers those contributions per element (or, where recomputing them
 * would cost, as in costly5, keeps them in registers until their element is
 * complete), behind a check of the address ranges where the arrays may
 * overlap and of the trip count; the last case and the shortest loops take
 * the unchanged loop.
 *
 * Each gradient: against central differences of J(x) = <c, u> + <e, w> after
 * the kernel ran on x, and along a random direction against forward mode.
 * (An in-place update, whose reverse loop reads the elements it adds
 * around, is checked too: that loop is left as it is.)
 * With --hex the program prints every gradient bit for bit (a lit test
 * compares those with and without the transformation). */
#include "rev_check.h"

#include <stdlib.h>
#include <string.h>

#define MAXN 80

typedef void (*kernel_fn)(const double *x, double *u, double *w, int n);

/* Two half-steps of a nonlinear three-point update, u -> w -> u. */
static void smooth3(const double *restrict x, double *restrict u,
                    double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 1; i < n - 1; i++)
    w[i] = u[i] + 0.3 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i];
  for (int i = 1; i < n - 1; i++)
    u[i] = w[i] + 0.2 * (w[i - 1] - 2 * w[i] + w[i + 1]) + 0.05 * sin(w[i]);
}

/* smooth3 (without the sine) over two steps, with an update of w's middle
 * element between the half steps: the reverse loops of a loop alone store
 * over adjoints known zero too (ZeroedRegions.cpp), except where the store
 * between them wrote (checked before the loop). */
static void smooth3_steps(const double *restrict x, double *restrict u,
                          double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int s = 0; s < 2; s++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + 0.3 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i];
    w[n / 2] += 0.25 * u[n / 2] * u[n / 2];
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i] + 0.2 * (w[i - 1] - 2 * w[i] + w[i + 1]) - 0.05 * w[i] * w[i];
  }
}

/* Five points, -2..2. */
static void wide5(const double *restrict x, double *restrict u,
                  double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 2; i < n - 2; i++)
    w[i] = 0.1 * u[i - 2] - 0.4 * u[i - 1] + u[i] * u[i] + 0.3 * u[i + 1] +
           0.2 * u[i + 2] * u[i - 2];
  for (int i = 2; i < n - 2; i++)
    u[i] = w[i - 2] * 0.5 + w[i + 2] * w[i] - 0.25 * w[i + 1];
}

/* Neighbours two apart only: the element between waits too. */
static void gap2(const double *restrict x, double *restrict u,
                 double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 2; i < n - 2; i++)
    w[i] = u[i - 2] * u[i + 2] + 0.5 * u[i + 2];
}

/* The primal loop walks down: its reverse loop walks up. */
static void down3(const double *restrict x, double *restrict u,
                  double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = n - 2; i >= 1; i--)
    w[i] = u[i + 1] * u[i] - 0.7 * u[i - 1] + cos(u[i]);
}

/* In place (Gauss-Seidel): the reverse loop reads and zeroes du[i] between
 * its additions into du[i-1] and du[i+1]; left as it is. */
static void inplace3(const double *restrict x, double *restrict u,
                     double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int s = 0; s < 2; s++)
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1]) + 0.1 * sin(u[i]);
}

/* No restrict: u and w may be one buffer. */
static void maybe_alias(const double *x, double *u, double *w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = x[i];
  for (int i = 1; i < n - 1; i++)
    w[i] = u[i - 1] * 0.5 + u[i] * u[i + 1] - 0.25 * u[i + 1];
}

/* Five-point stencil on an m x m grid (n = m * m), two half-steps. */
static int grid_m(int n) {
  int m = 1;
  while ((m + 1) * (m + 1) <= n)
    m++;
  return m;
}
static void grid5(const double *restrict x, double *restrict u,
                  double *restrict w, int n) {
  int m = grid_m(n);
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      long c = (long)i * m + j;
      double v = u[c];
      w[c] = v + 0.2 * (u[c - m] + u[c + m] + u[c - 1] + u[c + 1] - 4 * v) -
             0.01 * v * v * v;
    }
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      long c = (long)i * m + j;
      double v = w[c];
      u[c] = v + 0.2 * (w[c - m] + w[c + m] + w[c - 1] + w[c + 1] - 4 * v) -
             0.01 * v * v * v;
    }
}

/* grid5 with both loops walking down: the reverse loops walk up, and the
 * updates of the rows above and below come with their iteration. */
static void grid5_down(const double *restrict x, double *restrict u,
                       double *restrict w, int n) {
  int m = grid_m(n);
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = m - 2; i >= 1; i--)
    for (int j = m - 2; j >= 1; j--) {
      long c = (long)i * m + j;
      w[c] = u[c] * (1 + 0.1 * u[c - 1]) + 0.2 * (u[c - m] + u[c + m]) -
             0.3 * u[c + 1];
    }
  for (int i = m - 2; i >= 1; i--)
    for (int j = m - 2; j >= 1; j--) {
      long c = (long)i * m + j;
      u[c] = w[c] - 0.25 * (w[c - m] * w[c + 1] - w[c + m] + w[c - 1]);
    }
}

/* The five-point stencil on n / 8 rows of 8, the pointers free to alias:
 * the reverse loops' rows pull the updates of the rows before and after
 * (GatheredUpdates.cpp's rows) when there are two rows of inner points or
 * more (the first and the last row, and those between, take different
 * forms) and the arrays are apart over the whole grid; else each row runs
 * the gathered loop (one row; w some rows after u, each row's memory apart
 * from the rows beside it) or the unchanged one (w a few elements after
 * u). The reverse loops run only where the rows have inner points: the
 * outer loops test that in every iteration. */
static int grid_cols; /* 8, set at run time (a constant would unroll) */
static void grid5_rows(const double *x, double *u, double *w, int n) {
  const int m = grid_cols, r = n / m;
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 1; i < r - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      long c = (long)i * m + j;
      double v = u[c];
      w[c] = v + 0.2 * (u[c - m] + u[c + m] + u[c - 1] + u[c + 1] - 4 * v) -
             0.01 * v * v * v;
    }
  for (int i = 1; i < r - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      long c = (long)i * m + j;
      double v = w[c];
      u[c] = v + 0.3 * (w[c - m] - w[c + m]) + 0.1 * (w[c - 1] + w[c + 1]) -
             0.02 * v * v;
    }
}

/* One half step of grid5: out = f(in) on the inner points of m x m. */
static inline void half_step(const double *restrict in, double *restrict out,
                             int m, int first_row) {
  for (int i = first_row; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      long c = (long)i * m + j;
      double v = in[c];
      out[c] = v +
               0.2 * (in[c - m] + in[c + m] + in[c - 1] + in[c + 1] - 4 * v) -
               0.01 * v * v * v;
    }
}

/* Known-zero adjoints (ZeroedRegions.cpp). grid5 over three steps: the
 * reverse of u = f(w) zeroes du's inner points, and the reverse of
 * w = f(u) that follows adds into exactly those; dw's inner points are
 * zero only from the second reversed step on (before, they hold the
 * seed), the reverse of w = f(u) in the step after having zeroed them. */
static void grid5_steps(const double *restrict x, double *restrict u,
                        double *restrict w, int n) {
  int m = grid_m(n);
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int s = 0; s < 3; s++) {
    half_step(u, w, m, 1);
    half_step(w, u, m, 1);
  }
}

/* grid5 with an update of one element of w between the half steps: its
 * adjoint adds into du at the grid's center after du was zeroed (a store
 * the check before the reverse of the first half step finds among the
 * elements it would not load), so that loop must load them. */
static void grid5_between(const double *restrict x, double *restrict u,
                          double *restrict w, int n) {
  int m = grid_m(n);
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  long center = (long)(m / 2) * m + m / 2;
  half_step(u, w, m, 1);
  w[center] += 0.5 * u[center] * u[center];
  half_step(w, u, m, 1);
}

/* grid5 whose second half step leaves out the first row of inner points:
 * du's row 1 is not zeroed (it keeps its seed) while the reverse of the
 * first half step adds into it. */
static void grid5_fewer(const double *restrict x, double *restrict u,
                        double *restrict w, int n) {
  int m = grid_m(n);
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  half_step(u, w, m, 1);
  half_step(w, u, m, 2);
}

/* Contributions at offsets -2 and +2 that divide by the same
 * denominator: recomputing them per element would divide twice, so the
 * reverse loop keeps its additions in registers instead of gathering them. */
static void costly5(const double *restrict x, double *restrict u,
                    double *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 2; i < n - 2; i++)
    w[i] = (0.1 * u[i - 2] + 0.3 * u[i + 2]) / (1.0 + u[i] * u[i]);
}

/* smooth3's first half-step in float. */
static void smooth3f(const float *restrict x, float *restrict u,
                     float *restrict w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 1; i < n - 1; i++)
    w[i] = u[i] + 0.3f * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1f * u[i] * u[i];
}
/* The same arithmetic in double, for central differences. */
static void smooth3f_as_double(const double *x, double *u, double *w, int n) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = x[i];
  for (int i = 1; i < n - 1; i++)
    w[i] = x[i] + 0.3 * (x[i - 1] - 2 * x[i] + x[i + 1]) - 0.1 * x[i] * x[i];
}

/* ---- The harness ------------------------------------------------------ */

static int hex_output;
static double cw_u[MAXN], cw_w[MAXN]; /* J's weights */
static kernel_fn cur_kernel;
static int cur_n, cur_overlap; /* overlap: w = u + cur_overlap */

static double J(const double *x) {
  static double buf[3 * MAXN];
  memset(buf, 0, sizeof buf);
  double *u = buf, *w = cur_overlap ? buf + cur_overlap : buf + MAXN;
  cur_kernel(x, u, w, cur_n);
  double s = 0;
  for (int i = 0; i < cur_n; i++)
    s += cw_u[i] * u[i];
  for (int i = 0; i < cur_n; i++)
    s += cw_w[i] * w[i];
  return s;
}

static void print_hex(const char *name, int n, const double *g) {
  printf("%s n=%d:", name, n);
  for (int i = 0; i < n; i++)
    printf(" %a", g[i]);
  printf("\n");
}

/* The seeds: du = c (J's weights on u), dw = e; with overlapping arrays
 * both seed one shadow buffer, as J adds both weights there. */
static void seed(double *sbuf, double *du, double *dw, int n) {
  memset(sbuf, 0, 3 * MAXN * sizeof *sbuf);
  for (int i = 0; i < n; i++)
    du[i] += cw_u[i];
  for (int i = 0; i < n; i++)
    dw[i] += cw_w[i];
}

/* Gradient of J by reverse mode, then the checks. A macro: the kernel must
 * be known where it is differentiated. */
#define CHECK_KERNEL(kernel, n_, overlap_)                                     \
  do {                                                                         \
    double x_[MAXN], dx_[MAXN] = {0}, v_[MAXN], ubuf_[3 * MAXN] = {0},         \
                     sbuf_[3 * MAXN];                                          \
    int n__ = (n_), ov_ = (overlap_);                                          \
    cur_kernel = kernel, cur_n = n__, cur_overlap = ov_;                       \
    for (int i_ = 0; i_ < n__; i_++) {                                         \
      x_[i_] = rev_rand();                                                     \
      cw_u[i_] = rev_rand();                                                   \
      cw_w[i_] = rev_rand();                                                   \
    }                                                                          \
    double *u_ = ubuf_, *w_ = ov_ ? ubuf_ + ov_ : ubuf_ + MAXN;                \
    double *du_ = sbuf_, *dw_ = ov_ ? sbuf_ + ov_ : sbuf_ + MAXN;              \
    seed(sbuf_, du_, dw_, n__);                                                \
    __enzyme_autodiff_void((void *)kernel, enzyme_dup, x_, dx_, enzyme_dup,    \
                           u_, du_, enzyme_dup, w_, dw_, enzyme_const, n__);   \
    if (hex_output) {                                                          \
      print_hex(#kernel, n__, dx_);                                            \
      break;                                                                   \
    }                                                                          \
    CHECK_GRAD(J, x_, n__, dx_, NULL);                                         \
    /* forward mode along v: d/dt J(x + t v) */                                \
    double tx_[MAXN] = {0}, tu_[3 * MAXN] = {0}, pu_[3 * MAXN] = {0};          \
    double *tw_ = ov_ ? tu_ + ov_ : tu_ + MAXN;                                \
    double *pw_ = ov_ ? pu_ + ov_ : pu_ + MAXN;                                \
    double dir_ = rev_dir(dx_, v_, n__);                                       \
    memcpy(tx_, v_, n__ * sizeof(double));                                     \
    __enzyme_fwddiff((void *)kernel, enzyme_dup, x_, tx_, enzyme_dup, pu_,     \
                     tu_, enzyme_dup, pw_, tw_, enzyme_const, n__);            \
    double tangent_ = 0;                                                       \
    for (int i_ = 0; i_ < n__; i_++)                                           \
      tangent_ += cw_u[i_] * tu_[i_] + cw_w[i_] * tw_[i_];                     \
    CHECK_CLOSE(dir_, tangent_, 1e-10);                                        \
    printf("%-12s n=%-3d overlap=%d: d/dx0 = %.12f\n", #kernel, n__, ov_,      \
           dx_[0]);                                                            \
  } while (0)

/* The float kernel's gradient against central differences of the same
 * arithmetic in double (float rounding apart). */
static void check_float(int n) {
  float x[MAXN], dx[MAXN] = {0}, u[MAXN], w[MAXN], du[MAXN] = {0},
                 dw[MAXN] = {0};
  double xd[MAXN];
  for (int i = 0; i < n; i++) {
    xd[i] = rev_rand();
    x[i] = (float)xd[i];
    xd[i] = x[i];
    cw_u[i] = 0;
    cw_w[i] = (float)rev_rand();
    dw[i] = (float)cw_w[i];
  }
  __enzyme_autodiff_void((void *)smooth3f, enzyme_dup, x, dx, enzyme_dup, u, du,
                         enzyme_dup, w, dw, enzyme_const, n);
  if (hex_output) {
    double g[MAXN];
    for (int i = 0; i < n; i++)
      g[i] = dx[i];
    print_hex("smooth3f", n, g);
    return;
  }
  cur_kernel = smooth3f_as_double, cur_n = n, cur_overlap = 0;
  for (int i = 0; i < n; i++) {
    double fd = fd_partial(J, xd, i);
    if (!rev_close(dx[i], fd, 1e-4))
      rev_fail(__FILE__, __LINE__, "smooth3f", i, dx[i], fd);
  }
  printf("smooth3f     n=%-3d: d/dx0 = %.6f\n", n, dx[0]);
}

int main(int argc, char **argv) {
  hex_output = argc > 1 && !strcmp(argv[1], "--hex");
  grid_cols = 8 + (argc > 99);
  static const int sizes[] = {3, 4, 5, 6, 9, 40, 77};
  for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    CHECK_KERNEL(smooth3, n, 0);
    CHECK_KERNEL(smooth3_steps, n, 0);
    CHECK_KERNEL(down3, n, 0);
    CHECK_KERNEL(maybe_alias, n, 0);
    CHECK_KERNEL(inplace3, n, 0);
    if (n >= 5) {
      CHECK_KERNEL(wide5, n, 0);
      CHECK_KERNEL(gap2, n, 0);
      CHECK_KERNEL(costly5, n, 0);
    }
    /* w three elements after u in one buffer: the reverse loop's reads of
     * dw meet the elements it adds into */
    if (n >= 6)
      CHECK_KERNEL(maybe_alias, n, 3);
    check_float(n);
  }
  CHECK_KERNEL(grid5, 9, 0);  /* 3 x 3: one inner point */
  CHECK_KERNEL(grid5, 16, 0); /* 4 x 4 */
  CHECK_KERNEL(grid5, 64, 0); /* 8 x 8 */
  CHECK_KERNEL(grid5_down, 9, 0);
  CHECK_KERNEL(grid5_down, 16, 0);
  CHECK_KERNEL(grid5_down, 25, 0); /* 5 x 5: three inner points a row */
  CHECK_KERNEL(grid5_down, 49, 0);
  CHECK_KERNEL(grid5_steps, 16, 0); /* a first and a last row only */
  CHECK_KERNEL(grid5_steps, 25, 0);
  CHECK_KERNEL(grid5_steps, 64, 0);
  CHECK_KERNEL(grid5_between, 25, 0);
  CHECK_KERNEL(grid5_between, 64, 0);
  CHECK_KERNEL(grid5_fewer, 36, 0);
  CHECK_KERNEL(grid5_fewer, 64, 0);
  CHECK_KERNEL(grid5_rows, 24, 0);  /* one row of inner points */
  CHECK_KERNEL(grid5_rows, 32, 0);  /* two: the first and the last */
  CHECK_KERNEL(grid5_rows, 40, 0);  /* three: one between */
  CHECK_KERNEL(grid5_rows, 72, 0);  /* apart, checked at run time */
  CHECK_KERNEL(grid5_rows, 72, 16); /* w two rows after u */
  CHECK_KERNEL(grid5_rows, 40, 16);
  CHECK_KERNEL(grid5_rows, 72, 8); /* w a row after u */
  CHECK_KERNEL(grid5_rows, 72, 3); /* w three elements after u */
  if (hex_output)
    return 0;
  return check_finish();
}
