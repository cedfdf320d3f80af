/* ba.c: ADBench bundle adjustment (BA) objective and its sparse Jacobian.
 *
 * The problem (shared/data/adbench/README.md, section 2): n cameras of 11
 * parameters (angle-axis rotation r, centre C, focal length f, principal
 * point u0 v0, radial distortion k1 k2), m 3-D points, p observations with a
 * weight each.  Observation i links camera i mod n and point i mod m; its
 * reprojection error is 2 residuals, and its weight error 1 - w_i^2 is one
 * more.  The files store one camera, point, weight and feature, replicated.
 *
 * Measured (medians of --samples samples of at least --min-time seconds):
 *   objective  all 3p residuals;
 *   jacobian   the CSR Jacobian (3p x (11n + 3m + p)) by reverse mode: per
 *              observation one batched __enzyme_autodiff call (enzyme_width
 *              2, output adjoints (1, 0) and (0, 1)) gives the dense 2x15
 *              block, one more the weight row;
 *   forward    the same Jacobian by forward mode: 15 __enzyme_fwddiff calls
 *              (unit tangents) per observation, one for the weight row;
 *              reported per direction (15 directions);
 *   hand       a hand-written Jacobian (Rodrigues and distortion derivatives
 *              derived by hand), the speed reference.
 * Every Jacobian is verified before anything is timed: reverse vs hand,
 * forward vs reverse, reverse vs central differences on a few observations,
 * and, with --expect-jac, the CSR values vs an upstream reference.
 *
 * Build: build/bin/adcc -O2 ba.c -lm   (or clang -O2 with Enzyme's plugin)
 * Usage: ba --data ../shared/data/adbench/ba/ba1_n49_m7776_p31843.txt
 *           [--samples N] [--min-time S] [--json FILE] [--verify-only]
 *           [--name LABEL] [--expect SUMSQ] [--expect-jac FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "adbench_jac.h"

/* ---- The Enzyme-compatible API ----------------------------------------- */

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width,
    enzyme_dupv;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

/* ---- The objective ------------------------------------------------------ */

#define NOINLINE __attribute__((noinline))

enum { NCAM = 11, NBLK = 15 }; /* camera parameters; 11 + 3 + 1 columns */

/* Rotates a by the angle-axis vector r (Rodrigues' formula). */
static void rodrigues(const double *r, const double *a, double *out) {
  double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double rxa[3] = {r[1] * a[2] - r[2] * a[1], r[2] * a[0] - r[0] * a[2],
                   r[0] * a[1] - r[1] * a[0]};
  if (t2 != 0) {
    double t = sqrt(t2), c = cos(t), s = sin(t);
    double k[3] = {r[0] / t, r[1] / t, r[2] / t};
    double kxa[3] = {rxa[0] / t, rxa[1] / t, rxa[2] / t};
    double ka = k[0] * a[0] + k[1] * a[1] + k[2] * a[2];
    for (int j = 0; j < 3; j++)
      out[j] = a[j] * c + kxa[j] * s + k[j] * ka * (1 - c);
  } else {
    for (int j = 0; j < 3; j++)
      out[j] = a[j] + rxa[j];
  }
}

/* The reprojection error of one observation: err[0..1]. */
NOINLINE void ba_project(const double *cam, const double *X, const double *w,
                         const double *feat, double *err) {
  double a[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]}, xc[3];
  rodrigues(cam, a, xc);
  double px = xc[0] / xc[2], py = xc[1] / xc[2];
  double s = px * px + py * py;
  double L = 1 + cam[9] * s + cam[10] * s * s;
  err[0] = *w * (cam[6] * L * px + cam[7] - feat[0]);
  err[1] = *w * (cam[6] * L * py + cam[8] - feat[1]);
}

/* The weight error of one observation. */
NOINLINE void ba_weight(const double *w, double *err) { *err = 1 - *w * *w; }

typedef struct {
  int n, m, p;
  double *cams, *X, *w, *feats; /* 11n, 3m, p, 2p                         */
  int *obs;                     /* 2p: camera, point of observation i     */
  double *reproj, *werr;        /* 2p, p residuals                        */
  long nnz;                     /* 31p                                    */
  int nrows, ncols, *rows, *cols;
  double *J; /* CSR values (every Jacobian variant writes them)   */
} ba_t;

