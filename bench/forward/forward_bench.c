/* forward_bench.c: forward-mode (tangent) benchmark for adcc.
 *
 * For each kernel and size it measures, in one process:
 *   - the primal;
 *   - one forward-mode derivative (width 1: value and one tangent);
 *   - batched forward mode with enzyme_width 2, 4 and 8 (2, 4 or 8 tangents
 *     per call);
 *   - a hand-written tangent (width 1), as a reference for what the
 *     derivative could cost.
 * Every variant is verified before it is timed, for 8 directions, against
 * central finite differences and exactly against a reference (width 1: the
 * hand-written tangent; widths 2, 4 and 8: width 1).  A wrong derivative is
 * reported as WRONG, is not timed, and makes the program exit with 1.
 *
 * Only the Enzyme C API is used (__enzyme_fwddiff* with enzyme_dup,
 * enzyme_dupnoneed, enzyme_const and enzyme_width), so the same file is
 * meant to build with
 *   adcc -O2 forward_bench.c -lm
 *   clang -O2 -fplugin=ClangEnzyme-22.so forward_bench.c -lm
 * Batched derivatives of the scalar-valued kernels return a struct of 4 or 8
 * doubles (typedef vec4 / vec8 below).  Define FWD_BENCH_NO_STRUCT_RETURN
 * to request them through a void wrapper with an output argument instead (for
 * compilers that cannot lower a struct-returning request); run.sh does that
 * automatically when a probe shows it is needed.
 *
 * Usage: forward_bench [--quick] [--json FILE] [--min-time S] [--samples N]
 *                      [--only NAME[,NAME...]] [--verbose] [--verify-only]
 * See README.md in this directory.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- The Enzyme-compatible API ----------------------------------------- */

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width;
typedef struct { double d[2]; } vec2;
typedef struct { double d[4]; } vec4;
typedef struct { double d[8]; } vec8;
double __enzyme_fwddiff(void *, ...);   /* width 1, scalar result   */
vec2 __enzyme_fwddiff_w2(void *, ...);  /* width 2, scalar result   */
vec4 __enzyme_fwddiff_w4(void *, ...);  /* width 4, scalar result   */
vec8 __enzyme_fwddiff_w8(void *, ...);  /* width 8, scalar result   */
void __enzyme_fwddiff_void(void *, ...); /* results through pointers */

#define NOINLINE __attribute__((noinline))
#define MAXDIR 8
/* The 2, 4 or 8 shadows of one duplicated argument. */
#define SH2(a) (a)[0], (a)[1]
#define SH4(a) (a)[0], (a)[1], (a)[2], (a)[3]
#define SH8(a) (a)[0], (a)[1], (a)[2], (a)[3], (a)[4], (a)[5], (a)[6], (a)[7]

/* ---- Kernels (the functions that are differentiated) ------------------- */
#include "../common/kernels.h"
#include "../common/measure.h"

/* ---- Hand-written tangents (width 1, primal and tangent fused) --------- */
#include "hand_tangents.h"

/* ---- Benchmark instances ----------------------------------------------- */

enum { ROLE_IN, ROLE_OUT, ROLE_TMP };

typedef struct {
  int role;       /* active input, active output, or duplicated work array */
  long len;
  double *v;      /* primal values                                        */
  double *orig;   /* ROLE_IN: the unperturbed input                       */
  double *d[MAXDIR]; /* shadows: seeds (IN) or tangents (OUT, TMP)        */
} arr_t;

typedef struct bench bench_t;
typedef double (*runfn)(bench_t *, int);

struct bench {
  const char *name;
  char size[48];
  int n, steps;
  double h;
  double *c;        /* a constant (inactive) input: A of matvec, B of matmul */
  int narr;
  arr_t a[4];
  int has_ret;      /* scalar result: ret / dret[] instead of an output array */
  double ret, dret[MAXDIR];
  /* fwd1, hand: direction k; fwd2, fwd4: directions k..k+1, k..k+3;
   * fwd8: all 8 */
  runfn primal, fwd1, fwd2, fwd4, fwd8, hand;
};

