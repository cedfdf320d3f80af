/*===- adbench_jac.h - Jacobian helpers of the BA and Hand programs -------===*
 *
 * What ba.c and hand.c (vector-valued objectives, Jacobians) add to
 * adbench_common.h: two more options, a Jacobian comparison that reports
 * the worst entries, and the result record they print and write as JSON.
 *
 *   --expect-jac FILE  reference Jacobian values (stored in the common
 *                      options' expect_grad; --expect-grad works too)
 *   --complicated      hand.c: the complicated variant
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_ADBENCH_JAC_H
#define ADCC_BENCH_ADBENCH_JAC_H

#include "adbench_common.h"

/* Parses the common options plus --expect-jac and --complicated (stored in
 * *complicated when not NULL).  Returns -1 to go on, else an exit status. */
static inline int ab_jac_parse_args(ab_opts *o, int *complicated, int argc,
                                    char **argv, const char *prog) {
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  const char *jac = NULL;
  int n = 0;
  if (complicated)
    *complicated = 0;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && !strcmp(argv[i], "--expect-jac") && i + 1 < argc)
      jac = argv[++i];
    else if (i > 0 && complicated && !strcmp(argv[i], "--complicated"))
      *complicated = 1;
    else
      rest[n++] = argv[i];
  }
  int rc = ab_parse_args(o, n, rest, prog);
  free(rest);
  if (rc < 0 && jac)
    o->expect_grad = jac;
  if (rc == 0 || rc == 2)
    fprintf(rc ? stderr : stdout, "          [--expect-jac FILE]%s\n",
            complicated ? " [--complicated]" : "");
  return rc;
}

/* Compares n values x (what) with the reference y (against) in the rho
 * metric: one line on stderr when verbose or wrong; when wrong it starts
 * with WRONG GRADIENT and the first wrong entries follow.  Returns ok. */
static inline int ab_jac_compare(const ab_opts *o, const char *what,
                                 const char *against, const double *x,
                                 const double *y, long n, double tol) {
  long worst, bad = 0;
  double e = ab_max_rho(x, y, n, &worst);
  for (long i = 0; i < n; i++)
    bad += !(ab_rho(x[i], y[i]) <= tol);
  char w[96];
  snprintf(w, sizeof w, "%s (%ld values)", against, n);
  int ok = ab_check(o, what, w, e, tol);
  if (ok)
    return 1;
  fprintf(stderr, "  %ld of %ld values off; worst [%ld]: %.17g vs %.17g\n", bad,
          n, worst, x[worst], y[worst]);
  for (long i = 0, shown = 0; i < n && shown < 6; i++)
    if (!(ab_rho(x[i], y[i]) <= tol)) {
      fprintf(stderr, "  [%ld]: %.17g vs %.17g\n", i, x[i], y[i]);
      shown++;
    }
  return 0;
}

/* A comparison fed value by value (for Jacobians too large to hold
 * twice): ab_jac_stream_add() for every pair, then ab_jac_stream_end(). */
typedef struct {
  double worst, tol;
  long n, bad, iw, ibad[6];
  double xw, yw, xbad[6], ybad[6];
} ab_jac_stream;

static inline void ab_jac_stream_add(ab_jac_stream *s, double x, double y) {
  double r = ab_rho(x, y);
  if (!(r <= s->tol)) {
    if (s->bad < 6)
      s->ibad[s->bad] = s->n, s->xbad[s->bad] = x, s->ybad[s->bad] = y;
    s->bad++;
  }
  if (r > s->worst || s->n == 0)
    s->worst = r, s->iw = s->n, s->xw = x, s->yw = y;
  s->n++;
}

/* Reports as ab_jac_compare() does; returns ok. */
static inline int ab_jac_stream_end(const ab_opts *o, const ab_jac_stream *s,
                                    const char *what, const char *against) {
  char w[96];
  snprintf(w, sizeof w, "%s (%ld values)", against, s->n);
  ab_check(o, what, w, s->worst, s->tol);
  if (!s->bad)
    return 1;
  fprintf(stderr, "  %ld of %ld values off; worst [%ld]: %.17g vs %.17g\n",
          s->bad, s->n, s->iw, s->xw, s->yw);
  for (long i = 0; i < s->bad && i < 6; i++)
    fprintf(stderr, "  [%ld]: %.17g vs %.17g\n", s->ibad[i], s->xbad[i],
            s->ybad[i]);
  return 0;
}

/* A primal value against --expect (|v - e| / max(1, |e|) <= 1e-9). */
static inline int ab_jac_check_expect(const ab_opts *o, const char *what,
                                      double v) {
  if (!o->has_expect) {
    fprintf(stderr, "note: no --expect given, %s %.17g not checked\n", what, v);
    return 1;
  }
  double e = fabs(v - o->expect) / (fabs(o->expect) > 1 ? fabs(o->expect) : 1);
  int ok = e <= AB_TOL_PRIMAL;
  if (o->verbose || !ok)
    fprintf(stderr, "%s %s %.17g vs expected %.17g: %.2e\n",
            ok ? "verified      " : "WRONG PRIMAL:", what, v, o->expect, e);
  return ok;
}

