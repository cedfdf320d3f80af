/* hand.c: ADBench hand tracking (HT) objective and its dense Jacobian.
 *
 * The problem (shared/data/adbench/README.md, section 3): a skinned hand
 * model (22 bones, 544 vertices) posed by 26 parameters theta; N data points
 * y_i are matched to model points (a vertex, or in the complicated variant a
 * point of a triangle with barycentric coordinates u_i).  The residual is
 * err[3i + c] = y_i[c] - P_i[c], 3N values.
 *
 * Measured (medians of --samples samples of at least --min-time seconds):
 *   objective  the 3N residuals (the pose once, then every point);
 *   jacobian   the 3N x 26 Jacobian (3N x 28 in the complicated variant: two
 *              compressed columns d err / d u first) by reverse mode: per
 *              point, three __enzyme_autodiff calls (output adjoint e_c) of
 *              the function computing that point's 3 residuals from theta
 *              (and u_i), which poses the hand again;
 *   forward    the same Jacobian by forward mode: one __enzyme_fwddiff call
 *              of the whole objective per direction (26 unit tangents of
 *              theta; complicated: 2 more, all u_i,a at once, valid since
 *              point i depends on its own u_i only); reported per direction;
 *   batched    the forward-mode Jacobian with 8 directions per call
 *              (enzyme_width 8), the last 2 columns by one call of that
 *              width; in the complicated variant theta's directions with u
 *              constant and u's 2 in one call with theta constant;
 *   compressed the same with the columns that share no row in one
 *              direction (below).
 * No hand-written Jacobian.  Both are verified before anything is timed:
 * reverse against central differences of the objective, forward against
 * reverse, batched against forward, and, with --expect-jac, against the
 * upstream Jacobian (stored column-major, as here).
 *
 * Build: build/bin/adcc -O2 hand.c -lm   (or clang -O2 with Enzyme's plugin)
 * Usage: hand --data
 * ../shared/data/adbench/hand/simple_small/hand1_t26_c100.txt
 *             [--complicated] [--samples N] [--min-time S] [--json FILE]
 *             [--verify-only] [--name LABEL] [--expect SUMSQ]
 *             [--expect-jac FILE]
 * The model is read from the directory model/ next to the data file; the
 * complicated variant is chosen by --complicated or a path that contains
 * "complicated".
 */
#define _POSIX_C_SOURCE 200809L
#include "adbench_color.h"
#include "adbench_jac.h"
#include "hand_model.h"

/* ---- The Enzyme-compatible API ----------------------------------------- */

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))

/* ---- The objective --------------------------------------------------------
 */

