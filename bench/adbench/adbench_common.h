/*===- adbench_common.h - Shared helpers of the ADBench programs --------===*
 *
 * Self-contained helpers for the ADBench objective programs in this
 * directory (gmm.c, lstm.c, ba.c, hand.c): the common command line, reading
 * the whitespace-separated data files, ADBench's rho metric, central finite
 * differences, interleaved median timing, tape statistics (adcc only) and
 * the one JSON object each program writes.  Builds on ../common/measure.h.
 *
 * Common interface of every program:
 *   prog --data FILE [--samples N] [--min-time S] [--json FILE]
 *        [--verify-only] [--name SIZE_LABEL] [--expect VALUE]
 *        [--expect-grad FILE] [--verbose]
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_ADBENCH_COMMON_H
#define ADCC_BENCH_ADBENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __ADCC__
#include <adcc_runtime.h>
#endif

#include "../common/measure.h"

/* ---- Small utilities ----------------------------------------------------- */

/* NaN by its bits (common/measure.h). */
static inline double ab_nan(void) { return nan_value(); }

/* A zeroed array of n doubles (at least one); exits on failure. */
static inline double *ab_alloc(long n) {
  double *p = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  if (!p) {
    fprintf(stderr, "adbench: out of memory (%ld doubles)\n", n);
    exit(2);
  }
  return p;
}

/* ADBench's comparison metric: |x - y| / max(1, |x| + |y|); 1e300 when
 * either is NaN or infinite. */
static inline double ab_rho(double x, double y) {
  if (not_finite(x) || not_finite(y))
    return 1e300;
  double s = fabs(x) + fabs(y);
  return fabs(x - y) / (s > 1 ? s : 1);
}

/* The largest rho over n pairs; *where receives its index (if not NULL). */
static inline double ab_max_rho(const double *x, const double *y, long n,
                                long *where) {
  double e = 0;
  long w = 0;
  for (long i = 0; i < n; i++) {
    double r = ab_rho(x[i], y[i]);
    if (r > e)
      e = r, w = i;
  }
  if (where)
    *where = w;
  return e;
}

/* max |x - y| / max |y| (1e300 on NaN or infinity). */
static inline double ab_max_rel(const double *x, const double *y, long n) {
  return rel_err(x, y, n, 1e-300);
}

/* ---- Data files ---------------------------------------------------------- */

/* All numbers of a whitespace-separated text file; NULL (with a message)
 * if it cannot be read or holds something that is not a number. */
static inline double *ab_read_numbers(const char *path, long *count) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "adbench: cannot open %s\n", path);
    return NULL;
  }
  long cap = 1024, n = 0;
  double *v = malloc(cap * sizeof *v), x;
  int r;
  while (v && (r = fscanf(f, "%lf", &x)) == 1) {
    if (n == cap) {
      double *nv = realloc(v, (cap *= 2) * sizeof *v);
      if (!nv)
        free(v);
      v = nv;
    }
    if (v)
      v[n++] = x;
  }
  int bad = !v || !feof(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "adbench: %s: %s\n", path,
            v ? "not a number in the file" : "out of memory");
    free(v);
    return NULL;
  }
  *count = n;
  return v;
}

/* Size label from a data path: the file name without ".txt" and without
 * the given prefix (e.g. "gmm_"), preceded by its directory when that is
 * not the benchmark's own directory: ".../gmm/1k/gmm_d10_K25.txt" ->
 * "1k/d10_K25", ".../lstm/lstm_l2_c1024.txt" -> "l2_c1024". */
static inline void ab_size_label(const char *path, const char *bench,
                                 const char *prefix, char *buf, size_t len) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t bl = strlen(base);
  if (bl > 4 && !strcmp(base + bl - 4, ".txt"))
    bl -= 4;
  size_t pl = strlen(prefix);
  if (bl > pl && !strncmp(base, prefix, pl))
    base += pl, bl -= pl;
  const char *dir_end = strrchr(path, '/'), *dir = path;
  size_t dl = 0;
  if (dir_end) {
    dir = dir_end;
    while (dir > path && dir[-1] != '/')
      dir--;
    dl = (size_t)(dir_end - dir);
  }
  if (dl && !(dl == strlen(bench) && !strncmp(dir, bench, dl)) &&
      !(dl == 1 && dir[0] == '.'))
    snprintf(buf, len, "%.*s/%.*s", (int)dl, dir, (int)bl, base);
  else
    snprintf(buf, len, "%.*s", (int)bl, base);
}

