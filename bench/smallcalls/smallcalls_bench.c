/* smallcalls_bench.c: the fixed cost of small derivative calls.
 *
 * Gradients of tiny functions (a few dozen operations), each called once
 * per point of a batch, millions of times in all: what one call costs
 * beyond its arithmetic (setting up and releasing the tape, runtime calls)
 * dominates here. Written the way such code is written for Enzyme (and
 * built, by bench/run, with the flags of Enzyme's ADBench Makefiles:
 * -O2 -fno-vectorize -fno-slp-vectorize -ffast-math -fno-unroll-loops):
 *
 *   small-expr   f(x) of 3 inputs, straight-line (about 30 operations);
 *   small-loop   f(x) of 8 inputs through a loop of 8 iterations (the
 *                derivative records each iteration's values);
 *   ba-residual  bundle adjustment's reprojection error of one observation
 *                (Rodrigues rotation, radial distortion; 2 residuals of a
 *                camera of 11, a point of 3 and a weight), in a function
 *                with small fixed-size arrays and 3-iteration loops,
 *                called in a loop over the observations; its Jacobian by
 *                reverse mode is two gradient calls per observation, one
 *                per residual (as ADBench's BA computes it);
 *   ba-callees   the same residual written as ADBench's C sources write
 *                it: restrict pointers, the rotation in a function of its
 *                own that is not inlined (there, an external function
 *                the inliner leaves as a call; here noinline, for both
 *                compilers alike), so that each derivative call runs the
 *                rotation's derivative sweeps as a callee's.
 *
 * For each it times, per call (medians of interleaved samples, or with
 * --best their minimum, for a loaded machine): the
 * primal; the gradient (__enzyme_autodiff, with the zeroing of the shadow
 * arrays such a call needs; the BA rows: both rows of the Jacobian); one
 * tangent (__enzyme_fwddiff, one direction); small-expr also a
 * hand-written gradient. Every derivative is verified before it is timed:
 * against central finite differences, forward mode against reverse mode
 * on every coordinate, and (small-expr) the hand-written gradient. A wrong
 * derivative is reported, not timed, and makes the program exit with 1.
 *
 * Only the Enzyme C API is used, so the same file builds with
 *   adcc -O2 ... smallcalls_bench.c -lm
 *   clang-19 -fplugin=ClangEnzyme-19.so -O2 ... smallcalls_bench.c -lm
 *
 * Usage: smallcalls_bench [--quick] [--json FILE] [--min-time S]
 *                         [--samples N] [--only NAME[,NAME...]]
 *                         [--verbose] [--verify-only] [--best]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/measure.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))

/* ---- The functions differentiated -------------------------------------- */

static double small_expr(const double *x) {
  double a = x[0] * x[1] + x[2];
  double b = sin(a) * exp(-0.5 * x[0] * x[0]);
  double c = (x[1] - x[2]) / (1.0 + x[0] * x[0] + x[2] * x[2]);
  double d = sqrt(1.0 + b * b) + c * c * x[1];
  return log(1.0 + d * d) + a * c - tanh(b * x[2]);
}

enum { LOOP_N = 8 };

static double small_loop(const double *x) {
  double s = 0, p = 1;
  for (int i = 0; i < LOOP_N; i++) {
    double y = x[i] * x[(i + 1) % LOOP_N];
    s += log(1.0 + exp(y)) * p;
    p = 0.5 * p + 0.25 * sin(x[i]);
  }
  return s;
}

/* Bundle adjustment's reprojection error, written as usual: camera
 * (rotation r[3], center c[3], focal length, principal point x0[2],
 * radial distortion k[2]), point X[3], weight w[0], feature feat[2]. */
enum { CAM = 11, ROT = 0, CENTER = 3, FOCAL = 6, X0 = 7, RAD = 9 };

static void cross3(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static double sqnorm3(const double *v) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += v[i] * v[i];
  return s;
}

/* (Inlined into both residuals: ba-callees' rotation is a call of its
 * own function, not of this shared one.) */
static inline __attribute__((always_inline)) void
rodrigues_rotate(const double *rot, const double *X, double *out) {
  double t2 = sqnorm3(rot);
  if (t2 != 0) {
    double theta = sqrt(t2), c = cos(theta), s = sin(theta);
    double w[3], wx[3], d = 0;
    for (int i = 0; i < 3; i++)
      w[i] = rot[i] / theta;
    cross3(w, X, wx);
    for (int i = 0; i < 3; i++)
      d += w[i] * X[i];
    double k = (1 - c) * d;
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * c + wx[i] * s + w[i] * k;
  } else {
    double rx[3];
    cross3(rot, X, rx);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] + rx[i];
  }
}