/* 3x3 rotation of angle-axis r (identity below angle 1e-4). */
static void angle_axis_rot(const double *r, double *G) {
  double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  for (int i = 0; i < 9; i++)
    G[i] = i % 4 == 0;
  if (t2 < 1e-8)
    return;
  double t = sqrt(t2), c = cos(t), s = sin(t);
  double k[3] = {r[0] / t, r[1] / t, r[2] / t};
  double kx[9] = {0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      G[3 * i + j] = c * (i == j) + s * kx[3 * i + j] + (1 - c) * k[i] * k[j];
}

/* Rz(az) Ry(ay) Rx(ax), row-major 3x3. */
static void euler_rot(const double *a, double *R) {
  double cx = cos(a[0]), sx = sin(a[0]), cy = cos(a[1]), sy = sin(a[1]);
  double cz = cos(a[2]), sz = sin(a[2]);
  R[0] = cz * cy;
  R[1] = cz * sy * sx - sz * cx;
  R[2] = cz * sy * cx + sz * sx;
  R[3] = sz * cy;
  R[4] = sz * sy * sx + cz * cx;
  R[5] = sz * sy * cx - cz * sx;
  R[6] = -sy;
  R[7] = cy * sx;
  R[8] = cy * cx;
}

/* The posed skinning transforms: A[12 b ..] = G (Abs_b Binv_b)[rows 0..2],
 * 3x4 row-major, so that P_j = sum_b w_bj A_b [x_j; 1] + theta[3..5]. */
static void hand_pose(const double *theta, const model_t *m, double *A) {
  double ang[MAXB][3], absT[MAXB][16], G[9];
  for (int b = 0; b < m->nb; b++)
    ang[b][0] = ang[b][1] = ang[b][2] = 0;
  for (int f = 0; f < 5; f++) {
    ang[4 * f + 2][0] = theta[6 + 4 * f];
    ang[4 * f + 2][2] = theta[7 + 4 * f];
    ang[4 * f + 3][0] = theta[8 + 4 * f];
    ang[4 * f + 4][0] = theta[9 + 4 * f];
  }
  angle_axis_rot(theta, G);
  for (int b = 0; b < m->nb; b++) {
    double R[9], rel[16];
    euler_rot(ang[b], R);
    const double *Bb = m->B[b];
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 3; j++)
        rel[4 * i + j] = Bb[4 * i] * R[j] + Bb[4 * i + 1] * R[3 + j] +
                         Bb[4 * i + 2] * R[6 + j];
      rel[4 * i + 3] = Bb[4 * i + 3];
    }
    int p = m->parent[b];
    for (int i = 0; i < 16; i++)
      absT[b][i] = rel[i];
    if (p >= 0)
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
          double s = 0;
          for (int k = 0; k < 4; k++)
            s += absT[p][4 * i + k] * rel[4 * k + j];
          absT[b][4 * i + j] = s;
        }
    double T[12];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++) {
        double s = 0;
        for (int k = 0; k < 4; k++)
          s += absT[b][4 * i + k] * m->Binv[b][4 * k + j];
        T[4 * i + j] = s;
      }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++)
        A[12 * b + 4 * i + j] =
            G[3 * i] * T[j] + G[3 * i + 1] * T[4 + j] + G[3 * i + 2] * T[8 + j];
  }
}

/* P += scale * (posed vertex j, without the translation). */
static void hand_vertex(const double *A, const model_t *m, int j, double scale,
                        double *P) {
  const double *x = &m->rest[3 * j];
  for (int k = m->wstart[j]; k < m->wstart[j + 1]; k++) {
    const double *Ab = &A[12 * m->wbone[k]];
    double w = scale * m->wval[k];
    for (int c = 0; c < 3; c++)
      P[c] += w * (Ab[4 * c] * x[0] + Ab[4 * c + 1] * x[1] +
                   Ab[4 * c + 2] * x[2] + Ab[4 * c + 3]);
  }
}

/* The residuals of point i from posed transforms A; u: its u_i (complicated
 * variant) or NULL. */
static void hand_residual(const double *A, const double *theta, const double *u,
                          const hand_data *d, int i, double *err) {
  double P[3] = {theta[3], theta[4], theta[5]};
  if (u) {
    const int *t = &d->m.tri[3 * d->corr[i]];
    hand_vertex(A, &d->m, t[0], u[0], P);
    hand_vertex(A, &d->m, t[1], u[1], P);
    hand_vertex(A, &d->m, t[2], 1 - u[0] - u[1], P);
  } else {
    hand_vertex(A, &d->m, d->corr[i], 1, P);
  }
  for (int c = 0; c < 3; c++)
    err[c] = d->y[3 * i + c] - P[c];
}

/* The objectives: all 3N residuals. */
NOINLINE void hand_objective_simple(const double *theta, const hand_data *d,
                                    double *err) {
  double A[12 * MAXB];
  hand_pose(theta, &d->m, A);
  for (int i = 0; i < d->N; i++)
    hand_residual(A, theta, NULL, d, i, &err[3 * i]);
}

NOINLINE void hand_objective_complicated(const double *theta, const double *u,
                                         const hand_data *d, double *err) {
  double A[12 * MAXB];
  hand_pose(theta, &d->m, A);
  for (int i = 0; i < d->N; i++)
    hand_residual(A, theta, &u[2 * i], d, i, &err[3 * i]);
}

/* The 3 residuals of point i alone (the functions reverse mode sweeps). */
NOINLINE void hand_point_simple(const double *theta, const hand_data *d, int i,
                                double *err) {
  double A[12 * MAXB];
  hand_pose(theta, &d->m, A);
  hand_residual(A, theta, NULL, d, i, err);
}