static NOINLINE double ba_objective(void *ctx) {
  ba_t *b = ctx;
  for (int i = 0; i < b->p; i++)
    ba_project(&b->cams[NCAM * b->obs[2 * i]], &b->X[3 * b->obs[2 * i + 1]],
               &b->w[i], &b->feats[2 * i], &b->reproj[2 * i]);
  for (int i = 0; i < b->p; i++)
    ba_weight(&b->w[i], &b->werr[i]);
  return b->reproj[0];
}

/* ---- Jacobians ------------------------------------------------------------
 */

/* Values of reprojection row 2i start at 30i (15 per row); weight row i is
 * value 30p + i. */
static double *block_row(double *J, int i, int c) {
  return J + 30L * i + 15 * c;
}

/* Reverse mode: both output rows in one batched sweep (enzyme_width 2:
 * lane c is seeded with e_c; the shadows of lane c are row c's 15 values,
 * which lie 15 doubles after row c-1's: enzyme_dupv with that stride). */
static void ba_block_reverse(const ba_t *b, int i, double *row0, double *row1,
                             double *wrow) {
  const double *cam = &b->cams[NCAM * b->obs[2 * i]];
  const double *X = &b->X[3 * b->obs[2 * i + 1]];
  double g[2][NBLK] = {{0}}, err[2], derr[2][2] = {{1, 0}, {0, 1}};
  __enzyme_autodiff((void *)ba_project, enzyme_width, 2, enzyme_dupv,
                    sizeof g[0], cam, g[0], enzyme_dupv, sizeof g[0], X,
                    g[0] + NCAM, enzyme_dupv, sizeof g[0], &b->w[i],
                    g[0] + NCAM + 3, enzyme_const, &b->feats[2 * i],
                    enzyme_dupv, sizeof derr[0], err, derr[0]);
  memcpy(row0, g[0], sizeof g[0]);
  memcpy(row1, g[1], sizeof g[1]);
  double dw = 0, e, de = 1;
  __enzyme_autodiff((void *)ba_weight, enzyme_dup, &b->w[i], &dw,
                    enzyme_dupnoneed, &e, &de);
  *wrow = dw;
}

static NOINLINE double ba_jacobian_reverse(void *ctx) {
  ba_t *b = ctx;
  for (int i = 0; i < b->p; i++)
    ba_block_reverse(b, i, block_row(b->J, i, 0), block_row(b->J, i, 1),
                     &b->J[30L * b->p + i]);
  return b->J[0];
}

/* Forward mode: one call per unit tangent of the 15 block inputs. */
static void ba_block_forward(const ba_t *b, int i, double *row0, double *row1,
                             double *wrow) {
  const double *cam = &b->cams[NCAM * b->obs[2 * i]];
  const double *X = &b->X[3 * b->obs[2 * i + 1]];
  double t[NBLK] = {0};
  for (int j = 0; j < NBLK; j++) {
    double err[2], derr[2] = {0, 0};
    t[j] = 1;
    __enzyme_fwddiff((void *)ba_project, enzyme_dup, cam, t, enzyme_dup, X,
                     t + NCAM, enzyme_dup, &b->w[i], t + NCAM + 3, enzyme_const,
                     &b->feats[2 * i], enzyme_dupnoneed, err, derr);
    t[j] = 0;
    row0[j] = derr[0];
    row1[j] = derr[1];
  }
  double e, de = 0, one = 1;
  __enzyme_fwddiff((void *)ba_weight, enzyme_dup, &b->w[i], &one,
                   enzyme_dupnoneed, &e, &de);
  *wrow = de;
}

static NOINLINE double ba_jacobian_forward(void *ctx) {
  ba_t *b = ctx;
  for (int i = 0; i < b->p; i++)
    ba_block_forward(b, i, block_row(b->J, i, 0), block_row(b->J, i, 1),
                     &b->J[30L * b->p + i]);
  return b->J[0];
}