/* Every kernel gets the same five wrappers.  They are noinline so that the
 * primal and each derivative are timed as separate calls with the same
 * overhead; each returns a value that the timing loop sinks. */

#define A0 b->a[0]
#define A1 b->a[1]
#define A2 b->a[2]

/* The batched wrappers of a kernel are one macro instantiated for W = 2, 4
 * and 8: directions k..k+W-1 (the timing calls them with k = 0). OUTW(t):
 * the W tangent outputs t[0..W-1] of a void wrapper. */
#define OUT2(t) (t), (t) + 1
#define OUT4(t) OUT2(t), (t) + 2, (t) + 3
#define OUT8(t) OUT4(t), (t) + 4, (t) + 5, (t) + 6, (t) + 7
#define EACH_WIDTH(M) M(2) M(4) M(8)

/* dot: x, y active */
static NOINLINE double dot_primal(bench_t *b, int k) {
  (void)k;
  return b->ret = dot(A0.v, A1.v, b->n);
}
static NOINLINE double dot_fwd1(bench_t *b, int k) {
  return b->dret[k] = __enzyme_fwddiff((void *)dot, enzyme_dup, A0.v, A0.d[k],
                                       enzyme_dup, A1.v, A1.d[k], enzyme_const,
                                       b->n);
}
static NOINLINE double dot_hand(bench_t *b, int k) {
  return b->dret[k] = dot_tan(A0.v, A0.d[k], A1.v, A1.d[k], b->n);
}
#ifndef FWD_BENCH_NO_STRUCT_RETURN
#define DOT_BATCH(W)                                                           \
  static NOINLINE double dot_fwd##W(bench_t *b, int k) {                       \
    vec##W r = __enzyme_fwddiff_w##W((void *)dot, enzyme_width, W, enzyme_dup, \
                                     A0.v, SH##W(A0.d + k), enzyme_dup, A1.v,  \
                                     SH##W(A1.d + k), enzyme_const, b->n);     \
    memcpy(b->dret + k, r.d, sizeof r.d);                                      \
    return r.d[0];                                                             \
  }
#else
/* The fallback: a void wrapper whose result is duplicated but not needed
 * (enzyme_dupnoneed), so that, as with the struct return, only the tangents
 * are computed. */
static void dot_out(const double *x, const double *y, int n, double *r) {
  *r = dot(x, y, n);
}
#define DOT_BATCH(W)                                                           \
  static NOINLINE double dot_fwd##W(bench_t *b, int k) {                       \
    double r, *t = b->dret + k;                                                \
    __enzyme_fwddiff_void((void *)dot_out, enzyme_width, W, enzyme_dup, A0.v,  \
                          SH##W(A0.d + k), enzyme_dup, A1.v, SH##W(A1.d + k),  \
                          enzyme_const, b->n, enzyme_dupnoneed, &r, OUT##W(t)); \
    return t[0];                                                               \
  }
#endif
EACH_WIDTH(DOT_BATCH)

/* Kernels f(const double *x, int n) -> double with x active: sumsq,
 * rosenbrock, logsumexp. */
#ifndef FWD_BENCH_NO_STRUCT_RETURN
#define SCALAR_BATCH(f, W)                                                     \
  static NOINLINE double f##_fwd##W(bench_t *b, int k) {                       \
    vec##W r = __enzyme_fwddiff_w##W((void *)f, enzyme_width, W, enzyme_dup,   \
                                     A0.v, SH##W(A0.d + k), enzyme_const,      \
                                     b->n);                                    \
    memcpy(b->dret + k, r.d, sizeof r.d);                                      \
    return r.d[0];                                                             \
  }
#define SCALAR_OUT(f)
#else
#define SCALAR_BATCH(f, W)                                                     \
  static NOINLINE double f##_fwd##W(bench_t *b, int k) {                       \
    double r, *t = b->dret + k;                                                \
    __enzyme_fwddiff_void((void *)f##_out, enzyme_width, W, enzyme_dup, A0.v,  \
                          SH##W(A0.d + k), enzyme_const, b->n,                 \
                          enzyme_dupnoneed, &r, OUT##W(t));                    \
    return t[0];                                                               \
  }