NOINLINE void hand_point_complicated(const double *theta, const double *u,
                                     const hand_data *d, int i, double *err) {
  double A[12 * MAXB];
  hand_pose(theta, &d->m, A);
  hand_residual(A, theta, u, d, i, err);
}

/* ---- Benchmark state and Jacobians ----------------------------------------
 */

typedef struct {
  hand_data d;
  double theta[NTHETA], *u; /* u: 2N (complicated)                         */
  double *err;              /* 3N                                          */
  int ncols;                /* 26 or 28                                    */
  long nrows;               /* 3N                                          */
  double *J, *J2, *J3;      /* column-major nrows x ncols                  */
  double *dtheta, *du;      /* forward tangents                            */
  double *bt, *bu;          /* batched tangents: 8 lanes of theta and u    */
  uint64_t *rows;           /* the rows' patterns (compressed Jacobian)    */
  int color[NTHETA + 2], ncolors; /* the columns' colours (directions)     */
  int nthetacolors;               /* of them theta's (the first ones)      */
  long colstart[NTHETA + 3], *rowidx; /* each column's rows (its pattern) */
  double *st, *su, *Jc; /* the colours' seeds and tangents             */
} hand_t;

static NOINLINE double hand_primal(void *ctx) {
  hand_t *h = ctx;
  if (h->d.complicated)
    hand_objective_complicated(h->theta, h->u, &h->d, h->err);
  else
    hand_objective_simple(h->theta, &h->d, h->err);
  return h->err[0];
}

/* Reverse mode, row 3i + c: the gradient of err[3i + c] of point i. */
static void hand_rows_reverse(hand_t *h, int i, double *J) {
  for (int c = 0; c < 3; c++) {
    double g[NTHETA + 2] = {0}, e[3], de[3] = {c == 0, c == 1, c == 2};
    if (h->d.complicated)
      __enzyme_autodiff((void *)hand_point_complicated, enzyme_dup, h->theta,
                        g + 2, enzyme_dup, &h->u[2 * i], g, enzyme_const, &h->d,
                        enzyme_const, i, enzyme_dupnoneed, e, de);
    else
      __enzyme_autodiff((void *)hand_point_simple, enzyme_dup, h->theta, g,
                        enzyme_const, &h->d, enzyme_const, i, enzyme_dupnoneed,
                        e, de);
    for (int k = 0; k < h->ncols; k++)
      J[k * h->nrows + 3 * i + c] = g[k];
  }
}

static NOINLINE double hand_jacobian_reverse(void *ctx) {
  hand_t *h = ctx;
  for (int i = 0; i < h->d.N; i++)
    hand_rows_reverse(h, i, h->J);
  return h->J[0];
}

static void hand_fwd_call(hand_t *h, int W, double *t, double *u, double *c);

/* Forward mode: column k of the Jacobian is the tangent of err along
 * direction k; u directions set all u_i,a at once. */
static NOINLINE double hand_jacobian_forward(void *ctx) {
  hand_t *h = ctx;
  int off = h->ncols - NTHETA;
  for (int k = 0; k < h->ncols; k++) {
    double *col = &h->J2[k * h->nrows];
    if (k >= off)
      h->dtheta[k - off] = 1;
    if (h->d.complicated)
      for (int i = 0; i < h->d.N; i++)
        h->du[2 * i] = k == 0, h->du[2 * i + 1] = k == 1;
    hand_fwd_call(h, 1, h->dtheta, h->du, col);
    if (k >= off)
      h->dtheta[k - off] = 0;
  }
  return h->J2[0];
}

/* One forward-mode call of the objective with W directions (W = 1, 2, 4 or
 * 8): lane l's tangents of theta at t + l NTHETA, of u at u + 2 l N (the
 * complicated variant), and of the residuals at c + l nrows. One function
 * per width (each derivative's code in a function of its own size keeps
 * hand.c's compile time). The complicated variant's batched calls are
 * those below hand_fwd_call, each for theta's or u's directions only: its
 * W > 1 here goes lane by lane.
 */
