/* reverse_bench.c: reverse-mode (gradient) benchmark for adcc.
 *
 * For each kernel and size it measures, in one process:
 *   - the primal;
 *   - one gradient call, __enzyme_autodiff (with the zeroing of the
 *     gradient arrays and the seeding of the output adjoints that such a
 *     call needs);
 *   - a hand-written gradient (primal outputs and gradient, written as one
 *     would by hand), as a reference for what a gradient could cost;
 *   - when compiled by adcc (__ADCC__): the tape bytes of one gradient call
 *     (peak_bytes of the thread's tape during the call), the tape records
 *     pushed and the tape chunks allocated by one (warm) call.
 * Every gradient is verified before it is timed: against the hand-written
 * gradient (relative 1e-10) and against central finite differences on a few
 * coordinates (1e-5).  A wrong gradient is reported as WRONG GRADIENT, is
 * not timed, and makes the program exit with 1.
 *
 * A kernel with an array result y gets the scalar objective L = w . y for
 * fixed random weights w: its "gradient" is the vector-Jacobian product
 * w^T (dy/dx), which is what seeding the output's shadow with w computes.
 *
 * Only the Enzyme C API is used (__enzyme_autodiff with enzyme_dup and
 * enzyme_const), so the same file is meant to build with
 *   adcc -O2 reverse_bench.c -lm
 *   clang -O2 -fplugin=ClangEnzyme-22.so reverse_bench.c -lm
 *
 * Usage: reverse_bench [--quick] [--json FILE] [--min-time S] [--samples N]
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
#ifdef __ADCC__
#include <adcc_runtime.h>
#endif

/* ---- The Enzyme-compatible API ----------------------------------------- */

/* No call below has an active (enzyme_out) scalar argument, so nothing is
 * returned: every gradient goes into the shadow arrays. */
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define NOINLINE __attribute__((noinline))

/* ---- Kernels (the functions that are differentiated) ------------------- */
#include "../common/kernels.h"
#include "../common/measure.h"

/* ---- Hand-written gradients --------------------------------------------- */
#include "hand_gradients.h"

/* ---- Benchmark instances ----------------------------------------------- */

enum { ROLE_IN, ROLE_OUT, ROLE_TMP };

typedef struct {
  int role;     /* active input, active output, or duplicated work array */
  long len;
  double *v;    /* primal values                                           */
  double *orig; /* ROLE_IN: the unperturbed input                          */
  double *d;    /* shadow: IN the gradient (adcc), OUT the output adjoint
                   (seeded with w before each call), TMP zeroed             */
  double *gh;   /* ROLE_IN: the hand-written gradient                      */
  double *w;    /* ROLE_OUT: the weights of L = w . v                       */
} arr_t;

typedef struct bench bench_t;
typedef double (*runfn)(bench_t *);

struct bench {
  const char *name;
  char size[48];
  int n, steps;
  double h;
  double iters;  /* inner-loop iterations of one primal call              */
  double *c;     /* a constant (inactive) input: A of matvec, B of matmul */
  int narr;
  arr_t a[4];
  int has_ret;   /* scalar result (the objective itself)                 */
  double ret;
  double *scr[4]; /* scratch arrays of the hand-written gradient          */
  runfn primal, grad, hand;
};

#define A0 b->a[0]
#define A1 b->a[1]
#define A2 b->a[2]
#define ZERO(arr) memset((arr).d, 0, (arr).len * sizeof(double))
#define SEED(arr) memcpy((arr).d, (arr).w, (arr).len * sizeof(double))

/* Every kernel gets three noinline wrappers (primal, adcc gradient, hand
 * gradient), each returning a value that the timing loop sinks.  The
 * gradient wrapper includes what the call needs: zeroing the gradient (it
 * is added to the shadow) and work shadows, and seeding the output
 * adjoints (the reverse sweep consumes them). */

/* dot: x, y active */
static NOINLINE double dot_primal(bench_t *b) {
  return b->ret = dot(A0.v, A1.v, b->n);
}
static NOINLINE double dot_grad(bench_t *b) {
  ZERO(A0);
  ZERO(A1);
  __enzyme_autodiff((void *)dot, enzyme_dup, A0.v, A0.d, enzyme_dup, A1.v,
                    A1.d, enzyme_const, b->n);
  return A0.d[0];
}
static NOINLINE double dot_hand(bench_t *b) {
  dot_hgrad(A0.v, A1.v, A0.gh, A1.gh, b->n);
  return A0.gh[0];
}