#define SCALAR_OUT(f)                                                          \
  static void f##_out(const double *x, int n, double *r) { *r = f(x, n); }
#endif
#define SCALAR_KERNEL(f)                                                       \
  static NOINLINE double f##_primal(bench_t *b, int k) {                       \
    (void)k;                                                                   \
    return b->ret = f(A0.v, b->n);                                             \
  }                                                                            \
  static NOINLINE double f##_fwd1(bench_t *b, int k) {                         \
    return b->dret[k] = __enzyme_fwddiff((void *)f, enzyme_dup, A0.v, A0.d[k], \
                                         enzyme_const, b->n);                  \
  }                                                                            \
  static NOINLINE double f##_hand(bench_t *b, int k) {                         \
    return b->dret[k] = f##_tan(A0.v, A0.d[k], b->n);                          \
  }                                                                            \
  SCALAR_OUT(f)                                                                \
  SCALAR_BATCH(f, 2) SCALAR_BATCH(f, 4) SCALAR_BATCH(f, 8)
SCALAR_KERNEL(sumsq)
SCALAR_KERNEL(rosenbrock)
SCALAR_KERNEL(logsumexp)

/* matvec: a[0] = x (in), a[1] = y (out), c = A */
static NOINLINE double matvec_primal(bench_t *b, int k) {
  (void)k;
  matvec(b->c, A0.v, A1.v, b->n);
  return A1.v[0];
}
static NOINLINE double matvec_fwd1(bench_t *b, int k) {
  __enzyme_fwddiff_void((void *)matvec, enzyme_const, b->c, enzyme_dup, A0.v,
                        A0.d[k], enzyme_dup, A1.v, A1.d[k], enzyme_const, b->n);
  return A1.d[k][0];
}
#define MATVEC_BATCH(W)                                                        \
  static NOINLINE double matvec_fwd##W(bench_t *b, int k) {                    \
    __enzyme_fwddiff_void((void *)matvec, enzyme_width, W, enzyme_const, b->c, \
                          enzyme_dup, A0.v, SH##W(A0.d + k), enzyme_dup, A1.v, \
                          SH##W(A1.d + k), enzyme_const, b->n);                \
    return A1.d[k][0];                                                         \
  }
EACH_WIDTH(MATVEC_BATCH)
static NOINLINE double matvec_hand(bench_t *b, int k) {
  matvec_tan(b->c, A0.v, A0.d[k], A1.v, A1.d[k], b->n);
  return A1.d[k][0];
}

/* matmul: a[0] = A (in), a[1] = C (out), c = B */
static NOINLINE double matmul_primal(bench_t *b, int k) {
  (void)k;
  matmul(A0.v, b->c, A1.v, b->n);
  return A1.v[0];
}
static NOINLINE double matmul_fwd1(bench_t *b, int k) {
  __enzyme_fwddiff_void((void *)matmul, enzyme_dup, A0.v, A0.d[k],
                        enzyme_const, b->c, enzyme_dup, A1.v, A1.d[k],
                        enzyme_const, b->n);
  return A1.d[k][0];
}
#define MATMUL_BATCH(W)                                                        \
  static NOINLINE double matmul_fwd##W(bench_t *b, int k) {                    \
    __enzyme_fwddiff_void((void *)matmul, enzyme_width, W, enzyme_dup, A0.v,   \
                          SH##W(A0.d + k), enzyme_const, b->c, enzyme_dup,     \
                          A1.v, SH##W(A1.d + k), enzyme_const, b->n);          \
    return A1.d[k][0];                                                         \
  }
EACH_WIDTH(MATMUL_BATCH)
static NOINLINE double matmul_hand(bench_t *b, int k) {
  matmul_tan(A0.v, A0.d[k], b->c, A1.v, A1.d[k], b->n);
  return A1.d[k][0];
}