/* Hand-written: the 2x15 block of one observation (row-major, J[c][k]).
 * With a = X - C, theta = |r|, Rodrigues reads
 *   xc = alpha a + beta (r x a) + gamma (r.a) r,
 *   alpha = cos theta, beta = sin theta / theta, gamma = (1 - cos) / theta^2,
 * so d xc/d a = alpha I + beta [r]x + gamma r r^T and
 *   d xc/d r_j = a alpha'_j + (r x a) beta'_j + (r.a) r gamma'_j
 *                + beta (e_j x a) + gamma (a_j r + (r.a) e_j),
 * with alpha' = -sin r/theta, beta' = (theta cos - sin)/theta^3 r,
 * gamma' = (theta sin - 2 (1 - cos))/theta^4 r.  At theta = 0: xc = a + r x a.
 * Then p = xc[0..1] / xc[2], proj = f L(s) p + (u0, v0), s = |p|^2,
 * L = 1 + k1 s + k2 s^2, and err = w (proj - feat). */
static void ba_block_hand(const double *cam, const double *X, double w,
                          const double *feat, double J[2][NBLK]) {
  const double *r = cam;
  double a[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]};
  double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double ra = r[0] * a[0] + r[1] * a[1] + r[2] * a[2];
  double rxa[3] = {r[1] * a[2] - r[2] * a[1], r[2] * a[0] - r[0] * a[2],
                   r[0] * a[1] - r[1] * a[0]};
  double al = 1, be = 1, ga = 0, dal = 0, dbe = 0, dga = 0;
  if (t2 != 0) {
    double t = sqrt(t2), c = cos(t), s = sin(t);
    al = c;
    be = s / t;
    ga = (1 - c) / t2;
    dal = -s / t;                            /* alpha' = dal r */
    dbe = (t * c - s) / (t2 * t);            /* beta'  = dbe r */
    dga = (t * s - 2 * (1 - c)) / (t2 * t2); /* gamma' = dga r */
  }
  double xc[3], dxa[3][3], dxr[3][3]; /* d xc_i / d a_j, d xc_i / d r_j */
  for (int i = 0; i < 3; i++)
    xc[i] = al * a[i] + be * rxa[i] + ga * ra * r[i];
  /* [r]x: row i of r x (.) */
  double rx[3][3] = {{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
  double ax[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      dxa[i][j] = al * (i == j) + be * rx[i][j] + ga * r[i] * r[j];
      /* e_j x a = -(a x e_j) = -[a]x e_j */
      dxr[i][j] = (a[i] * dal + rxa[i] * dbe + ra * r[i] * dga) * r[j] -
                  be * ax[i][j] + ga * (a[j] * r[i] + ra * (i == j));
    }
  double iz = 1 / xc[2], p[2] = {xc[0] * iz, xc[1] * iz};
  double s = p[0] * p[0] + p[1] * p[1];
  double f = cam[6], k1 = cam[9], k2 = cam[10];
  double L = 1 + k1 * s + k2 * s * s, dL = k1 + 2 * k2 * s; /* dL/ds */
  /* d proj_c / d p_d = f (L delta_cd + p_c dL 2 p_d) */
  double dpp[2][2], dpx[2][3], dproj[2][3]; /* d proj / d p, d p / d xc */
  for (int c = 0; c < 2; c++) {
    for (int d = 0; d < 2; d++)
      dpp[c][d] = f * (L * (c == d) + 2 * dL * p[c] * p[d]);
    dpx[c][0] = c == 0 ? iz : 0;
    dpx[c][1] = c == 1 ? iz : 0;
    dpx[c][2] = -p[c] * iz;
  }
  for (int c = 0; c < 2; c++)
    for (int j = 0; j < 3; j++)
      dproj[c][j] = dpp[c][0] * dpx[0][j] + dpp[c][1] * dpx[1][j];
  for (int c = 0; c < 2; c++) {
    double *row = J[c];
    for (int j = 0; j < 3; j++) {
      double dr = 0, da = 0;
      for (int i = 0; i < 3; i++) {
        dr += dproj[c][i] * dxr[i][j];
        da += dproj[c][i] * dxa[i][j];
      }
      row[j] = w * dr;
      row[3 + j] = -w * da; /* a = X - C */
      row[NCAM + j] = w * da;
    }
    row[6] = w * L * p[c];
    row[7] = w * (c == 0);
    row[8] = w * (c == 1);
    row[9] = w * f * s * p[c];
    row[10] = w * f * s * s * p[c];
    row[NCAM + 3] = f * L * p[c] + cam[7 + c] - feat[c];
  }
}

static NOINLINE double ba_jacobian_hand(void *ctx) {
  ba_t *b = ctx;
  for (int i = 0; i < b->p; i++) {
    double blk[2][NBLK];
    ba_block_hand(&b->cams[NCAM * b->obs[2 * i]], &b->X[3 * b->obs[2 * i + 1]],
                  b->w[i], &b->feats[2 * i], blk);
    memcpy(block_row(b->J, i, 0), blk, sizeof blk);
    b->J[30L * b->p + i] = -2 * b->w[i];
  }
  return b->J[0];
}

/* ---- Set-up ---------------------------------------------------------------
 */

static void *ba_alloc(size_t bytes, const char *what) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "ba: out of memory allocating %.2f GiB for %s\n",
            (double)bytes / (1u << 30), what);
    exit(2);
  }
  return p;
}