static void radial_distort(const double *rad, double *proj) {
  double r2 = proj[0] * proj[0] + proj[1] * proj[1];
  double L = 1 + rad[0] * r2 + rad[1] * r2 * r2;
  proj[0] *= L;
  proj[1] *= L;
}

/* The residual NAME, its pointers declared with QUAL, rotating by ROTATE. */
#define BA_RESIDUAL(NAME, QUAL, ROTATE)                                        \
  static void NAME(const double *QUAL cam, const double *QUAL X,               \
                   const double *QUAL w, const double *QUAL feat,              \
                   double *QUAL err) {                                         \
    double Xo[3], Xc[3], proj[2];                                              \
    for (int i = 0; i < 3; i++)                                                \
      Xo[i] = X[i] - cam[CENTER + i];                                          \
    ROTATE(&cam[ROT], Xo, Xc);                                                 \
    proj[0] = Xc[0] / Xc[2];                                                   \
    proj[1] = Xc[1] / Xc[2];                                                   \
    radial_distort(&cam[RAD], proj);                                           \
    for (int i = 0; i < 2; i++)                                                \
      err[i] = w[0] * (cam[FOCAL] * proj[i] + cam[X0 + i] - feat[i]);          \
  }

BA_RESIDUAL(ba_residual, , rodrigues_rotate)

/* The same residual in ADBench's style: restrict pointers, the rotation a
 * call. */
NOINLINE static void rotate_restrict(const double *restrict rot,
                                     const double *restrict X,
                                     double *restrict out) {
  rodrigues_rotate(rot, X, out);
}

BA_RESIDUAL(ba_residual_callee, restrict, rotate_restrict)

/* ---- Derivative calls (each a separate call site, not inlined) ---------- */

NOINLINE static double primal_expr(const double *x) { return small_expr(x); }

NOINLINE static void grad_expr(const double *x, double *dx) {
  dx[0] = dx[1] = dx[2] = 0;
  __enzyme_autodiff((void *)small_expr, enzyme_dup, x, dx);
}

NOINLINE static double tangent_expr(const double *x, const double *v) {
  return __enzyme_fwddiff((void *)small_expr, enzyme_dup, x, v);
}

/* The gradient as one writes it by hand (the analytic reference). */
NOINLINE static void hand_expr(const double *x, double *g) {
  double a = x[0] * x[1] + x[2];
  double e = exp(-0.5 * x[0] * x[0]), sa = sin(a), ca = cos(a);
  double b = sa * e;
  double q = 1.0 + x[0] * x[0] + x[2] * x[2];
  double c = (x[1] - x[2]) / q;
  double r = sqrt(1.0 + b * b);
  double d = r + c * c * x[1];
  double th = tanh(b * x[2]);
  double dd = 2 * d / (1.0 + d * d); /* dL/dd */
  double db = dd * b / r - (1 - th * th) * x[2];
  double dc = dd * 2 * c * x[1] + a;
  double da = c + db * ca * e;
  double dq = -dc * c / q;
  g[0] = da * x[1] + db * b * -x[0] + dq * 2 * x[0];
  g[1] = da * x[0] + dc / q + dd * c * c;
  g[2] = da - dc / q + dq * 2 * x[2] - (1 - th * th) * b;
}

NOINLINE static double primal_loop(const double *x) { return small_loop(x); }

NOINLINE static void grad_loop(const double *x, double *dx) {
  for (int i = 0; i < LOOP_N; i++)
    dx[i] = 0;
  __enzyme_autodiff((void *)small_loop, enzyme_dup, x, dx);
}

NOINLINE static double tangent_loop(const double *x, const double *v) {
  return __enzyme_fwddiff((void *)small_loop, enzyme_dup, x, v);
}

/* The primal, the gradient of row `row` of one observation's Jacobian (of
 * err[row]) and one tangent of a BA residual F, as functions NAME_F. */