/* ---- Command line -------------------------------------------------------- */

typedef struct {
  const char *data;        /* --data FILE (required)                     */
  const char *json;        /* --json FILE                                */
  const char *name;        /* --name SIZE_LABEL                          */
  const char *expect_grad; /* --expect-grad FILE: reference gradient     */
  int samples;             /* --samples N (default 7)                    */
  double min_time;         /* --min-time S (default 0.05)                */
  int verify_only;         /* --verify-only                              */
  int verbose;             /* --verbose                                  */
  int has_expect;          /* --expect VALUE given                       */
  double expect;           /* reference primal value                     */
} ab_opts;

static inline void ab_usage(FILE *f, const char *prog) {
  fprintf(f,
          "Usage: %s --data FILE [--samples N] [--min-time S] [--json FILE]\n"
          "          [--verify-only] [--name SIZE_LABEL] [--expect VALUE]\n"
          "          [--expect-grad FILE] [--verbose]\n"
          "  --data FILE        ADBench input file\n"
          "  --samples N        samples per variant, median reported (7)\n"
          "  --min-time S       minimum duration of one sample (0.05)\n"
          "  --json FILE        write one JSON object with the results\n"
          "  --verify-only      check the derivatives, time nothing\n"
          "  --name LABEL       size label (default: from the file name)\n"
          "  --expect VALUE     reference primal value to check against\n"
          "  --expect-grad FILE reference derivative (numbers) to check\n"
          "  --verbose          print every verification result\n",
          prog);
}