static void ba_read_numbers(FILE *f, const char *path, double *v, int n) {
  for (int i = 0; i < n; i++)
    if (fscanf(f, "%lf", &v[i]) != 1) {
      fprintf(stderr, "ba: %s: malformed or truncated file\n", path);
      exit(2);
    }
}

/* MemAvailable of /proc/meminfo in GiB; 0 when unknown. */
static double available_gib(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  double kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
      break;
  if (f)
    fclose(f);
  return kb / (1024.0 * 1024.0);
}

static void ba_read(ba_t *b, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "ba: cannot open %s\n", path);
    exit(2);
  }
  if (fscanf(f, "%d %d %d", &b->n, &b->m, &b->p) != 3 || b->n < 1 || b->m < 1 ||
      b->p < 1 || b->p > 60000000) {
    fprintf(stderr, "%s: not a BA file\n", path);
    exit(2);
  }
  double cam[NCAM], X[3], w, feat[2];
  ba_read_numbers(f, path, cam, NCAM);
  ba_read_numbers(f, path, X, 3);
  ba_read_numbers(f, path, &w, 1);
  ba_read_numbers(f, path, feat, 2);
  fclose(f);
  long n = b->n, m = b->m, p = b->p;
  b->nnz = 31 * p;
  b->nrows = (int)(3 * p);
  b->ncols = (int)(NCAM * n + 3 * m + p);
  double gib =
      (double)(b->nnz * 12 + 3 * p * 4 + p * 56 + NCAM * n * 8 + 3 * m * 8) /
      (1u << 30);
  printf("ba: n=%d m=%d p=%d, Jacobian %d x %d, %ld non-zeros; needs about "
         "%.2f GiB\n",
         b->n, b->m, b->p, b->nrows, b->ncols, b->nnz, gib);
  double avail = available_gib();
  if (avail > 0 && gib > 0.9 * avail) {
    fprintf(stderr,
            "ba: %s needs about %.1f GiB (the CSR Jacobian of %ld values), "
            "only %.1f GiB are available: not run\n",
            path, gib, b->nnz, avail);
    exit(2);
  }
  b->cams = ba_alloc(NCAM * n * sizeof(double), "cameras");
  b->X = ba_alloc(3 * m * sizeof(double), "points");
  b->w = ba_alloc(p * sizeof(double), "weights");
  b->feats = ba_alloc(2 * p * sizeof(double), "features");
  b->obs = ba_alloc(2 * p * sizeof(int), "observations");
  b->reproj = ba_alloc(2 * p * sizeof(double), "residuals");
  b->werr = ba_alloc(p * sizeof(double), "residuals");
  for (long i = 0; i < n; i++)
    memcpy(&b->cams[NCAM * i], cam, sizeof cam);
  for (long i = 0; i < m; i++)
    memcpy(&b->X[3 * i], X, sizeof X);
  for (long i = 0; i < p; i++) {
    b->w[i] = w;
    b->feats[2 * i] = feat[0];
    b->feats[2 * i + 1] = feat[1];
    b->obs[2 * i] = (int)(i % n);
    b->obs[2 * i + 1] = (int)(i % m);
  }
  /* The CSR pattern (values row by row: 11 camera, 3 point, 1 weight). */
  b->rows = ba_alloc((3 * p + 1) * sizeof(int), "CSR rows");
  b->cols = ba_alloc(b->nnz * sizeof(int), "CSR columns");
  b->J = ba_alloc(b->nnz * sizeof(double), "Jacobian values");
  for (long r = 0; r <= 3 * p; r++)
    b->rows[r] = (int)(r <= 2 * p ? 15 * r : 30 * p + (r - 2 * p));
  for (long i = 0; i < p; i++)
    for (int c = 0; c < 2; c++) {
      int *col = b->cols + 30 * i + 15 * c;
      for (int k = 0; k < NCAM; k++)
        col[k] = (int)(NCAM * b->obs[2 * i] + k);
      for (int k = 0; k < 3; k++)
        col[NCAM + k] = (int)(NCAM * n + 3 * b->obs[2 * i + 1] + k);
      col[NCAM + 3] = (int)(NCAM * n + 3 * m + i);
    }
  for (long i = 0; i < p; i++)
    b->cols[30 * p + i] = (int)(NCAM * n + 3 * m + i);
}