#define BA_CALLS(F, PRIMAL, GRAD, TANGENT)                                     \
  NOINLINE static void PRIMAL(const double *cam, const double *X,              \
                              const double *w, const double *feat,             \
                              double *err) {                                   \
    F(cam, X, w, feat, err);                                                   \
  }                                                                            \
  NOINLINE static void GRAD(const double *cam, double *dcam, const double *X,  \
                            double *dX, const double *w, double *dw,           \
                            const double *feat, double *err, int row) {        \
    double derr[2] = {row == 0, row == 1};                                     \
    memset(dcam, 0, CAM * sizeof *dcam);                                       \
    dX[0] = dX[1] = dX[2] = 0;                                                 \
    dw[0] = 0;                                                                 \
    __enzyme_autodiff((void *)F, enzyme_dup, cam, dcam, enzyme_dup, X, dX,     \
                      enzyme_dup, w, dw, enzyme_const, feat, enzyme_dupnoneed, \
                      err, derr);                                              \
  }                                                                            \
  NOINLINE static void TANGENT(const double *cam, const double *dcam,          \
                               const double *X, const double *dX,              \
                               const double *w, const double *dw,              \
                               const double *feat, double *err,                \
                               double *derr) {                                 \
    __enzyme_fwddiff((void *)F, enzyme_dup, cam, dcam, enzyme_dup, X, dX,      \
                     enzyme_dup, w, dw, enzyme_const, feat, enzyme_dup, err,   \
                     derr);                                                    \
  }

BA_CALLS(ba_residual, primal_ba, grad_ba, tangent_ba)
BA_CALLS(ba_residual_callee, primal_bac, grad_bac, tangent_bac)

/* ---- Instances ----------------------------------------------------------- */

enum { NPTS = 512, NCAMS = 16, NPOINTS = 128 };
enum { V_PRIMAL, V_GRAD, V_FWD, V_HAND, NVAR };

typedef struct {
  const char *name;
  int nin; /* inputs of one call */
  double *x, *dx, *v;
  /* ba-residual, ba-callees */
  int ba; /* 1: ba-residual, 2: ba-callees (direct calls: the plain
             row's code stays what it was without the other row) */
  double *cams, *points, *weights, *feats, *err, *derr;
  int *cam_of, *point_of;
} bench_t;

static volatile double sink;

static double run_variant(bench_t *b, int var) {
  double acc = 0;
  if (b->ba) {
    double *J = b->dx; /* scratch: 2 rows of CAM + 3 + 1 */
    for (int o = 0; o < NPTS; o++) {
      const double *cam = &b->cams[CAM * b->cam_of[o]];
      const double *X = &b->points[3 * b->point_of[o]];
      const double *w = &b->weights[o], *feat = &b->feats[2 * o];
      double *err = &b->err[2 * o];
      if (var == V_PRIMAL) {
        if (b->ba == 2)
          primal_bac(cam, X, w, feat, err);
        else
          primal_ba(cam, X, w, feat, err);
        acc += err[0];
      } else if (var == V_GRAD) {
        for (int row = 0; row < 2; row++)
          if (b->ba == 2)
            grad_bac(cam, J + 15 * row, X, J + 15 * row + CAM, w,
                     J + 15 * row + CAM + 3, feat, err, row);
          else
            grad_ba(cam, J + 15 * row, X, J + 15 * row + CAM, w,
                    J + 15 * row + CAM + 3, feat, err, row);
        acc += J[0] + J[15];
      } else {
        /* one direction: the first camera parameter */
        double dcam[CAM] = {1}, dX[3] = {0}, dw = 0, derr[2];
        if (b->ba == 2)
          tangent_bac(cam, dcam, X, dX, w, &dw, feat, err, derr);
        else
          tangent_ba(cam, dcam, X, dX, w, &dw, feat, err, derr);
        acc += derr[0];
      }
    }
    return acc;
  }
  int expr = !strcmp(b->name, "small-expr");
  for (int p = 0; p < NPTS; p++) {
    const double *x = &b->x[b->nin * p];
    double *dx = &b->dx[b->nin * p];
    switch (var) {
    case V_PRIMAL:
      acc += expr ? primal_expr(x) : primal_loop(x);
      break;
    case V_GRAD:
      expr ? grad_expr(x, dx) : grad_loop(x, dx);
      acc += dx[0];
      break;
    case V_FWD:
      acc += expr ? tangent_expr(x, b->v) : tangent_loop(x, b->v);
      break;
    default:
      hand_expr(x, dx);
      acc += dx[0];
    }
  }
  return acc;
}