/* f(const double *x, int n) -> double with x active */
#define SCALAR_KERNEL(f)                                                       \
  static NOINLINE double f##_primal(bench_t *b) {                              \
    return b->ret = f(A0.v, b->n);                                             \
  }                                                                            \
  static NOINLINE double f##_grad(bench_t *b) {                                \
    ZERO(A0);                                                                  \
    __enzyme_autodiff((void *)f, enzyme_dup, A0.v, A0.d, enzyme_const, b->n);  \
    return A0.d[0];                                                            \
  }                                                                            \
  static NOINLINE double f##_hand(bench_t *b) {                                \
    f##_hgrad(A0.v, A0.gh, b->n);                                              \
    return A0.gh[0];                                                           \
  }
SCALAR_KERNEL(sumsq)
SCALAR_KERNEL(rosenbrock)
SCALAR_KERNEL(logsumexp)

/* matvec: a[0] = x (in), a[1] = y (out), c = A */
static NOINLINE double matvec_primal(bench_t *b) {
  matvec(b->c, A0.v, A1.v, b->n);
  return A1.v[0];
}
static NOINLINE double matvec_grad(bench_t *b) {
  ZERO(A0);
  SEED(A1);
  __enzyme_autodiff((void *)matvec, enzyme_const, b->c, enzyme_dup, A0.v, A0.d,
                    enzyme_dup, A1.v, A1.d, enzyme_const, b->n);
  return A0.d[0];
}
static NOINLINE double matvec_hand(bench_t *b) {
  matvec_hgrad(b->c, A0.v, A1.w, A1.v, A0.gh, b->n);
  return A0.gh[0];
}

/* matmul: a[0] = A (in), a[1] = C (out), c = B */
static NOINLINE double matmul_primal(bench_t *b) {
  matmul(A0.v, b->c, A1.v, b->n);
  return A1.v[0];
}
static NOINLINE double matmul_grad(bench_t *b) {
  ZERO(A0);
  SEED(A1);
  __enzyme_autodiff((void *)matmul, enzyme_dup, A0.v, A0.d, enzyme_const,
                    b->c, enzyme_dup, A1.v, A1.d, enzyme_const, b->n);
  return A0.d[0];
}
static NOINLINE double matmul_hand(bench_t *b) {
  matmul_hgrad(A0.v, b->c, A1.w, A1.v, A0.gh, b->n);
  return A0.gh[0];
}

/* Stencils: a[0] = u0 (in), a[1] = u (out), a[2] = w (work) */
static NOINLINE double heat1d_primal(bench_t *b) {
  heat1d(A0.v, A1.v, A2.v, b->n, b->steps);
  return A1.v[1];
}
static NOINLINE double heat1d_grad(bench_t *b) {
  ZERO(A0);
  SEED(A1);
  ZERO(A2);
  __enzyme_autodiff((void *)heat1d, enzyme_dup, A0.v, A0.d, enzyme_dup, A1.v,
                    A1.d, enzyme_dup, A2.v, A2.d, enzyme_const, b->n,
                    enzyme_const, b->steps);
  return A0.d[1];
}
static NOINLINE double heat1d_hand(bench_t *b) {
  heat1d_hgrad(A0.v, A1.w, A1.v, A2.v, A0.gh, b->n, b->steps, b->scr[0],
               b->scr[1], b->scr[2]);
  return A0.gh[1];
}

static NOINLINE double stencil2d_primal(bench_t *b) {
  stencil2d(A0.v, A1.v, A2.v, b->n, b->steps);
  return A1.v[1];
}
static NOINLINE double stencil2d_grad(bench_t *b) {
  ZERO(A0);
  SEED(A1);
  ZERO(A2);
  __enzyme_autodiff((void *)stencil2d, enzyme_dup, A0.v, A0.d, enzyme_dup,
                    A1.v, A1.d, enzyme_dup, A2.v, A2.d, enzyme_const, b->n,
                    enzyme_const, b->steps);
  return A0.d[1];
}
static NOINLINE double stencil2d_hand(bench_t *b) {
  stencil2d_hgrad(A0.v, A1.w, A1.v, A2.v, A0.gh, b->n, b->steps, b->scr[0],
                  b->scr[1], b->scr[2], b->scr[3]);
  return A0.gh[1];
}