/* Parses the common options; returns -1 to go on, else an exit status. */
static inline int ab_parse_args(ab_opts *o, int argc, char **argv,
                                const char *prog) {
  memset(o, 0, sizeof *o);
  o->samples = 7;
  o->min_time = 0.05;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--data") && more)
      o->data = argv[++i];
    else if (!strcmp(a, "--json") && more)
      o->json = argv[++i];
    else if (!strcmp(a, "--name") && more)
      o->name = argv[++i];
    else if (!strcmp(a, "--expect-grad") && more)
      o->expect_grad = argv[++i];
    else if (!strcmp(a, "--samples") && more)
      o->samples = atoi(argv[++i]);
    else if (!strcmp(a, "--min-time") && more)
      o->min_time = atof(argv[++i]);
    else if (!strcmp(a, "--expect") && more) {
      char *end;
      o->expect = strtod(argv[++i], &end);
      o->has_expect = 1;
      if (*end) {
        fprintf(stderr, "%s: bad --expect value '%s'\n", prog, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--verify-only"))
      o->verify_only = 1;
    else if (!strcmp(a, "--verbose"))
      o->verbose = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      ab_usage(stdout, prog);
      return 0;
    } else {
      fprintf(stderr, "%s: unknown or incomplete option '%s'\n", prog, a);
      ab_usage(stderr, prog);
      return 2;
    }
  }
  if (!o->data || o->samples < 1 || o->samples > 1000 || !(o->min_time > 0)) {
    ab_usage(stderr, prog);
    return 2;
  }
  return -1;
}

/* ---- Verification reports ------------------------------------------------ */

/* Prints one check (always when verbose or failed) and returns ok. */
static inline int ab_check(const ab_opts *o, const char *what,
                           const char *against, double err, double tol) {
  int ok = err <= tol;
  if (o->verbose || !ok)
    fprintf(stderr, "%s %-22s vs %-28s %.2e (tol %.0e)%s\n",
            ok ? "verified      " : "WRONG GRADIENT:", what, against, err, tol,
            ok ? "" : "  <-- wrong");
  return ok;
}

/* The 4-point central stencil (f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)) /
 * 12h on coordinate *x (restored); h is made exactly representable. */
static inline double ab_fd_step(double (*f)(void *), void *ctx, double *x,
                                double h) {
  double x0 = *x, fv[4];
  volatile double xh = x0 + h;
  h = xh - x0;
  const double off[4] = {-2, -1, 1, 2};
  for (int s = 0; s < 4; s++) {
    *x = x0 + off[s] * h;
    fv[s] = f(ctx);
  }
  *x = x0;
  return (fv[0] - 8 * fv[1] + 8 * fv[2] - fv[3]) / (12 * h);
}

/* Derivative of f along coordinate *x by central differences: the stencil
 * at h = 1e-2 ... 1e-6 (times max(1, |x|)); of the successive pairs of
 * steps, the one that agrees best gives the mean of its two estimates
 * (truncation error dominates at large steps on stiff objectives, rounding
 * ~ eps |f| / h at small ones on objectives of large magnitude).  The
 * choice does not look at the derivative being checked. */
static inline double ab_fd(double (*f)(void *), void *ctx, double *x) {
  double s = fabs(*x) > 1 ? fabs(*x) : 1, d[5], h = 1e-2;
  for (int k = 0; k < 5; k++, h *= 0.1)
    d[k] = ab_fd_step(f, ctx, x, h * s);
  int best = 0;
  for (int k = 1; k < 4; k++)
    if (fabs(d[k] - d[k + 1]) < fabs(d[best] - d[best + 1]))
      best = k;
  return 0.5 * (d[best] + d[best + 1]);
}

/* ---- Timing -------------------------------------------------------------- */

typedef double (*ab_fn)(void *ctx);

static volatile double ab_sink;

static inline double ab_time_reps(ab_fn f, void *ctx, long reps) {
  double acc = 0, t0 = now();
  for (long r = 0; r < reps; r++)
    acc += f(ctx);
  double t = now() - t0;
  ab_sink += acc;
  return t;
}

/* Repetitions for one sample to take at least min_time seconds. */
static inline long ab_calibrate(ab_fn f, void *ctx, double min_time) {
  long reps = 1;
  for (double t; (t = ab_time_reps(f, ctx, reps)) < min_time;)
    reps = next_reps(reps, t, min_time);
  return reps;
}

/* Median seconds per call of each variant fns[v] with on[v] set (NaN for
 * the others), samples taken interleaved (one of each variant per round)
 * so that a change of machine load affects all alike. */
static inline void ab_time_variants(const ab_fn *fns, const int *on, int nv,
                                    void *ctx, int samples, double min_time,
                                    double *out) {
  long reps[16];
  double *t[16];
  for (int v = 0; v < nv && v < 16; v++) {
    out[v] = ab_nan();
    t[v] = ab_alloc(samples);
    if (on[v])
      reps[v] = ab_calibrate(fns[v], ctx, min_time);
  }
  for (int i = 0; i < samples; i++)
    for (int v = 0; v < nv && v < 16; v++)
      if (on[v])
        t[v][i] = ab_time_reps(fns[v], ctx, reps[v]) / (double)reps[v];
  for (int v = 0; v < nv && v < 16; v++) {
    if (on[v])
      out[v] = median(t[v], samples);
    free(t[v]);
  }
}

/* Peak tape bytes of one warm call of grad (adcc only; NaN otherwise). */
static inline double ab_tape_bytes(ab_fn grad, void *ctx) {
#ifdef __ADCC__
  adcc_tape *t = adcc_tape_thread();
  adcc_tape_stats s0, s1;
  ab_sink += grad(ctx); /* warm */
  adcc_tape_get_stats(t, &s0);
  adcc_tape_reset_peak(t);
  ab_sink += grad(ctx);
  adcc_tape_get_stats(t, &s1);
  return (double)(s1.peak_bytes - s0.live_bytes);
#else
  (void)grad, (void)ctx;
  return ab_nan();
#endif
}

/* ---- Output -------------------------------------------------------------- */

/* Seconds as a readable cell ("-" when not measured). */
static inline void ab_fmt_time(char *buf, size_t len, double s) {
  if (not_finite(s))
    snprintf(buf, len, "-");
  else if (s < 1e-3)
    snprintf(buf, len, "%.2f us", s * 1e6);
  else if (s < 1)
    snprintf(buf, len, "%.3f ms", s * 1e3);
  else
    snprintf(buf, len, "%.3f s", s);
}

static inline void ab_fmt_bytes(char *buf, size_t len, double v) {
  if (not_finite(v))
    snprintf(buf, len, "-");
  else if (v < 10 * 1024.0)
    snprintf(buf, len, "%.0f B", v);
  else if (v < 10 * 1048576.0)
    snprintf(buf, len, "%.1f KiB", v / 1024);
  else
    snprintf(buf, len, "%.1f MiB", v / 1048576);
}

/* Writes ONE JSON object: benchmark, size, the n numeric fields (null when
 * NaN; a key ending in "_bytes" is written as an integer, "objective"
 * with 17 digits), samples,
 * min_sample_s and verified.  Returns 0, or 2 if the file can't be
 * written. */
static inline int ab_write_json(const char *path, const char *bench,
                                const char *size, const char *const *keys,
                                const double *vals, int n, const ab_opts *o,
                                int verified) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "adbench: cannot write %s\n", path);
    return 2;
  }
  fprintf(f, "{\"benchmark\": \"%s\", \"size\": \"%s\", ", bench, size);
  for (int i = 0; i < n; i++) {
    size_t kl = strlen(keys[i]);
    if (kl > 6 && !strcmp(keys[i] + kl - 6, "_bytes") && !not_finite(vals[i]))
      fprintf(f, "\"%s\": %.0f, ", keys[i], vals[i]);
    else if (!strcmp(keys[i], "objective") && !not_finite(vals[i]))
      fprintf(f, "\"%s\": %.17g, ", keys[i], vals[i]);
    else
      json_num(f, keys[i], vals[i], 0);
  }
  if (o->samples > 0)
    fprintf(f, "\"samples\": %d, \"min_sample_s\": %g, ", o->samples,
            o->min_time);
  fprintf(f, "\"verified\": %s}\n", verified ? "true" : "false");
  return fclose(f) ? 2 : 0;
}