/* ---- Verification ----------------------------------------------------------
 */

/* Central differences of the block of observation i (15 inputs). */
static void ba_block_fd(const ba_t *b, int i, double out[2][NBLK]) {
  double cam[NCAM], X[3], w = b->w[i];
  memcpy(cam, &b->cams[NCAM * b->obs[2 * i]], sizeof cam);
  memcpy(X, &b->X[3 * b->obs[2 * i + 1]], sizeof X);
  double *v[NBLK];
  for (int k = 0; k < NCAM; k++)
    v[k] = &cam[k];
  for (int k = 0; k < 3; k++)
    v[NCAM + k] = &X[k];
  v[NCAM + 3] = &w;
  for (int k = 0; k < NBLK; k++) {
    double x0 = *v[k], h = 1e-5 * (fabs(x0) > 1 ? fabs(x0) : 1), ep[2], em[2];
    *v[k] = x0 + h;
    ba_project(cam, X, &w, &b->feats[2 * i], ep);
    *v[k] = x0 - h;
    ba_project(cam, X, &w, &b->feats[2 * i], em);
    *v[k] = x0;
    for (int c = 0; c < 2; c++)
      out[c][k] = (ep[c] - em[c]) / (2 * h);
  }
}

static int ba_verify(ba_t *b, const ab_opts *o, double *sumsq) {
  int ok = 1;
  ba_objective(b);
  /* The total squared residual, compensated (p may be millions). */
  double sum = 0, comp = 0;
  for (long r = 0; r < 3L * b->p; r++) {
    double v = r < 2L * b->p ? b->reproj[r] : b->werr[r - 2L * b->p];
    double y = v * v - comp, t = sum + y;
    comp = (t - sum) - y;
    sum = t;
  }
  *sumsq = sum;
  if (o->verbose)
    fprintf(stderr,
            "residuals: reproj_err[0..1] = %.17g %.17g, w_err[0] = "
            "%.17g, sum of squares %.17g\n",
            b->reproj[0], b->reproj[1], b->werr[0], sum);
  /* --expect is the sum of squares; reproj_err[0] is accepted too. */
  if (o->has_expect && ab_rho(b->reproj[0], o->expect) <= 1e-12)
    ok &= ab_jac_check_expect(o, "reproj_err[0]", b->reproj[0]);
  else
    ok &= ab_jac_check_expect(o, "sum of squares", sum);

  for (long k = 0; k < b->nnz; k++)
    b->J[k] = ab_nan(); /* anything left unwritten shows */
  ba_jacobian_reverse(b);
  /* Hand-written and forward blocks against the reverse Jacobian, one
   * observation at a time (the Jacobian is not held twice). */
  ab_jac_stream sh = {.tol = 1e-9}, sf = {.tol = 1e-9};
  for (int i = 0; i < b->p; i++) {
    double hb[2][NBLK], fb[2][NBLK], fw;
    const double *rb = block_row(b->J, i, 0), *rw = &b->J[30L * b->p + i];
    ba_block_hand(&b->cams[NCAM * b->obs[2 * i]], &b->X[3 * b->obs[2 * i + 1]],
                  b->w[i], &b->feats[2 * i], hb);
    ba_block_forward(b, i, fb[0], fb[1], &fw);
    for (int k = 0; k < 2 * NBLK; k++) {
      ab_jac_stream_add(&sh, rb[k], (&hb[0][0])[k]);
      ab_jac_stream_add(&sf, (&fb[0][0])[k], rb[k]);
    }
    ab_jac_stream_add(&sh, *rw, -2 * b->w[i]);
    ab_jac_stream_add(&sf, fw, *rw);
  }
  ok &= ab_jac_stream_end(o, &sh, "reverse jacobian", "hand-written");
  ok &= ab_jac_stream_end(o, &sf, "forward jacobian", "reverse");
  /* Central differences on a few observations (identical in value, at
   * different places of the CSR). */
  int fdobs[4] = {0, 1, b->p / 2, b->p - 1};
  double fd[4][2][NBLK], ad[4][2][NBLK];
  for (int q = 0; q < 4; q++) {
    int i = fdobs[q] < b->p ? fdobs[q] : 0;
    ba_block_fd(b, i, fd[q]);
    memcpy(ad[q], block_row(b->J, i, 0), sizeof ad[q]);
  }
  ok &= ab_jac_compare(o, "reverse jacobian", "differences (4 obs)",
                       &ad[0][0][0], &fd[0][0][0], 4 * 2 * NBLK, AB_TOL_FD);
  double w0 = b->w[0], hw = 1e-5;
  double wfd =
      ((1 - (w0 + hw) * (w0 + hw)) - (1 - (w0 - hw) * (w0 - hw))) / (2 * hw);
  ok &= ab_jac_compare(o, "d w_err / d w", "differences", &b->J[30L * b->p],
                       &wfd, 1, AB_TOL_FD);
  if (o->expect_grad) {
    long nref = 0;
    double *ref = ab_read_numbers(o->expect_grad, &nref);
    if (!ref)
      exit(2);
    if (nref != b->nnz) {
      fprintf(stderr,
              "WRONG GRADIENT: %s holds %ld values, the Jacobian "
              "has %ld\n",
              o->expect_grad, nref, b->nnz);
      ok = 0;
    } else {
      ok &= ab_jac_compare(o, "reverse jacobian", "upstream values", b->J, ref,
                           b->nnz, AB_TOL_REF);
    }
    free(ref);
  }
  return ok;
}