/* rk4: a[0] = rate constants (in), a[1] = y0 (in), a[2] = y (out) */
static NOINLINE double rk4_primal(bench_t *b) {
  rk4(A0.v, A1.v, A2.v, b->steps, b->h);
  return A2.v[3];
}
static NOINLINE double rk4_grad(bench_t *b) {
  ZERO(A0);
  ZERO(A1);
  SEED(A2);
  __enzyme_autodiff((void *)rk4, enzyme_dup, A0.v, A0.d, enzyme_dup, A1.v,
                    A1.d, enzyme_dup, A2.v, A2.d, enzyme_const, b->steps,
                    enzyme_const, b->h);
  return A0.d[0];
}
static NOINLINE double rk4_hand(bench_t *b) {
  rk4_hgrad(A0.v, A1.v, A2.w, A2.v, A0.gh, A1.gh, b->steps, b->h, b->scr[0]);
  return A0.gh[0];
}

/* ---- Set-up ------------------------------------------------------------- */

/* Adds an array; inputs get values in [lo, hi], outputs weights in
 * [-1, 1]. */
static arr_t *add_arr(bench_t *b, int role, long len, double lo, double hi) {
  arr_t *a = &b->a[b->narr++];
  a->role = role;
  a->len = len;
  a->v = alloc(len);
  a->d = alloc(len);
  if (role == ROLE_IN) {
    a->orig = alloc(len);
    a->gh = alloc(len);
    for (long i = 0; i < len; i++)
      a->v[i] = a->orig[i] = urand(lo, hi);
  } else if (role == ROLE_OUT) {
    a->w = alloc(len);
    for (long i = 0; i < len; i++)
      a->w[i] = urand(-1, 1);
  }
  return a;
}

static void free_bench(bench_t *b) {
  for (int j = 0; j < b->narr; j++) {
    release(b->a[j].v);
    release(b->a[j].orig);
    release(b->a[j].d);
    release(b->a[j].gh);
    release(b->a[j].w);
  }
  for (int j = 0; j < 4; j++)
    release(b->scr[j]);
  release(b->c);
  memset(b, 0, sizeof *b);
}

#define SET_FNS(b, f)                                                          \
  ((b)->primal = f##_primal, (b)->grad = f##_grad, (b)->hand = f##_hand)

/* The size table and each kernel's arrays (bench/common/instances.h). */
#define BENCH_LOGSUMEXP_LARGE 16384
#include "../common/instances.h"

/* An instance as instances.h sets it up, with what the gradient benchmark
 * adds: the inner-loop iterations of one primal call (iters: tape bytes and
 * records per iteration) and the scratch arrays of the hand-written
 * gradient, allocated after the kernel's arrays. */
static void setup(bench_t *b, const spec_t *s, int which) {
  setup_instance(b, s, which);
  int n = b->n, steps = b->steps;
  const char *nm = s->name;
  if (!strcmp(nm, "dot") || !strcmp(nm, "sumsq")) {
    b->iters = n;
  } else if (!strcmp(nm, "rosenbrock")) {
    b->iters = n - 1;
  } else if (!strcmp(nm, "logsumexp")) {
    b->iters = 2.0 * n - 1; /* max loop and exp loop */
  } else if (!strcmp(nm, "matvec")) {
    b->iters = (double)n * n;
  } else if (!strcmp(nm, "matmul")) {
    b->iters = (double)n * n * n;
  } else if (!strcmp(nm, "heat1d")) {
    b->scr[0] = alloc((long)(2 * steps - 2) * n);
    b->scr[1] = alloc(n);
    b->scr[2] = alloc(n);
    b->iters = 2.0 * steps * (n - 2);
  } else if (!strcmp(nm, "stencil2d")) {
    long nn = (long)n * n;
    b->scr[0] = alloc((long)(2 * steps - 2) * nn);
    b->scr[1] = alloc(nn);
    b->scr[2] = alloc(nn);
    b->scr[3] = alloc(nn);
    b->iters = 2.0 * steps * (n - 2) * (n - 2);
  } else if (!strcmp(nm, "rk4")) {
    b->scr[0] = alloc(4L * steps);
    b->iters = steps;
  }
}

/* ---- Verification -------------------------------------------------------- */

/* NaN and infinity by their bits, so that the checks also hold when the
 * benchmark is built with -ffast-math (which lets isnan() fold to false). */
/* The objective L: the scalar result, plus w . y for each array result. */
static double objective(bench_t *b) {
  b->primal(b);
  double L = b->has_ret ? b->ret : 0;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT)
      for (long i = 0; i < b->a[j].len; i++)
        L += b->a[j].w[i] * b->a[j].v[i];
  return L;
}