static NOINLINE void hand_fwd8(hand_t *h, double *t, double *c) {
  long r = h->nrows;
  __enzyme_fwddiff((void *)hand_objective_simple, enzyme_width, 8, enzyme_dup,
                   h->theta, t, t + NTHETA, t + 2 * NTHETA, t + 3 * NTHETA,
                   t + 4 * NTHETA, t + 5 * NTHETA, t + 6 * NTHETA,
                   t + 7 * NTHETA, enzyme_const, &h->d, enzyme_dupnoneed,
                   h->err, c, c + r, c + 2 * r, c + 3 * r, c + 4 * r,
                   c + 5 * r, c + 6 * r, c + 7 * r);
}

static NOINLINE void hand_fwd4(hand_t *h, double *t, double *c) {
  long r = h->nrows;
  __enzyme_fwddiff((void *)hand_objective_simple, enzyme_width, 4, enzyme_dup,
                   h->theta, t, t + NTHETA, t + 2 * NTHETA, t + 3 * NTHETA,
                   enzyme_const, &h->d, enzyme_dupnoneed, h->err, c, c + r,
                   c + 2 * r, c + 3 * r);
}

static NOINLINE void hand_fwd2(hand_t *h, double *t, double *c) {
  __enzyme_fwddiff((void *)hand_objective_simple, enzyme_width, 2, enzyme_dup,
                   h->theta, t, t + NTHETA, enzyme_const, &h->d,
                   enzyme_dupnoneed, h->err, c, c + h->nrows);
}

static NOINLINE void hand_fwd1(hand_t *h, double *t, double *u, double *c) {
  long r = h->nrows, N2 = 2L * h->d.N;
  const hand_data *d = &h->d;
  void *fs = (void *)hand_objective_simple;
  void *fc = (void *)hand_objective_complicated;
  (void)r, (void)N2;
  if (h->d.complicated)
    __enzyme_fwddiff(fc, enzyme_dup, h->theta, t, enzyme_dup, h->u, u,
                     enzyme_const, d, enzyme_dupnoneed, h->err, c);
  else
    __enzyme_fwddiff(fs, enzyme_dup, h->theta, t, enzyme_const, d,
                     enzyme_dupnoneed, h->err, c);
}

static void hand_fwd_call(hand_t *h, int W, double *t, double *u, double *c) {
  if (h->d.complicated) /* (lane by lane: no caller asks for it) */
    for (int l = 0; l < W; l++)
      hand_fwd1(h, t + l * NTHETA, u + 2L * l * h->d.N, c + l * h->nrows);
  else if (W == 8)
    hand_fwd8(h, t, c);
  else if (W == 4)
    hand_fwd4(h, t, c);
  else if (W == 2)
    hand_fwd2(h, t, c);
  else
    hand_fwd1(h, t, u, c);
}

/* The complicated variant's batched calls (the batched and compressed
 * Jacobians): theta's directions with u constant (W = 8 or 2), and the two
 * u directions with theta constant, whose tangents do not pass through the
 * pose (hand_pose runs as the primal only). Splitting them costs one more
 * primal pose and saves the pose's tangent in the u lanes and the u terms
 * in theta's: 25 % fewer instructions for the compressed Jacobian. */
static NOINLINE void hand_fwd8_theta(hand_t *h, double *t, double *c) {
  long r = h->nrows;
  __enzyme_fwddiff((void *)hand_objective_complicated, enzyme_width, 8,
                   enzyme_dup, h->theta, t, t + NTHETA, t + 2 * NTHETA,
                   t + 3 * NTHETA, t + 4 * NTHETA, t + 5 * NTHETA,
                   t + 6 * NTHETA, t + 7 * NTHETA, enzyme_const, h->u,
                   enzyme_const, &h->d, enzyme_dupnoneed, h->err, c, c + r,
                   c + 2 * r, c + 3 * r, c + 4 * r, c + 5 * r, c + 6 * r,
                   c + 7 * r);
}

static NOINLINE void hand_fwd2_theta(hand_t *h, double *t, double *c) {
  __enzyme_fwddiff((void *)hand_objective_complicated, enzyme_width, 2,
                   enzyme_dup, h->theta, t, t + NTHETA, enzyme_const, h->u,
                   enzyme_const, &h->d, enzyme_dupnoneed, h->err, c,
                   c + h->nrows);
}

