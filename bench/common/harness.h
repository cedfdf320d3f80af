/*===- harness.h - Options and timing of the kernel benchmarks -----------===*
 *
 * What forward_bench.c and reverse_bench.c do alike around their kernels:
 * the command line, and timing the variants of one instance (the primal and
 * each derivative) in interleaved samples. Included after instances.h and
 * after the program defines
 *   runfn, the type of a variant's wrapper, and
 *   BENCH_CALL(f, b), one call of the wrapper f on instance b.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_HARNESS_H
#define ADCC_BENCH_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Options ------------------------------------------------------------ */

typedef struct {
  int quick, samples, verify_only, verbose;
  double min_time;
  const char *json, *only;
} bench_options_t;

/* Reads the options into \p o (7 samples of at least 0.05 s unless given).
 * Returns -1 to go on, else the exit status: 0 after --help, 2 after a
 * usage error; \p usage prints the program's usage. */
static int parse_options(int argc, char **argv, bench_options_t *o,
                         void (*usage)(FILE *)) {
  memset(o, 0, sizeof *o);
  o->samples = 7;
  o->min_time = 0.05;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      o->quick = 1;
    else if (!strcmp(argv[i], "--json") && i + 1 < argc)
      o->json = argv[++i];
    else if (!strcmp(argv[i], "--min-time") && i + 1 < argc)
      o->min_time = atof(argv[++i]);
    else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      o->samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      o->only = argv[++i];
    else if (!strcmp(argv[i], "--verbose"))
      o->verbose = 1;
    else if (!strcmp(argv[i], "--verify-only"))
      o->verify_only = o->verbose = 1;
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  return -1;
}

/* Whether the options (after the program's --quick rule) are usable, and
 * --only names a kernel of the table; else 2 after saying why. */
static int check_options(const bench_options_t *o, const char *program,
                         void (*usage)(FILE *)) {
  if (o->samples < 1 || o->samples > 1000 || !(o->min_time > 0)) {
    usage(stderr);
    return 2;
  }
  int matched = 0;
  for (int s = 0; s < NSPECS; s++)
    matched += selected(o->only, specs[s].name);
  if (!matched) {
    fprintf(stderr, "%s: no kernel named in --only '%s'\n", program, o->only);
    return 2;
  }
  return -1;
}

/* ---- Timing ------------------------------------------------------------- */

static volatile double sink;

static double time_reps(bench_t *b, runfn f, long reps) {
  double acc = 0, t0 = now();
  for (long r = 0; r < reps; r++)
    acc += BENCH_CALL(f, b);
  double t = now() - t0;
  sink += acc;
  return t;
}

/* Repetitions for one sample to take at least min_time seconds. */
static long calibrate(bench_t *b, runfn f, double min_time) {
  long reps = 1;
  for (double t; (t = time_reps(b, f, reps)) < min_time;)
    reps = next_reps(reps, t, min_time);
  return reps;
}

/* Times the \p nvar variants \p fns of \p b that are \p on: T[v] is the
 * median seconds per call of `samples` samples of at least min_time
 * seconds, NaN for a variant not timed. Interleaved: one sample of every
 * variant per round, so that a change in machine load affects all of them
 * alike. */
static void time_variants(bench_t *b, const runfn *fns, const int *on,
                          int nvar, const bench_options_t *o, double *T) {
  long reps[8];
  double *t[8];
  for (int v = 0; v < nvar; v++) {
    t[v] = alloc(o->samples);
    T[v] = nan_value();
    if (on[v])
      reps[v] = calibrate(b, fns[v], o->min_time);
  }
  for (int i = 0; i < o->samples; i++)
    for (int v = 0; v < nvar; v++)
      if (on[v])
        t[v][i] = time_reps(b, fns[v], reps[v]) / (double)reps[v];
  for (int v = 0; v < nvar; v++) {
    if (on[v])
      T[v] = median(t[v], o->samples);
    release(t[v]);
  }
}

/* The table's cell of each variant: microseconds per call, or WRONG for
 * a variant not timed. */
static void time_cells(const double *T, const int *on, int nvar,
                       char (*cell)[16]) {
  for (int v = 0; v < nvar; v++)
    if (on[v])
      snprintf(cell[v], sizeof cell[v], "%10.2f", T[v] * 1e6);
    else
      snprintf(cell[v], sizeof cell[v], "%10s", "WRONG");
}

#endif /* ADCC_BENCH_HARNESS_H */