static void setup(bench_t *b) {
  b->ba = !strcmp(b->name, "ba-residual")  ? 1
          : !strcmp(b->name, "ba-callees") ? 2
                                           : 0;
  if (b->ba) {
    b->nin = CAM + 3 + 1;
    b->cams = alloc(CAM * NCAMS);
    b->points = alloc(3 * NPOINTS);
    b->weights = alloc(NPTS);
    b->feats = alloc(2 * NPTS);
    b->err = alloc(2 * NPTS);
    b->dx = alloc(2 * 15);
    b->cam_of = malloc(NPTS * sizeof(int));
    b->point_of = malloc(NPTS * sizeof(int));
    for (int c = 0; c < NCAMS; c++) {
      double *cam = &b->cams[CAM * c];
      for (int i = 0; i < 3; i++) {
        cam[ROT + i] = urand(-0.3, 0.3);
        cam[CENTER + i] = urand(-1, 1);
      }
      cam[FOCAL] = urand(400, 600);
      cam[X0] = urand(-5, 5);
      cam[X0 + 1] = urand(-5, 5);
      cam[RAD] = urand(-1e-2, 1e-2);
      cam[RAD + 1] = urand(-1e-3, 1e-3);
    }
    /* Points in front of the cameras (z well away from 0). */
    for (int p = 0; p < NPOINTS; p++) {
      b->points[3 * p] = urand(-2, 2);
      b->points[3 * p + 1] = urand(-2, 2);
      b->points[3 * p + 2] = urand(8, 12);
    }
    for (int o = 0; o < NPTS; o++) {
      b->cam_of[o] = o % NCAMS;
      b->point_of[o] = (o * 7) % NPOINTS;
      b->weights[o] = urand(0.5, 1.5);
      b->feats[2 * o] = urand(-50, 50);
      b->feats[2 * o + 1] = urand(-50, 50);
    }
    return;
  }
  b->nin = !strcmp(b->name, "small-expr") ? 3 : LOOP_N;
  b->x = alloc(b->nin * NPTS);
  b->dx = alloc(b->nin * NPTS);
  b->v = alloc(b->nin);
  for (long i = 0; i < (long)b->nin * NPTS; i++)
    b->x[i] = urand(-1.2, 1.2);
  for (int i = 0; i < b->nin; i++)
    b->v[i] = urand(-1, 1);
}

/* ---- Verification -------------------------------------------------------- */

/* One scalar function of the call's inputs u[0..nin) and its derivatives,
 * for point or observation p (the BA rows: residual `row`). */
static void ba_split(bench_t *b, int p, const double *u, double *cam,
                     double *X, double *w) {
  memcpy(cam, u, CAM * sizeof *cam);
  memcpy(X, u + CAM, 3 * sizeof *X);
  w[0] = u[CAM + 3];
  (void)b;
  (void)p;
}

static void inputs_of(bench_t *b, int p, double *u) {
  if (b->ba) {
    memcpy(u, &b->cams[CAM * b->cam_of[p]], CAM * sizeof *u);
    memcpy(u + CAM, &b->points[3 * b->point_of[p]], 3 * sizeof *u);
    u[CAM + 3] = b->weights[p];
  } else {
    memcpy(u, &b->x[b->nin * p], b->nin * sizeof *u);
  }
}

static double value_at(bench_t *b, int p, int row, const double *u) {
  if (b->ba) {
    double cam[CAM], X[3], w[1], err[2];
    ba_split(b, p, u, cam, X, w);
    if (b->ba == 2)
      ba_residual_callee(cam, X, w, &b->feats[2 * p], err);
    else
      ba_residual(cam, X, w, &b->feats[2 * p], err);
    return err[row];
  }
  return !strcmp(b->name, "small-expr") ? small_expr(u) : small_loop(u);
}

static void gradient_at(bench_t *b, int p, int row, const double *u,
                        double *g) {
  if (b->ba) {
    double cam[CAM], X[3], w[1], err[2];
    ba_split(b, p, u, cam, X, w);
    if (b->ba == 2)
      grad_bac(cam, g, X, g + CAM, w, g + CAM + 3, &b->feats[2 * p], err, row);
    else
      grad_ba(cam, g, X, g + CAM, w, g + CAM + 3, &b->feats[2 * p], err, row);
    return;
  }
  !strcmp(b->name, "small-expr") ? grad_expr(u, g) : grad_loop(u, g);
}