/* One observation's reverse block (3 calls): its peak tape is the largest
 * tape of one call. */
static NOINLINE double ba_one_block(void *ctx) {
  ba_t *b = ctx;
  ba_block_reverse(b, 0, block_row(b->J, 0, 0), block_row(b->J, 0, 1),
                   &b->J[30L * b->p]);
  return b->J[0];
}

int main(int argc, char **argv) {
  ab_opts o;
  int rc = ab_jac_parse_args(&o, NULL, argc, argv, "ba");
  if (rc >= 0)
    return rc;
  char size[128];
  ab_bench_size(&o, o.data, "ba", "", size, sizeof size);
  ba_t b;
  memset(&b, 0, sizeof b);
  ba_read(&b, o.data);
  ab_jac_result r = {ab_nan(), ab_nan(), ab_nan(), ab_nan(), ab_nan(),
                     NBLK,     ab_nan(), ab_nan(), ab_nan(), ab_nan()};
  int verified = ba_verify(&b, &o, &r.objective);
  const ab_fn fns[4] = {ba_objective, ba_jacobian_reverse, ba_jacobian_forward,
                        ba_jacobian_hand};
  return ab_jac_finish(&o, "ba", size, &r, verified, fns, &r.jac_hand, NULL,
                       ba_one_block, &b);
}