static NOINLINE void hand_fwd2_u(hand_t *h, double *u, double *c) {
  __enzyme_fwddiff((void *)hand_objective_complicated, enzyme_width, 2,
                   enzyme_const, h->theta, enzyme_dup, h->u, u,
                   u + 2L * h->d.N, enzyme_const, &h->d, enzyme_dupnoneed,
                   h->err, c, c + h->nrows);
}

/* Forward mode, 8 directions per call (enzyme_width 8): column k + l of
 * the Jacobian is lane l's tangent; the primal runs once per 8 columns. The
 * last columns (26 = 3 x 8 + 2) take one call of width 2 (width-1 calls for
 * any other remainder); the complicated variant's u columns one call of
 * width 2 of their own. */
#define HAND_BATCH 8
static void hand_batch_lanes(hand_t *h, int k) {
  int off = h->ncols - NTHETA;
  for (int l = 0; l < HAND_BATCH; l++) {
    double *dt = &h->bt[l * NTHETA], *du = &h->bu[l * 2 * (size_t)h->d.N];
    memset(dt, 0, NTHETA * sizeof *dt);
    if (k + l >= off && k + l < h->ncols)
      dt[k + l - off] = 1;
    if (h->d.complicated)
      for (int i = 0; i < h->d.N; i++)
        du[2 * i] = k + l == 0, du[2 * i + 1] = k + l == 1;
  }
}

static NOINLINE double hand_jacobian_batched(void *ctx) {
  hand_t *h = ctx;
  int k = 0, off = h->ncols - NTHETA;
  if (h->d.complicated) {
    /* theta's 26 columns in calls of width 8 (the last 2 of width 2) with
     * u constant, u's 2 in one call of width 2 with theta constant. */
    for (; k + HAND_BATCH <= NTHETA; k += HAND_BATCH) {
      hand_batch_lanes(h, off + k);
      hand_fwd8_theta(h, h->bt, &h->J3[(off + k) * h->nrows]);
    }
    hand_batch_lanes(h, off + k);
    hand_fwd2_theta(h, h->bt, &h->J3[(off + k) * h->nrows]);
    hand_batch_lanes(h, 0);
    hand_fwd2_u(h, h->bu, h->J3);
    return h->J3[0];
  }
  for (; k + HAND_BATCH <= h->ncols; k += HAND_BATCH) {
    hand_batch_lanes(h, k);
    hand_fwd_call(h, HAND_BATCH, h->bt, h->bu, &h->J3[k * h->nrows]);
  }
  /* The last 2 columns in one call of that width: the pose once, and their
   * lanes in vectors too. */
  int rest = h->ncols - k;
  if (rest == 2) {
    hand_batch_lanes(h, k);
    hand_fwd_call(h, rest, h->bt, h->bu, &h->J3[k * h->nrows]);
    k = h->ncols;
  }
  for (; k < h->ncols; k++) {
    hand_batch_lanes(h, k); /* lane 0: column k */
    hand_fwd_call(h, 1, h->bt, h->bu, &h->J3[k * h->nrows]);
  }
  return h->J3[0];
}

/* ---- The compressed forward-mode Jacobian ---------------------------------
 *
 * Each residual depends on few of the parameters: point i's on the global
 * rotation and translation (theta 0..5, translation c in row 3i + c only)
 * and on the angles of the bones that weight its vertices and of their
 * ancestors (one finger's, seldom two). Columns that share no row share one
 * forward direction (adbench_color.h); the structural pattern comes from the
 * model (bone tree, skinning weights, triangles) and the correspondences,
 * once per data set, like a sparse solver's symbolic analysis, and is not
 * timed. HT: 26 columns in 8 directions; the complicated variant's two u
 * columns (already compressed over the points) take one each, in a call of
 * their own with theta constant (their tangents need the pose, not its
 * derivative), and its theta directions take calls with u constant. */