/* Stencils: a[0] = u0 (in), a[1] = u (out), a[2] = w (work) */
#define STENCIL_BATCH(f, W)                                                    \
  static NOINLINE double f##_fwd##W(bench_t *b, int k) {                       \
    __enzyme_fwddiff_void((void *)f, enzyme_width, W, enzyme_dup, A0.v,        \
                          SH##W(A0.d + k), enzyme_dup, A1.v, SH##W(A1.d + k),  \
                          enzyme_dup, A2.v, SH##W(A2.d + k), enzyme_const,     \
                          b->n, enzyme_const, b->steps);                       \
    return A1.d[k][1];                                                         \
  }
#define STENCIL_KERNEL(f)                                                      \
  static NOINLINE double f##_primal(bench_t *b, int k) {                       \
    (void)k;                                                                   \
    f(A0.v, A1.v, A2.v, b->n, b->steps);                                       \
    return A1.v[1];                                                            \
  }                                                                            \
  static NOINLINE double f##_fwd1(bench_t *b, int k) {                         \
    __enzyme_fwddiff_void((void *)f, enzyme_dup, A0.v, A0.d[k], enzyme_dup,    \
                          A1.v, A1.d[k], enzyme_dup, A2.v, A2.d[k],            \
                          enzyme_const, b->n, enzyme_const, b->steps);         \
    return A1.d[k][1];                                                         \
  }                                                                            \
  STENCIL_BATCH(f, 2) STENCIL_BATCH(f, 4) STENCIL_BATCH(f, 8)                  \
  static NOINLINE double f##_hand(bench_t *b, int k) {                         \
    f##_tan(A0.v, A0.d[k], A1.v, A1.d[k], A2.v, A2.d[k], b->n, b->steps);      \
    return A1.d[k][1];                                                         \
  }
STENCIL_KERNEL(heat1d)
STENCIL_KERNEL(stencil2d)

/* rk4: a[0] = rate constants (in), a[1] = y0 (in), a[2] = y (out) */
static NOINLINE double rk4_primal(bench_t *b, int k) {
  (void)k;
  rk4(A0.v, A1.v, A2.v, b->steps, b->h);
  return A2.v[3];
}
static NOINLINE double rk4_fwd1(bench_t *b, int k) {
  __enzyme_fwddiff_void((void *)rk4, enzyme_dup, A0.v, A0.d[k], enzyme_dup,
                        A1.v, A1.d[k], enzyme_dup, A2.v, A2.d[k], enzyme_const,
                        b->steps, enzyme_const, b->h);
  return A2.d[k][3];
}
#define RK4_BATCH(W)                                                           \
  static NOINLINE double rk4_fwd##W(bench_t *b, int k) {                       \
    __enzyme_fwddiff_void((void *)rk4, enzyme_width, W, enzyme_dup, A0.v,      \
                          SH##W(A0.d + k), enzyme_dup, A1.v, SH##W(A1.d + k),  \
                          enzyme_dup, A2.v, SH##W(A2.d + k), enzyme_const,     \
                          b->steps, enzyme_const, b->h);                       \
    return A2.d[k][3];                                                         \
  }
EACH_WIDTH(RK4_BATCH)
static NOINLINE double rk4_hand(bench_t *b, int k) {
  rk4_tan(A0.v, A0.d[k], A1.v, A1.d[k], A2.v, A2.d[k], b->steps, b->h);
  return A2.d[k][3];
}

/* ---- Set-up ------------------------------------------------------------- */

/* Adds an array; inputs get values in [lo, hi] and seeds in [-1, 1]. */
static arr_t *add_arr(bench_t *b, int role, long len, double lo, double hi) {
  arr_t *a = &b->a[b->narr++];
  a->role = role;
  a->len = len;
  a->v = alloc(len);
  for (int k = 0; k < MAXDIR; k++)
    a->d[k] = alloc(len);
  if (role == ROLE_IN) {
    a->orig = alloc(len);
    for (long i = 0; i < len; i++)
      a->v[i] = a->orig[i] = urand(lo, hi);
    for (int k = 0; k < MAXDIR; k++)
      for (long i = 0; i < len; i++)
        a->d[k][i] = urand(-1, 1);
  }
  return a;
}