/* The measurements of one run (seconds per call; NaN: not measured). */
typedef struct {
  double primal, jac_rev, jac_fwd, jac_hand, tape;
  double dirs;            /* forward directions of one Jacobian        */
  double objective;       /* sum of squared residuals                  */
  double jac_batch;       /* forward, 8 directions per call (NaN: none) */
  double jac_compressed;  /* forward, coloured columns (NaN: none)     */
  double compressed_dirs; /* the directions of the compressed Jacobian */
} ab_jac_result;

/* Prints the readable line and writes the JSON object (forward_s is the
 * time per direction, so that forward_ratio = forward_s / primal_s as in
 * the scalar programs; forward_jacobian_s is the whole forward Jacobian).
 * Returns 0, or 2 when the JSON file cannot be written. */
static inline int ab_jac_report(const ab_opts *o, const char *bench,
                                const char *size, const ab_jac_result *r,
                                int verified) {
  double p = r->primal, fdir = r->jac_fwd / r->dirs;
  char c[4][24], tb[24];
  ab_fmt_time(c[0], sizeof c[0], p);
  ab_fmt_time(c[1], sizeof c[1], r->jac_rev);
  ab_fmt_time(c[2], sizeof c[2], r->jac_fwd);
  ab_fmt_time(c[3], sizeof c[3], r->jac_hand);
  ab_fmt_bytes(tb, sizeof tb, r->tape);
  printf("%-14s %-22s primal %-10s jacobian %-10s (x%.2f)  forward %-10s "
         "(x%.2f, x%.2f/dir, %g dirs)  hand %-10s (x%.2f)  tape %-9s %s\n",
         bench, size, c[0], c[1], r->jac_rev / p, c[2], r->jac_fwd / p,
         fdir / p, r->dirs, c[3], r->jac_hand / p, tb,
         verified ? "verified" : "NOT VERIFIED");
  if (!not_finite(r->jac_batch))
    printf("%-14s %-22s forward jacobian, 8 directions per call: x%.2f\n",
           bench, size, r->jac_batch / p);
  if (!not_finite(r->jac_compressed))
    printf("%-14s %-22s forward jacobian, compressed to %g directions: "
           "x%.2f\n",
           bench, size, r->compressed_dirs, r->jac_compressed / p);
  fflush(stdout);
  if (!o->json)
    return 0;
  const char *keys[] = {"primal_s",
                        "gradient_s",
                        "gradient_ratio",
                        "forward_s",
                        "forward_ratio",
                        "forward_jacobian_s",
                        "forward_directions",
                        "hand_s",
                        "hand_ratio",
                        "tape_bytes",
                        "objective",
                        "batched_jacobian_s",
                        "compressed_jacobian_s",
                        "compressed_directions"};
  double vals[] = {p,
                   r->jac_rev,
                   r->jac_rev / p,
                   fdir,
                   fdir / p,
                   r->jac_fwd,
                   r->dirs,
                   r->jac_hand,
                   r->jac_hand / p,
                   r->tape,
                   r->objective,
                   r->jac_batch,
                   r->jac_compressed,
                   r->compressed_dirs};
  return ab_write_json(o->json, bench, size, keys, vals,
                       (int)(sizeof vals / sizeof vals[0]), o, verified);
}

/* The end of ba.c's and hand.c's main, after verification: unless it
 * failed (said here) or --verify-only, times fns (objective, reverse
 * Jacobian, forward Jacobian, and a fourth variant whose time goes to
 * *fourth: r->jac_hand or r->jac_batch; and fifth, when not NULL, whose time
 * goes to r->jac_compressed) and the tape of \p tape_fn, then reports.
 * Returns the exit status. */
static inline int ab_jac_finish(const ab_opts *o, const char *bench,
                                const char *size, ab_jac_result *r,
                                int verified, const ab_fn fns[4],
                                double *fourth, ab_fn fifth, ab_fn tape_fn,
                                void *ctx) {
  if (!verified)
    fprintf(stderr,
            "WRONG GRADIENT: %s %s: verification failed, nothing "
            "timed\n",
            bench, size);
  if (verified && !o->verify_only) {
    enum { P, G, F, X, C, NV };
    const ab_fn all[NV] = {fns[0], fns[1], fns[2], fns[3], fifth};
    int on[NV] = {1, 1, 1, 1, fifth != NULL};
    double t[NV];
    r->tape = ab_tape_bytes(tape_fn, ctx);
    ab_time_variants(all, on, NV, ctx, o->samples, o->min_time, t);
    r->primal = t[P], r->jac_rev = t[G], r->jac_fwd = t[F], *fourth = t[X];
    r->jac_compressed = t[C];
  }
  int rc = ab_jac_report(o, bench, size, r, verified);
  return rc ? rc : !verified;
}

#endif /* ADCC_BENCH_ADBENCH_JAC_H */