/* The parameters that bone b's own rotation reads, as hand_pose assigns
 * them: theta 6 + 4f, 7 + 4f to bone 4f + 2, theta 8 + 4f to bone 4f + 3,
 * theta 9 + 4f to bone 4f + 4 (f = 0..4); bit k: theta k. */
static uint64_t hand_own_thetas(int b) {
  if (b < 2 || b > 20 || (b - 1) % 4 == 0)
    return 0;
  int f = (b - 1) / 4, q = (b - 1) % 4;
  return q == 1 ? (uint64_t)3 << (6 + 4 * f) : (uint64_t)1 << (6 + q + 4 * f);
}

/* The patterns of the Jacobian's rows (bit: column, u columns first) into
 * h->rows, the columns' colours, and the seeds of the colours' directions. */
static void hand_compress(hand_t *h) {
  const model_t *m = &h->d.m;
  int off = h->ncols - NTHETA, cx = h->d.complicated;
  uint64_t bone[MAXB];
  for (int b = 0; b < m->nb; b++) /* the global rotation, own, ancestors' */
    bone[b] = ((uint64_t)7 | hand_own_thetas(b)) << off |
              (m->parent[b] >= 0 ? bone[m->parent[b]] : 0);
  for (int i = 0; i < h->d.N; i++) {
    uint64_t p = cx ? 3 : 0;
    for (int v = 0; v < (cx ? 3 : 1); v++) {
      int j = cx ? m->tri[3 * h->d.corr[i] + v] : h->d.corr[i];
      for (int k = m->wstart[j]; k < m->wstart[j + 1]; k++)
        p |= bone[m->wbone[k]];
    }
    for (int c = 0; c < 3; c++)
      h->rows[3 * i + c] =
          p | (uint64_t)7 << off | (uint64_t)1 << (off + 3 + c);
  }
  /* The theta columns' colours (rows without the u bits), then one each
   * for the u columns: the theta directions first. */
  uint64_t *rt = xalloc((size_t)h->nrows * sizeof *rt);
  for (long r = 0; r < h->nrows; r++)
    rt[r] = h->rows[r] >> off;
  h->nthetacolors = ab_color_columns(rt, h->nrows, NTHETA, h->color + off);
  free(rt);
  for (int k = 0; k < off; k++)
    h->color[k] = h->nthetacolors + k;
  h->ncolors = h->nthetacolors < 0 ? -1 : h->nthetacolors + off;
  if (h->ncolors < 0 || ab_pattern_columns(h->rows, h->nrows, h->ncols,
                                           h->colstart, &h->rowidx) < 0) {
    fprintf(stderr, "hand: cannot compress the Jacobian\n");
    exit(2);
  }
  size_t N2 = 2 * (size_t)h->d.N;
  h->st = xalloc((size_t)h->ncolors * NTHETA * sizeof(double));
  h->su = xalloc((size_t)h->ncolors * N2 * sizeof(double));
  h->Jc = xalloc((size_t)h->ncolors * h->nrows * sizeof(double));
  for (int k = 0; k < h->ncols; k++) {
    int l = h->color[k];
    if (k >= off)
      h->st[(size_t)l * NTHETA + k - off] = 1;
    else
      for (int i = 0; i < h->d.N; i++)
        h->su[l * N2 + 2 * i + k] = 1;
  }
}

/* The Jacobian from its compressed columns: calls of width 8 (then 4, 2,
 * 1) over the colours' directions, and the scatter into the dense J3. */
static NOINLINE double hand_jacobian_compressed(void *ctx) {
  hand_t *h = ctx;
  size_t N2 = 2 * (size_t)h->d.N;
  int cx = h->d.complicated, n = h->nthetacolors;
  for (int l = 0, W = 8; l < n; l += W) {
    while (l + W > n)
      W /= 2;
    double *t = &h->st[(size_t)l * NTHETA], *c = &h->Jc[l * h->nrows];
    if (cx && W == 8)
      hand_fwd8_theta(h, t, c);
    else if (cx && W == 4) {
      hand_fwd2_theta(h, t, c);
      hand_fwd2_theta(h, t + 2 * NTHETA, c + 2 * h->nrows);
    } else if (cx && W == 2)
      hand_fwd2_theta(h, t, c);
    else
      hand_fwd_call(h, W, t, &h->su[l * N2], c);
  }
  if (cx && h->ncolors == n + 2)
    hand_fwd2_u(h, &h->su[n * N2], &h->Jc[n * h->nrows]);
  ab_decompress(h->colstart, h->rowidx, h->nrows, h->ncols, h->color, h->Jc,
                h->J3);
  return h->J3[0];
}