static double tangent_at(bench_t *b, int p, int row, const double *u,
                         const double *du) {
  if (b->ba) {
    double cam[CAM], X[3], w[1], dcam[CAM], dX[3], dw[1], err[2], derr[2];
    ba_split(b, p, u, cam, X, w);
    ba_split(b, p, du, dcam, dX, dw);
    if (b->ba == 2)
      tangent_bac(cam, dcam, X, dX, w, dw, &b->feats[2 * p], err, derr);
    else
      tangent_ba(cam, dcam, X, dX, w, dw, &b->feats[2 * p], err, derr);
    return derr[row];
  }
  return !strcmp(b->name, "small-expr") ? tangent_expr(u, du)
                                        : tangent_loop(u, du);
}

/* Checks points 0, 1, 2 (both residuals of the BA rows): the gradient
 * against central differences (relative 1e-6 of the largest entry), every
 * unit tangent against the gradient's entry (1e-10), and the hand-written
 * gradient (1e-10). */
static int verify(bench_t *b, int verbose, int *hand_ok) {
  int ok = 1, rows = b->ba ? 2 : 1;
  *hand_ok = !strcmp(b->name, "small-expr");
  double u[16], g[16], fd[16], tg[16], e[16];
  for (int p = 0; p < 3; p++)
    for (int row = 0; row < rows; row++) {
      inputs_of(b, p, u);
      gradient_at(b, p, row, u, g);
      for (int i = 0; i < b->nin; i++) {
        double keep = u[i], h = 1e-6 * (fabs(keep) > 1 ? fabs(keep) : 1);
        u[i] = keep + h;
        double up = value_at(b, p, row, u);
        u[i] = keep - h;
        double down = value_at(b, p, row, u);
        u[i] = keep;
        fd[i] = (up - down) / (2 * h);
        memset(e, 0, sizeof e);
        e[i] = 1;
        tg[i] = tangent_at(b, p, row, u, e);
      }
      double efd = rel_err(g, fd, b->nin, 1e-3);
      double etg = rel_err(tg, g, b->nin, 1e-12);
      if (verbose)
        printf("  %s point %d row %d: gradient vs differences %.1e, "
               "tangents vs gradient %.1e\n",
               b->name, p, row, efd, etg);
      ok &= efd < 1e-6 && etg < 1e-10;
      if (*hand_ok) {
        double h[3];
        hand_expr(u, h);
        double eh = rel_err(g, h, 3, 1e-12);
        if (verbose)
          printf("  %s point %d: gradient vs hand-written %.1e\n", b->name, p,
                 eh);
        *hand_ok &= eh < 1e-10;
        ok &= eh < 1e-10;
      }
    }
  return ok;
}

/* ---- Main ------------------------------------------------------------------ */

/* A JSON number, or null when it was not measured. (Not by testing for
 * NaN: this file is built with -ffast-math, under which a compiler may
 * assume that no value is one.) */
static void json_opt(FILE *f, const char *key, int have, double v) {
  if (have)
    fprintf(f, "\"%s\": %.6g, ", key, v);
  else
    fprintf(f, "\"%s\": null, ", key);
}

static void usage(FILE *f) {
  fprintf(f, "Usage: smallcalls_bench [--quick] [--json FILE] [--min-time S] "
             "[--samples N]\n"
             "                        [--only NAME[,NAME...]] [--verbose] "
             "[--verify-only] [--best]\n"
             "  --best: the fastest sample instead of the median (a loaded "
             "machine:\n"
             "          --best --samples 3000 --min-time 1e-9)\n"
             "  benchmarks: small-expr small-loop ba-residual ba-callees\n");
}

static double time_reps(bench_t *b, int var, long reps) {
  double acc = 0, t0 = now();
  for (long r = 0; r < reps; r++)
    acc += run_variant(b, var);
  double t = now() - t0;
  sink += acc;
  return t;
}