static long in_len(const bench_t *b) {
  long len = 0;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_IN)
      len += b->a[j].len;
  return len;
}

static long out_len(const bench_t *b) {
  long len = 0;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT)
      len += b->a[j].len;
  return len;
}

/* The gradient (hand: the hand-written one, else adcc's), flattened. */
static void gather_grad(const bench_t *b, int hand, double *buf) {
  long p = 0;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_IN) {
      memcpy(buf + p, hand ? b->a[j].gh : b->a[j].d,
             b->a[j].len * sizeof(double));
      p += b->a[j].len;
    }
}

/* The array outputs, flattened. */
static void gather_out(const bench_t *b, double *buf) {
  long p = 0;
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT) {
      memcpy(buf + p, b->a[j].v, b->a[j].len * sizeof(double));
      p += b->a[j].len;
    }
}

/* Flat input coordinate p: the array element. */
static double *coord(bench_t *b, long p, double **orig) {
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_IN) {
      if (p < b->a[j].len) {
        *orig = &b->a[j].orig[p];
        return &b->a[j].v[p];
      }
      p -= b->a[j].len;
    }
  return NULL;
}

#define TOL_FD 1e-5     /* against central differences                   */
#define TOL_EXACT 1e-10 /* adcc against the hand-written gradient        */
#define NFD 8           /* coordinates checked by finite differences     */

static int verbose = 0;

static void report(const bench_t *b, const char *what, int ok, double e,
                   const char *against) {
  if (verbose || !ok)
    fprintf(stderr, "%s %-10s %-18s %-14s: vs %-22s %.2e%s\n",
            ok ? "verified" : "WRONG GRADIENT:", b->name, b->size, what,
            against, e, ok ? "" : "  <-- wrong");
}

/* Checks the hand-written gradient (ok[1]) and adcc's (ok[0]). */
static void verify(bench_t *b, int ok[2]) {
  long ni = in_len(b), no = out_len(b);
  double *gh = alloc(ni), *ga = alloc(ni), *ga2 = alloc(ni);
  double *y = alloc(no), *yh = alloc(no), *ya = alloc(no);

  objective(b);
  gather_out(b, y);

  /* The hand-written gradient and outputs (NaN-filled first, so that
   * anything left unwritten is noticed). */
  for (int j = 0; j < b->narr; j++) {
    arr_t *a = &b->a[j];
    for (long i = 0; i < a->len; i++) {
      if (a->role == ROLE_IN)
        a->gh[i] = nan_value();
      else
        a->v[i] = nan_value();
    }
  }
  b->hand(b);
  gather_grad(b, 1, gh);
  gather_out(b, yh);

  /* adcc's, twice (the second call runs on a warm tape). */
  for (int j = 0; j < b->narr; j++)
    if (b->a[j].role == ROLE_OUT)
      for (long i = 0; i < b->a[j].len; i++)
        b->a[j].v[i] = nan_value();
  b->grad(b);
  gather_grad(b, 0, ga);
  gather_out(b, ya);
  b->grad(b);
  gather_grad(b, 0, ga2);

  /* Coordinates for finite differences (all of a short input): the first
   * and the last, where the two gradients differ most, and random ones. */
  long pick[NFD], np = 0;
  if (ni <= NFD)
    for (long p = 0; p < ni; p++)
      pick[np++] = p;
  else {
    long worst = 0;
    double dmax = -1;
    for (long p = 0; p < ni; p++) {
      double d = fabs(ga[p] - gh[p]);
      if (not_finite(d))
        d = 1e300;
      if (d > dmax)
        dmax = d, worst = p;
    }
    pick[np++] = 0;
    pick[np++] = ni - 1;
    pick[np++] = worst;
    while (np < NFD)
      pick[np++] = (long)urand(0, (double)ni - 1e-9);
  }
  double fd[NFD], gfh[NFD], gfa[NFD];
  for (long q = 0; q < np; q++) {
    double *orig, *x = coord(b, pick[q], &orig);
    double step = 1e-5 * (fabs(*orig) > 1 ? fabs(*orig) : 1);
    *x = *orig + step;
    double fp = objective(b);
    *x = *orig - step;
    double fm = objective(b);
    *x = *orig;
    fd[q] = (fp - fm) / ((*orig + step) - (*orig - step));
    gfh[q] = gh[pick[q]];
    gfa[q] = ga[pick[q]];
  }

  double e_out = rel_err(yh, y, no, 1e-300);
  double e_fd = rel_err(gfh, fd, np, 1e-8);
  ok[1] = e_out <= TOL_EXACT && e_fd <= TOL_FD;
  if (no)
    report(b, "hand outputs", e_out <= TOL_EXACT, e_out, "primal");
  report(b, "hand gradient", e_fd <= TOL_FD, e_fd, "central differences");

  double ea_out = rel_err(ya, y, no, 1e-300);
  double ea_fd = rel_err(gfa, fd, np, 1e-8);
  double ea_hand = ok[1] ? rel_err(ga, gh, ni, 1e-300) : 0;
  double ea_rep = rel_err(ga2, ga, ni, 1e-300);
  ok[0] = ea_out <= TOL_EXACT && ea_fd <= TOL_FD && ea_hand <= TOL_EXACT &&
          ea_rep <= TOL_EXACT;
  if (no)
    report(b, "adcc outputs", ea_out <= TOL_EXACT, ea_out, "primal");
  report(b, "adcc gradient", ea_fd <= TOL_FD, ea_fd, "central differences");
  if (ok[1])
    report(b, "adcc gradient", ea_hand <= TOL_EXACT, ea_hand,
           "hand-written gradient");
  report(b, "adcc gradient", ea_rep <= TOL_EXACT, ea_rep, "its first call");
  release(gh), release(ga), release(ga2), release(y), release(yh), release(ya);
}