/* ---- Driver for scalar objectives with a gradient (GMM, LSTM) ------------ */

/* The size label of a run: --name, else ab_size_label() of \p path. */
static inline void ab_bench_size(const ab_opts *o, const char *path,
                                 const char *bench, const char *prefix,
                                 char *buf, size_t len) {
  if (o->name)
    snprintf(buf, len, "%s", o->name);
  else
    ab_size_label(path, bench, prefix, buf, len);
}

/* A program fills this in and calls ab_run_gradient_bench().  The active
 * inputs must lie in ONE flat array `params` (the objective's arrays point
 * into it), the AD gradient in `grad` (the shadows point into it), the
 * forward direction in `dir` (the tangents point into it). */
typedef struct {
  const char *bench; /* "gmm", "lstm"                                   */
  char size[96];     /* size label                                      */
  long n;            /* number of active inputs                          */
  double *params;    /* the active inputs (perturbed for differences)   */
  double *grad;      /* gradient written by the AD call                 */
  double *hand;      /* gradient written by the hand-written one        */
  double *dir;       /* forward-mode direction (filled by the driver)   */
  void *ctx;         /* passed to the four functions                    */
  ab_fn primal;      /* returns the objective                           */
  ab_fn ad_grad;     /* zeroes the shadows, calls __enzyme_autodiff     */
  ab_fn ad_fwd;      /* returns __enzyme_fwddiff's directional deriv.   */
  ab_fn hand_grad;   /* fills `hand`, returns the objective             */
  long fd[8];        /* coordinates to check by finite differences     */
  int nfd;           /* (the driver adds the first, last, worst ones)   */
  /* Optional: switches ctx to a smaller instance of the same problem
   * (reduce = 1) and back (0) around the finite-difference check, for
   * objectives summed over so many terms (GMM's 1000 to 2.5M points) that
   * their rounding spoils the differences.  Returns a description. */
  const char *(*fd_reduce)(void *ctx, int reduce);
} ab_grad_bench;

/* What GMM and LSTM set alike: the benchmark's name, its size label
 * (ab_bench_size, files named <prefix>...), and its arrays and context; the
 * program adds its functions and finite-difference coordinates. */
static inline void ab_grad_bench_init(ab_grad_bench *b, const ab_opts *o,
                                      const char *bench, const char *prefix,
                                      long n, double *params, double *grad,
                                      double *hand, double *dir, void *ctx) {
  memset(b, 0, sizeof *b);
  b->bench = bench;
  ab_bench_size(o, o->data, bench, prefix, b->size, sizeof b->size);
  b->n = n;
  b->params = params, b->grad = grad, b->hand = hand, b->dir = dir;
  b->ctx = ctx;
}

#define AB_TOL_PRIMAL 1e-9 /* |E - expected| / max(1, |expected|)      */
#define AB_TOL_HAND 1e-8   /* rho, AD vs hand (or relative 1e-9)       */
#define AB_TOL_REL 1e-9
#define AB_TOL_FD 1e-6  /* rho vs central differences                  */
#define AB_TOL_FWD 1e-9 /* |fwd - g.v| / max(1, sum |g_i v_i|)          */
#define AB_TOL_REF 1e-8 /* rho vs the upstream reference gradient      */

/* Verifies (see README.md), then times; prints one line; writes the JSON
 * object.  Returns the exit status: 0, 1 on a wrong result, 2 on error. */