/* One point's three reverse calls, for the tape statistics. */
static NOINLINE double hand_one_point(void *ctx) {
  hand_t *h = ctx;
  hand_rows_reverse(h, 0, h->J);
  return h->J[0];
}

/* ---- Reading the data ------------------------------------------------------
 */

static void read_hand(hand_t *h, const char *path) {
  FILE *f = fopen(path, "r");
  int nth;
  if (!f || fscanf(f, "%d %d", &h->d.N, &nth) != 2 || h->d.N < 1 ||
      nth != NTHETA) {
    fprintf(stderr, "hand: %s: cannot read a hand file\n", path);
    exit(2);
  }
  int N = h->d.N;
  h->d.corr = xalloc((size_t)N * sizeof(int));
  h->d.y = xalloc(3 * (size_t)N * sizeof(double));
  int nref = h->d.complicated ? h->d.m.nt : h->d.m.nv;
  for (int i = 0; i < N; i++) {
    if (fscanf(f, "%d %lf %lf %lf", &h->d.corr[i], &h->d.y[3 * i],
               &h->d.y[3 * i + 1], &h->d.y[3 * i + 2]) != 4 ||
        h->d.corr[i] < 0 || h->d.corr[i] >= nref)
      bad_file(path);
  }
  h->u = xalloc(2 * (size_t)N * sizeof(double));
  if (h->d.complicated)
    for (int i = 0; i < 2 * N; i++)
      if (fscanf(f, "%lf", &h->u[i]) != 1)
        bad_file(path);
  for (int k = 0; k < NTHETA; k++)
    if (fscanf(f, "%lf", &h->theta[k]) != 1)
      bad_file(path);
  fclose(f);
  h->nrows = 3L * N;
  h->ncols = NTHETA + 2 * h->d.complicated;
  h->err = xalloc(h->nrows * sizeof(double));
  h->J = xalloc(h->nrows * h->ncols * sizeof(double));
  h->J2 = xalloc(h->nrows * h->ncols * sizeof(double));
  h->dtheta = xalloc(NTHETA * sizeof(double));
  h->du = xalloc(2 * (size_t)N * sizeof(double));
  h->J3 = xalloc((size_t)h->nrows * h->ncols * sizeof(double));
  h->bt = xalloc(HAND_BATCH * NTHETA * sizeof(double));
  h->bu = xalloc(HAND_BATCH * 2 * (size_t)N * sizeof(double));
  h->rows = xalloc(h->nrows * sizeof(uint64_t));
  hand_compress(h);
}

/* ---- Verification
 * ------------------------------------------------------------ */

/* Central differences of the objective, column by column (the u columns
 * perturb every u_i,a at once), into J2. */
static void hand_fd(hand_t *h) {
  double *ep = xalloc(h->nrows * sizeof(double));
  double *em = xalloc(h->nrows * sizeof(double));
  int off = h->ncols - NTHETA;
  for (int k = 0; k < h->ncols; k++) {
    double hs = 1e-5;
    for (int s = 0; s < 2; s++) {
      double dx = s ? -hs : hs;
      if (k >= off)
        h->theta[k - off] += dx;
      else
        for (int i = 0; i < h->d.N; i++)
          h->u[2 * i + k] += dx;
      hand_primal(h);
      memcpy(s ? em : ep, h->err, h->nrows * sizeof(double));
      if (k >= off)
        h->theta[k - off] -= dx;
      else
        for (int i = 0; i < h->d.N; i++)
          h->u[2 * i + k] -= dx;
    }
    for (long r = 0; r < h->nrows; r++)
      h->J2[k * h->nrows + r] = (ep[r] - em[r]) / (2 * hs);
  }
  free(ep);
  free(em);
}