int main(int argc, char **argv) {
  int quick = 0, samples = 7, verify_only = 0, verbose = 0, best = 0;
  double min_time = 0.05;
  const char *json = NULL, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else if (!strcmp(argv[i], "--min-time") && i + 1 < argc)
      min_time = atof(argv[++i]);
    else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--verbose"))
      verbose = 1;
    else if (!strcmp(argv[i], "--best"))
      best = 1;
    else if (!strcmp(argv[i], "--verify-only"))
      verify_only = verbose = 1;
    else {
      usage(!strcmp(argv[i], "--help") ? stdout : stderr);
      return !strcmp(argv[i], "--help") ? 0 : 2;
    }
  }
  if (quick) {
    samples = samples < 3 ? samples : 3;
    min_time = min_time < 0.02 ? min_time : 0.02;
  }
  if (samples < 1 || samples > 100000 || !(min_time > 0)) {
    usage(stderr);
    return 2;
  }
  static const char *const names[] = {"small-expr", "small-loop", "ba-residual",
                                      "ba-callees"};
  enum { NB = 4 };
  bench_t benches[NB];
  double T[NB][NVAR];
  int verified[NB], ran[NB], hand[NB], status = 0;
  memset(verified, 0, sizeof verified);
  memset(hand, 0, sizeof hand);
  printf("%-12s %-22s %12s %12s %12s %12s %9s\n", "benchmark", "calls",
         "primal ns", "gradient ns", "forward ns", "hand ns", "grad/pr");
  for (int k = 0; k < NB; k++) {
    memset(&benches[k], 0, sizeof benches[k]);
    benches[k].name = names[k];
    ran[k] = selected(only, names[k]);
    if (!ran[k])
      continue;
    bench_t *b = &benches[k];
    setup(b);
    verified[k] = verify(b, verbose, &hand[k]);
    if (!verified[k]) {
      printf("%-12s WRONG DERIVATIVE\n", b->name);
      status = 1;
      continue;
    }
    if (verify_only)
      continue;
    int on[NVAR] = {1, 1, 1, hand[k]};
    long reps[NVAR];
    double *t[NVAR];
    for (int v = 0; v < NVAR; v++) {
      t[v] = alloc(samples);
      T[k][v] = nan_value();
      if (!on[v])
        continue;
      reps[v] = 1;
      for (double s; (s = time_reps(b, v, reps[v])) < min_time;)
        reps[v] = next_reps(reps[v], s, min_time);
    }
    for (int i = 0; i < samples; i++)
      for (int v = 0; v < NVAR; v++)
        if (on[v])
          t[v][i] = time_reps(b, v, reps[v]) / (double)(reps[v] * NPTS);
    for (int v = 0; v < NVAR; v++) {
      if (on[v] && best) {
        T[k][v] = t[v][0];
        for (int i = 1; i < samples; i++)
          T[k][v] = t[v][i] < T[k][v] ? t[v][i] : T[k][v];
      } else if (on[v]) {
        T[k][v] = median(t[v], samples);
      }
      release(t[v]);
    }
    char hand_ns[16] = "           -";
    if (on[V_HAND])
      snprintf(hand_ns, sizeof hand_ns, "%12.1f", T[k][V_HAND] * 1e9);
    printf("%-12s %-22s %12.1f %12.1f %12.1f %s %9.2f\n", b->name,
           k >= 2 ? "512 observations" : "512 points", T[k][V_PRIMAL] * 1e9,
           T[k][V_GRAD] * 1e9, T[k][V_FWD] * 1e9, hand_ns,
           T[k][V_GRAD] / T[k][V_PRIMAL]);
  }
  if (json && !verify_only) {
    FILE *f = fopen(json, "w");
    if (!f) {
      fprintf(stderr, "smallcalls_bench: cannot write %s\n", json);
      return 2;
    }
    fprintf(f, "[\n");
    int first = 1;
    for (int k = 0; k < NB; k++) {
      if (!ran[k])
        continue;
      fprintf(f, "%s  {\"benchmark\": \"%s\", \"size\": \"%s\", ",
              first ? "" : ",\n", names[k],
              k == 0   ? "3 inputs"
              : k == 1 ? "8 inputs, 8 iterations"
                       : "15 inputs, 2 rows");
      first = 0;
      int ok = verified[k], h = ok && hand[k];
      const double *t = T[k];
      json_opt(f, "primal_s", ok, t[V_PRIMAL]);
      json_opt(f, "gradient_s", ok, t[V_GRAD]);
      json_opt(f, "gradient_ratio", ok, t[V_GRAD] / t[V_PRIMAL]);
      json_opt(f, "forward_s", ok, t[V_FWD]);
      json_opt(f, "forward_ratio", ok, t[V_FWD] / t[V_PRIMAL]);
      json_opt(f, "hand_s", h, t[V_HAND]);
      json_opt(f, "hand_ratio", h, t[V_HAND] / t[V_PRIMAL]);
      fprintf(f, "\"calls_per_sample\": %d, \"verified\": %s, \"samples\": %d}",
              NPTS, ok ? "true" : "false", samples);
    }
    fprintf(f, "\n]\n");
    fclose(f);
  }
  return status;
}