static inline int ab_run_gradient_bench(ab_grad_bench *b, const ab_opts *o) {
  long n = b->n;
  double *ga = ab_alloc(n), *ga2 = ab_alloc(n), *gh = ab_alloc(n);
  int ok_primal = 1, ok_hand = 1, ok_ad = 1, ok_fwd = 1, ok;
  char what[64];

  /* The primal, against the reference value. */
  double E = b->primal(b->ctx);
  if (o->has_expect) {
    double e =
        fabs(E - o->expect) / (fabs(o->expect) > 1 ? fabs(o->expect) : 1);
    ok_primal = e <= AB_TOL_PRIMAL;
    if (o->verbose || !ok_primal)
      fprintf(stderr, "%s primal %.17g vs expected %.17g: %.2e\n",
              ok_primal ? "verified      " : "WRONG PRIMAL:", E, o->expect, e);
  } else
    fprintf(stderr,
            "note: no --expect given, primal value %.17g not "
            "checked against a reference\n",
            E);

  /* The hand-written gradient (NaN-filled first, so that anything left
   * unwritten shows) and the objective it returns. */
  for (long i = 0; i < n; i++)
    b->hand[i] = ab_nan();
  double Eh = b->hand_grad(b->ctx);
  memcpy(gh, b->hand, n * sizeof *gh);
  ok_hand &= ab_check(o, "hand objective", "primal",
                      fabs(Eh - E) / (fabs(E) > 1 ? fabs(E) : 1), 1e-12);

  /* The AD gradient, twice (the second on a warm tape). */
  for (long i = 0; i < n; i++)
    b->grad[i] = ab_nan();
  b->ad_grad(b->ctx);
  memcpy(ga, b->grad, n * sizeof *ga);
  b->ad_grad(b->ctx);
  memcpy(ga2, b->grad, n * sizeof *ga2);
  ok_ad &=
      ab_check(o, "AD gradient", "its first call", ab_max_rel(ga2, ga, n), 0);

  /* AD against hand: relative 1e-9 or rho 1e-8. */
  long worst;
  double rho = ab_max_rho(ga, gh, n, &worst), rel = ab_max_rel(ga, gh, n);
  snprintf(what, sizeof what, "hand gradient (worst [%ld])", worst);
  ok = rel <= AB_TOL_REL || rho <= AB_TOL_HAND;
  /* (reported as rho; passes on either criterion) */
  ok_ad &= ab_check(o, "AD gradient", what, ok && rho > AB_TOL_HAND ? 0 : rho,
                    AB_TOL_HAND);
  if (!ok)
    fprintf(stderr, "  [%ld]: AD %.17g hand %.17g (max relative %.2e)\n", worst,
            ga[worst], gh[worst], rel);

  /* Central differences on a few coordinates. */
  long pick[16];
  int np = 0;
  pick[np++] = 0;
  pick[np++] = n - 1;
  pick[np++] = worst;
  for (int i = 0; i < b->nfd && i < 8; i++)
    if (b->fd[i] >= 0 && b->fd[i] < n)
      pick[np++] = b->fd[i];
  double eh = 0, ea = 0, *fh = gh, *fa = ga;
  const char *reduced = NULL;
  if (b->fd_reduce) { /* the gradients of the smaller instance */
    reduced = b->fd_reduce(b->ctx, 1);
    fh = ab_alloc(n), fa = ab_alloc(n);
    b->hand_grad(b->ctx);
    memcpy(fh, b->hand, n * sizeof *fh);
    b->ad_grad(b->ctx);
    memcpy(fa, b->grad, n * sizeof *fa);
  }
  for (int q = 0; q < np; q++) {
    double fd = ab_fd(b->primal, b->ctx, &b->params[pick[q]]);
    double rh = ab_rho(fh[pick[q]], fd), ra = ab_rho(fa[pick[q]], fd);
    if (o->verbose || rh > AB_TOL_FD || ra > AB_TOL_FD)
      fprintf(stderr, "  fd [%ld]: %.12g  hand %.12g  AD %.12g\n", pick[q], fd,
              fh[pick[q]], fa[pick[q]]);
    eh = rh > eh ? rh : eh;
    ea = ra > ea ? ra : ea;
  }
  if (reduced) {
    b->fd_reduce(b->ctx, 0);
    free(fh), free(fa);
    fprintf(stderr, "note: finite differences on %s\n", reduced);
  }
  snprintf(what, sizeof what, "differences (%d coords)", np);
  ok_hand &= ab_check(o, "hand gradient", what, eh, AB_TOL_FD);
  ok_ad &= ab_check(o, "AD gradient", what, ea, AB_TOL_FD);

  /* The upstream reference gradient. */
  if (o->expect_grad) {
    long m = 0;
    double *ref = ab_read_numbers(o->expect_grad, &m);
    if (!ref)
      return 2;
    if (m != n) {
      fprintf(stderr, "WRONG GRADIENT: %s has %ld numbers, gradient %ld\n",
              o->expect_grad, m, n);
      ok_ad = ok_hand = 0;
    } else {
      ok_hand &= ab_check(o, "hand gradient", "upstream reference",
                          ab_max_rho(gh, ref, n, NULL), AB_TOL_REF);
      ok_ad &= ab_check(o, "AD gradient", "upstream reference",
                        ab_max_rho(ga, ref, n, NULL), AB_TOL_REF);
    }
    free(ref);
  }

  /* Forward mode along one random direction, against g . v (g: the hand
   * gradient when it passed, else the AD one). */
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (long i = 0; i < n; i++) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    b->dir[i] =
        -1 + 2 * (double)((s * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-53;
  }
  const double *g = ok_hand ? gh : ga;
  double dot = 0, scale = 1;
  for (long i = 0; i < n; i++)
    dot += g[i] * b->dir[i], scale += fabs(g[i] * b->dir[i]);
  double fwd = b->ad_fwd(b->ctx);
  double efwd = not_finite(fwd) ? 1e300 : fabs(fwd - dot) / scale;
  ok_fwd = ab_check(o, "forward derivative", "gradient . direction", efwd,
                    AB_TOL_FWD);
  if (!ok_fwd)
    fprintf(stderr, "  forward %.17g, gradient . direction %.17g\n", fwd, dot);
  if (!ok_hand || !ok_ad)
    fprintf(stderr, "WRONG GRADIENT: %s %s: %s%s\n", b->bench, b->size,
            ok_ad ? "" : "AD gradient wrong; ",
            ok_hand ? "" : "hand-written gradient wrong");
  int verified = ok_primal && ok_hand && ok_ad && ok_fwd;

  /* Timing. */
  enum { P, G, F, H, NV };
  double t[NV], tape = ab_nan();
  for (int v = 0; v < NV; v++)
    t[v] = ab_nan();
  if (!o->verify_only && ok_primal) {
    ab_fn fns[NV] = {b->primal, b->ad_grad, b->ad_fwd, b->hand_grad};
    int on[NV] = {1, ok_ad, ok_fwd, ok_hand};
    if (ok_ad)
      tape = ab_tape_bytes(b->ad_grad, b->ctx);
    ab_time_variants(fns, on, NV, b->ctx, o->samples, o->min_time, t);
  }
  char c[NV][24], tb[24];
  for (int v = 0; v < NV; v++)
    ab_fmt_time(c[v], sizeof c[v], t[v]);
  ab_fmt_bytes(tb, sizeof tb, tape);
  if (o->verify_only)
    printf("%-5s %-14s n=%-6ld %s (nothing timed: --verify-only)\n", b->bench,
           b->size, n, verified ? "verified" : "NOT VERIFIED");
  else
    printf("%-5s %-14s n=%-6ld primal %-10s gradient %-10s (x%.2f)  forward "
           "%-10s (x%.2f/dir)  hand %-10s (x%.2f)  tape %-9s %s\n",
           b->bench, b->size, n, c[P], c[G], t[G] / t[P], c[F], t[F] / t[P],
           c[H], t[H] / t[P], tb, verified ? "verified" : "NOT VERIFIED");
  fflush(stdout);

  int rc = verified ? 0 : 1;
  if (o->json) {
    const char *keys[] = {"primal_s",   "gradient_s",    "gradient_ratio",
                          "forward_s",  "forward_ratio", "hand_s",
                          "hand_ratio", "tape_bytes",    "objective"};
    double vals[] = {t[P], t[G],        t[G] / t[P], t[F], t[F] / t[P],
                     t[H], t[H] / t[P], tape,        E};
    if (ab_write_json(o->json, b->bench, b->size, keys, vals,
                      (int)(sizeof vals / sizeof vals[0]), o, verified))
      rc = 2;
  }
  free(ga), free(ga2), free(gh);
  return rc;
}

#endif /* ADCC_BENCH_ADBENCH_COMMON_H */