/* ---- Tape use ------------------------------------------------------------ */

typedef struct {
  double bytes, records, allocs; /* per (warm) gradient call; NaN: unknown */
} tape_use_t;

static tape_use_t tape_use(bench_t *b) {
  tape_use_t u = {nan_value(), nan_value(), nan_value()};
#ifdef __ADCC__
  adcc_tape *t = adcc_tape_thread();
  adcc_tape_stats s0, s1;
  b->grad(b); /* warm */
  adcc_tape_get_stats(t, &s0);
  adcc_tape_reset_peak(t);
  b->grad(b);
  adcc_tape_get_stats(t, &s1);
  u.bytes = (double)(s1.peak_bytes - s0.live_bytes);
  u.records = (double)(s1.push_count - s0.push_count);
  u.allocs = (double)(s1.alloc_count - s0.alloc_count);
#else
  (void)b;
#endif
  return u;
}

/* ---- Options and timing (bench/common/harness.h) ------------------------ */

#define BENCH_CALL(f, b) (f)(b)
#include "../common/harness.h"

/* ---- Main --------------------------------------------------------------- */

enum { V_PRIMAL, V_GRAD, V_HAND, NVAR };

typedef struct {
  char name[24], size[48];
  int ok[2];
  double iters;
  double t[NVAR]; /* median seconds per call; NaN if not measured */
  tape_use_t tape;
} result_t;

/* A count (exact), or null. */
static void json_count(FILE *f, const char *key, double v) {
  if (not_finite(v))
    fprintf(f, "\"%s\": null, ", key);
  else
    fprintf(f, "\"%s\": %.0f, ", key, v);
}

/* Whether kernel name is in the comma-separated list (all if none). */

static void usage(FILE *f) {
  fprintf(f,
          "Usage: reverse_bench [--quick] [--json FILE] [--min-time S] "
          "[--samples N] [--only NAME[,NAME...]] [--verbose]\n"
          "                     [--verify-only]\n"
          "  --quick       small sizes only, 5 samples\n"
          "  --json FILE   write one JSON record per kernel and size\n"
          "  --min-time S  minimum duration of one sample (default 0.05)\n"
          "  --samples N   samples per variant, median reported (default 7)\n"
          "  --only LIST   comma-separated kernel names\n"
          "  --verbose     print every verification result\n"
          "  --verify-only check the gradients, time nothing\n");
}

/* Tape bytes, readable ("-" when unknown). */
static void fmt_bytes(char *buf, size_t len, double v) {
  if (not_finite(v))
    snprintf(buf, len, "-");
  else if (v < 10 * 1024.0)
    snprintf(buf, len, "%.0f B", v);
  else if (v < 10 * 1048576.0)
    snprintf(buf, len, "%.1f KiB", v / 1024);
  else
    snprintf(buf, len, "%.1f MiB", v / 1048576);
}