static void free_bench(bench_t *b) {
  for (int j = 0; j < b->narr; j++) {
    release(b->a[j].v);
    release(b->a[j].orig);
    for (int k = 0; k < MAXDIR; k++)
      release(b->a[j].d[k]);
  }
  release(b->c);
  memset(b, 0, sizeof *b);
}

#define SET_FNS(b, f)                                                          \
  ((b)->primal = f##_primal, (b)->fwd1 = f##_fwd1, (b)->fwd2 = f##_fwd2,       \
   (b)->fwd4 = f##_fwd4, (b)->fwd8 = f##_fwd8, (b)->hand = f##_hand)

/* The size table and each kernel's arrays (bench/common/instances.h). */
#define BENCH_LOGSUMEXP_LARGE 65536
#include "../common/instances.h"

/* ---- Verification -------------------------------------------------------- */

static long out_len(const bench_t *b) {
  long len = b->has_ret;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT)
      len += b->a[j].len;
  return len;
}

/* The primal result (k < 0) or tangent k, flattened into buf. */
static void gather(const bench_t *b, int k, double *buf) {
  long p = 0;
  if (b->has_ret)
    buf[p++] = k < 0 ? b->ret : b->dret[k];
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT) {
      memcpy(buf + p, k < 0 ? b->a[j].v : b->a[j].d[k],
             b->a[j].len * sizeof(double));
      p += b->a[j].len;
    }
}

/* NaN and infinity by their bits, so that the checks also hold when the
 * benchmark is built with -ffast-math (which lets isnan() fold to false). */
/* Fills every tangent slot with NaN so that an unwritten one is noticed. */
static void poison(bench_t *b) {
  for (int k = 0; k < MAXDIR; k++) {
    b->dret[k] = nan_value();
    for (int j = 0; j < b->narr; j++)
      if (b->a[j].role != ROLE_IN)
        for (long i = 0; i < b->a[j].len; i++)
          b->a[j].d[k][i] = nan_value();
  }
}

/* Inputs x + t * seed_k. */
static void perturb(bench_t *b, int k, double t) {
  for (int j = 0; j < b->narr; j++) {
    arr_t *a = &b->a[j];
    if (a->role == ROLE_IN)
      for (long i = 0; i < a->len; i++)
        a->v[i] = a->orig[i] + t * a->d[k][i];
  }
}

#define TOL_FD 1e-4      /* AD against central differences (step 1e-5)  */
#define TOL_EXACT 1e-10  /* AD against the hand tangent / other widths   */

static int verbose = 0;

/* The variants verify() checks. */
#define NCHECK 5

/* Runs variant v (0: width 1, 1: width 4, 2: width 8, 3: hand tangent,
 * 4: width 2) for all directions and stores the tangents in
 * dst[k * len ...]. */
static void run_variant(bench_t *b, int v, double *dst, long len) {
  poison(b);
  if (v == 0 || v == 3)
    for (int k = 0; k < MAXDIR; k++)
      (v == 0 ? b->fwd1 : b->hand)(b, k);
  else if (v == 1) {
    b->fwd4(b, 0);
    b->fwd4(b, 4);
  } else if (v == 4) {
    for (int k = 0; k < MAXDIR; k += 2)
      b->fwd2(b, k);
  } else
    b->fwd8(b, 0);
  for (int k = 0; k < MAXDIR; k++)
    gather(b, k, dst + k * len);
}

/* Largest rel_err over the directions. */
static double max_err(const double *got, const double *want, long len) {
  double e = 0;
  for (int k = 0; k < MAXDIR; k++) {
    double ek = rel_err(got + k * len, want + k * len, len, 1e-8);
    e = ek > e ? ek : e;
  }
  return e;
}

/* Sets ok[v] for v = 0..4 (width 1, width 4, width 8, hand tangent,
 * width 2): each is checked against central differences; the hand tangent,
 * once it passes that, is the exact reference for width 1, and width 1 (or
 * else the hand tangent) is the reference for widths 2, 4 and 8. */