static int hand_verify(hand_t *h, const ab_opts *o, double *sumsq) {
  int ok = 1;
  hand_primal(h);
  double s = 0;
  for (long r = 0; r < h->nrows; r++)
    s += h->err[r] * h->err[r];
  *sumsq = s;
  if (o->verbose)
    fprintf(stderr,
            "residuals: %.17g %.17g %.17g ..., sum of squares "
            "%.17g\n",
            h->err[0], h->err[1], h->err[2], s);
  ok &= ab_jac_check_expect(o, "sum of squares", s);

  long n = h->nrows * h->ncols;
  for (long k = 0; k < n; k++)
    h->J[k] = h->J2[k] = ab_nan(); /* anything left unwritten shows */
  hand_jacobian_reverse(h);
  hand_fd(h);
  ok &= ab_jac_compare(o, "reverse jacobian", "central differences", h->J,
                       h->J2, n, AB_TOL_FD);
  for (long k = 0; k < n; k++)
    h->J2[k] = ab_nan();
  hand_jacobian_forward(h);
  ok &= ab_jac_compare(o, "forward jacobian", "reverse", h->J2, h->J, n, 1e-9);
  for (long k = 0; k < n; k++)
    h->J3[k] = ab_nan();
  hand_jacobian_batched(h);
  ok &= ab_jac_compare(o, "batched forward jacobian", "forward", h->J3, h->J2,
                       n, 1e-12);
  for (long k = 0; k < n; k++)
    h->J3[k] = ab_nan();
  hand_jacobian_compressed(h);
  ok &= ab_jac_compare(o, "compressed forward jacobian", "forward", h->J3,
                       h->J2, n, 1e-12);
  if (o->expect_grad) {
    long nref = 0;
    double *ref = ab_read_numbers(o->expect_grad, &nref);
    if (!ref)
      exit(2);
    if (nref != n) {
      fprintf(stderr,
              "WRONG GRADIENT: %s holds %ld values, the Jacobian "
              "has %ld\n",
              o->expect_grad, nref, n);
      ok = 0;
    } else {
      ok &= ab_jac_compare(o, "reverse jacobian", "upstream values", h->J, ref,
                           n, AB_TOL_REF);
      ok &= ab_jac_compare(o, "forward jacobian", "upstream values", h->J2, ref,
                           n, AB_TOL_REF);
    }
    free(ref);
  }
  return ok;
}

/* ---- Main -------------------------------------------------------------------
 */

int main(int argc, char **argv) {
  ab_opts o;
  hand_t h;
  memset(&h, 0, sizeof h);
  int rc = ab_jac_parse_args(&o, &h.d.complicated, argc, argv, "hand");
  if (rc >= 0)
    return rc;
  if (strstr(o.data, "complicated"))
    h.d.complicated = 1;
  /* The model: the directory model/ next to the data file. */
  char dir[4096];
  const char *slash = strrchr(o.data, '/');
  snprintf(dir, sizeof dir, "%.*smodel/", slash ? (int)(slash - o.data + 1) : 0,
           o.data);
  read_model(&h.d.m, dir);
  read_hand(&h, o.data);
  const char *bench = h.d.complicated ? "ht-complicated" : "ht-simple";
  char size[128];
  ab_bench_size(&o, slash ? slash + 1 : o.data, "hand", "", size, sizeof size);
  printf("hand: %s, N=%d, Jacobian %ld x %d, model %s (%d bones, %d "
         "vertices)\n",
         bench, h.d.N, h.nrows, h.ncols, dir, h.d.m.nb, h.d.m.nv);

  ab_jac_result r = {ab_nan(), ab_nan(), ab_nan(), ab_nan(), ab_nan(),
                     h.ncols,  ab_nan(), ab_nan(), ab_nan(), h.ncolors};
  int verified = hand_verify(&h, &o, &r.objective);
  const ab_fn fns[4] = {hand_primal, hand_jacobian_reverse,
                        hand_jacobian_forward, hand_jacobian_batched};
  return ab_jac_finish(&o, bench, size, &r, verified, fns, &r.jac_batch,
                       hand_jacobian_compressed, hand_one_point, &h);
}