int main(int argc, char **argv) {
  bench_options_t o;
  int status = parse_options(argc, argv, &o, usage);
  if (status >= 0)
    return status;
  if (o.quick && o.samples > 5)
    o.samples = 5;
  if ((status = check_options(&o, "reverse_bench", usage)) >= 0)
    return status;
  verbose = o.verbose;

  result_t res[2 * NSPECS];
  int nres = 0, failed = 0;

  if (!o.verify_only) {
    printf("%-10s %-18s %10s %10s %10s %7s %7s %7s %10s %6s %6s\n", "kernel",
           "size", "primal", "gradient", "hand", "gr/pr", "hand/pr",
           "gr/hand", "tape", "B/it", "rec/it");
    printf("%-10s %-18s %10s %10s %10s %7s %7s %7s %10s %6s %6s\n", "", "",
           "[us]", "[us]", "[us]", "<=3", "", "", "[/call]", "", "");
    fflush(stdout);
  }

  for (int s = 0; s < NSPECS; s++) {
    if (!selected(o.only, specs[s].name))
      continue;
    for (int which = 0; which < (o.quick ? 1 : 2); which++) {
      bench_t b;
      setup(&b, &specs[s], which);
      result_t *r = &res[nres++];
      snprintf(r->name, sizeof r->name, "%s", b.name);
      snprintf(r->size, sizeof r->size, "%s", b.size);
      r->iters = b.iters;
      verify(&b, r->ok);
      failed |= !r->ok[0] || !r->ok[1];
      if (o.verify_only) {
        nres--;
        free_bench(&b);
        continue;
      }
      r->tape = tape_use(&b);

      runfn fns[NVAR] = {b.primal, b.grad, b.hand};
      int on[NVAR] = {1, r->ok[0], r->ok[1]};
      time_variants(&b, fns, on, NVAR, &o, r->t);
      double *T = r->t;
      char cell[NVAR][16], tb[16], bpi[16], rpi[16];
      time_cells(T, on, NVAR, cell);
      fmt_bytes(tb, sizeof tb, r->tape.bytes);
      if (not_finite(r->tape.bytes)) {
        snprintf(bpi, sizeof bpi, "-");
        snprintf(rpi, sizeof rpi, "-");
      } else {
        snprintf(bpi, sizeof bpi, "%.1f", r->tape.bytes / r->iters);
        snprintf(rpi, sizeof rpi, "%.1f", r->tape.records / r->iters);
      }
      double ratio[3] = {T[V_GRAD] / T[V_PRIMAL], T[V_HAND] / T[V_PRIMAL],
                         T[V_GRAD] / T[V_HAND]};
      char rc[3][16];
      for (int q = 0; q < 3; q++)
        if (not_finite(ratio[q]))
          snprintf(rc[q], sizeof rc[q], "%7s", "-");
        else
          snprintf(rc[q], sizeof rc[q], "%7.2f", ratio[q]);
      printf("%-10s %-18s %s %s %s %s %s %s %10s %6s %6s\n", r->name, r->size,
             cell[0], cell[1], cell[2], rc[0], rc[1], rc[2], tb, bpi, rpi);
      fflush(stdout);
      free_bench(&b);
    }
  }

  if (o.json) {
    FILE *f = fopen(o.json, "w");
    if (!f) {
      fprintf(stderr, "reverse_bench: cannot write %s\n", o.json);
      return 2;
    }
    fprintf(f, "[\n");
    for (int i = 0; i < nres; i++) {
      const result_t *r = &res[i];
      const double *T = r->t;
      fprintf(f, "  {\"benchmark\": \"%s\", \"size\": \"%s\", ", r->name,
              r->size);
      json_num(f, "primal_s", T[V_PRIMAL], 0);
      json_num(f, "gradient_s", T[V_GRAD], 0);
      json_num(f, "gradient_ratio", T[V_GRAD] / T[V_PRIMAL], 0);
      json_num(f, "hand_s", T[V_HAND], 0);
      json_num(f, "hand_ratio", T[V_HAND] / T[V_PRIMAL], 0);
      json_count(f, "tape_bytes", r->tape.bytes);
      json_count(f, "tape_records", r->tape.records);
      json_count(f, "tape_chunk_allocs", r->tape.allocs);
      json_count(f, "iterations", r->iters);
      fprintf(f, "\"forward_ratio\": null, ");
      fprintf(f, "\"verified\": %s, \"samples\": %d, \"min_sample_s\": %g}%s\n",
              r->ok[0] && r->ok[1] ? "true" : "false", o.samples, o.min_time,
              i + 1 < nres ? "," : "");
    }
    fprintf(f, "]\n");
    fclose(f);
  }
  if (failed) {
    fprintf(stderr, "reverse_bench: WRONG GRADIENT (see above); the "
                    "affected variants were not timed\n");
    return 1;
  }
  return 0;
}