static void verify(bench_t *b, int ok[NCHECK]) {
  long len = out_len(b);
  double *fd = alloc(len * MAXDIR), *got[NCHECK], *fp = alloc(len),
         *fm = alloc(len);
  const double eps = 1e-5;
  for (int k = 0; k < MAXDIR; k++) {
    perturb(b, k, eps);
    b->primal(b, 0);
    gather(b, -1, fp);
    perturb(b, k, -eps);
    b->primal(b, 0);
    gather(b, -1, fm);
    for (long i = 0; i < len; i++)
      fd[k * len + i] = (fp[i] - fm[i]) / (2 * eps);
  }
  perturb(b, 0, 0.0);
  b->primal(b, 0);

  static const char *what[NCHECK] = {"width 1", "width 4", "width 8",
                                     "hand tangent", "width 2"};
  static const int order[NCHECK] = {3, 0, 4, 1, 2};
  for (int i = 0; i < NCHECK; i++) {
    int v = order[i];
    got[v] = alloc(len * MAXDIR);
    run_variant(b, v, got[v], len);
    double e_fd = max_err(got[v], fd, len), e_ref = 0;
    int ref = v == 3 ? -1 : v == 0 ? (ok[3] ? 3 : -1)
                                   : (ok[0] ? 0 : ok[3] ? 3 : -1);
    if (ref >= 0)
      e_ref = max_err(got[v], got[ref], len);
    ok[v] = e_fd <= TOL_FD && e_ref <= TOL_EXACT;
    if (verbose || !ok[v]) {
      fprintf(stderr, "%s %-10s %-18s %-12s: vs central differences %.2e",
              ok[v] ? "verified" : "WRONG DERIVATIVE:", b->name, b->size,
              what[v], e_fd);
      if (ref >= 0)
        fprintf(stderr, ", vs %s %.2e", what[ref], e_ref);
      fprintf(stderr, "%s\n", ok[v] ? "" : "  <-- wrong");
    }
  }
  for (int v = 0; v < NCHECK; v++)
    release(got[v]);
  release(fd), release(fp), release(fm);
}

/* ---- Options and timing (bench/common/harness.h) ------------------------ */

#define BENCH_CALL(f, b) (f)((b), 0)
#include "../common/harness.h"

/* ---- Main --------------------------------------------------------------- */

enum { V_PRIMAL, V_FWD1, V_FWD2, V_FWD4, V_FWD8, V_HAND, NVAR };

typedef struct {
  char name[24], size[48];
  int ok[NCHECK];
  double t[NVAR]; /* median seconds per call; NaN if not measured */
} result_t;

/* Whether kernel name is in the comma-separated list (all if none). */

static void usage(FILE *f) {
  fprintf(f,
          "Usage: forward_bench [--quick] [--json FILE] [--min-time S] "
          "[--samples N] [--only NAME[,NAME...]] [--verbose]\n"
          "                     [--verify-only]\n"
          "  --quick       small sizes only, 5 samples of >= 20 ms\n"
          "  --json FILE   write one JSON record per kernel and size\n"
          "  --min-time S  minimum duration of one sample (default 0.05)\n"
          "  --samples N   samples per variant, median reported (default 7)\n"
          "  --only LIST   comma-separated kernel names\n"
          "  --verbose     print every verification result\n"
          "  --verify-only check the derivatives, time nothing\n");
}

int main(int argc, char **argv) {
  bench_options_t o;
  int status = parse_options(argc, argv, &o, usage);
  if (status >= 0)
    return status;
  if (o.quick) {
    o.samples = 5;
    o.min_time = o.min_time < 0.02 ? o.min_time : 0.02;
  }
  if ((status = check_options(&o, "forward_bench", usage)) >= 0)
    return status;
  verbose = o.verbose;

  result_t res[2 * NSPECS];
  int nres = 0, failed = 0;

  if (!o.verify_only) {
    printf("%-10s %-18s %10s %10s %10s %10s %10s %10s %7s %7s %7s %7s %7s "
           "%7s\n",
           "kernel", "size", "primal", "fwd w1", "fwd w2", "fwd w4", "fwd w8",
           "hand", "w1/pr", "w8/pr", "2xw1/w2", "4xw1/w4", "8xw1/w8",
           "w1/hand");
    printf("%-10s %-18s %10s %10s %10s %10s %10s %10s %7s %7s %7s %7s %7s "
           "%7s\n",
           "", "", "[us]", "[us]", "[us]", "[us]", "[us]", "[us]", "<=2", "<=4",
           "", "", "", "");
    fflush(stdout);
  }

  for (int s = 0; s < NSPECS; s++) {
    if (!selected(o.only, specs[s].name))
      continue;
    for (int which = 0; which < (o.quick ? 1 : 2); which++) {
      bench_t b;
      setup_instance(&b, &specs[s], which);
      result_t *r = &res[nres++];
      snprintf(r->name, sizeof r->name, "%s", b.name);
      snprintf(r->size, sizeof r->size, "%s", b.size);
      verify(&b, r->ok);
      for (int v = 0; v < NCHECK; v++)
        failed |= !r->ok[v];
      if (o.verify_only) {
        nres--;
        free_bench(&b);
        continue;
      }

      runfn fns[NVAR] = {b.primal, b.fwd1, b.fwd2, b.fwd4, b.fwd8, b.hand};
      int on[NVAR] = {1, r->ok[0], r->ok[4], r->ok[1], r->ok[2], r->ok[3]};
      time_variants(&b, fns, on, NVAR, &o, r->t);
      double *T = r->t;
      char cell[NVAR][16];
      time_cells(T, on, NVAR, cell);
      printf("%-10s %-18s %s %s %s %s %s %s %7.2f %7.2f %7.2f %7.2f %7.2f "
             "%7.2f\n",
             r->name, r->size, cell[V_PRIMAL], cell[V_FWD1], cell[V_FWD2],
             cell[V_FWD4], cell[V_FWD8], cell[V_HAND],
             T[V_FWD1] / T[V_PRIMAL], T[V_FWD8] / T[V_PRIMAL],
             2 * T[V_FWD1] / T[V_FWD2], 4 * T[V_FWD1] / T[V_FWD4],
             8 * T[V_FWD1] / T[V_FWD8], T[V_FWD1] / T[V_HAND]);
      fflush(stdout);
      free_bench(&b);
    }
  }

  if (o.json) {
    FILE *f = fopen(o.json, "w");
    if (!f) {
      fprintf(stderr, "forward_bench: cannot write %s\n", o.json);
      return 2;
    }
    fprintf(f, "[\n");
    for (int i = 0; i < nres; i++) {
      const result_t *r = &res[i];
      const double *T = r->t;
      fprintf(f, "  {\"benchmark\": \"%s\", \"size\": \"%s\", ", r->name,
              r->size);
      json_num(f, "primal_s", T[V_PRIMAL], 0);
      json_num(f, "forward_s", T[V_FWD1], 0);
      json_num(f, "forward_ratio", T[V_FWD1] / T[V_PRIMAL], 0);
      json_num(f, "width2_s", T[V_FWD2], 0);
      json_num(f, "width2_speedup", 2 * T[V_FWD1] / T[V_FWD2], 0);
      json_num(f, "width4_s", T[V_FWD4], 0);
      json_num(f, "width4_speedup", 4 * T[V_FWD1] / T[V_FWD4], 0);
      json_num(f, "width8_s", T[V_FWD8], 0);
      json_num(f, "width8_speedup", 8 * T[V_FWD1] / T[V_FWD8], 0);
      json_num(f, "width8_ratio", T[V_FWD8] / T[V_PRIMAL], 0);
      json_num(f, "hand_s", T[V_HAND], 0);
      json_num(f, "forward_vs_hand", T[V_FWD1] / T[V_HAND], 0);
      fprintf(f, "\"verified\": %s, \"samples\": %d, \"min_sample_s\": %g}%s\n",
              r->ok[0] && r->ok[1] && r->ok[2] && r->ok[3] && r->ok[4]
                  ? "true"
                  : "false",
              o.samples, o.min_time, i + 1 < nres ? "," : "");
    }
    fprintf(f, "]\n");
    fclose(f);
  }
  if (failed) {
    fprintf(stderr, "forward_bench: WRONG DERIVATIVES (see above); the "
                    "affected variants were not timed\n");
    return 1;
  }
  return 0;
}
