/*===- tape_bench.c - Micro-benchmark of the tape runtime ----------------===*
 *
 * Measures what derivative code asks of the tape: push and pop throughput
 * (8-byte values and records of mixed sizes), reuse of chunks across
 * repeated calls of a derivative, and per-thread tapes used concurrently.
 *
 *   adcc-tape-bench [--quick] [--threads N] [--json FILE]
 *
 * Prints a table; --json writes the same numbers. It is a measuring tool,
 * never run by ctest.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "adcc_runtime.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct options {
  size_t ops;      /* records per sweep */
  int reps;        /* repetitions; the best warm one is reported */
  int calls;       /* simulated derivative calls for the reuse test */
  int max_threads; /* thread counts 1, 2, 4, ... up to this */
  const char *json;
} options;

/* A sink the optimizer cannot see through, so that pops are not removed. */
static volatile uint64_t sink;

/* Folds a popped value into a checksum. An integer xor, not a floating-point
   sum, so that the loop measures the tape rather than the latency of an
   add chain. */
static uint64_t fold(uint64_t sum, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return sum ^ bits;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/*--- Results ----------------------------------------------------------------*/

typedef struct row {
  char name[48];
  size_t ops;
  size_t bytes;
  double seconds;
} row;

#define MAX_ROWS 32
static row rows[MAX_ROWS];
static int row_count;

static void add_row(const char *name, size_t ops, size_t bytes, double s) {
  if (row_count == MAX_ROWS)
    return;
  row *r = &rows[row_count++];
  snprintf(r->name, sizeof(r->name), "%s", name);
  r->ops = ops;
  r->bytes = bytes;
  r->seconds = s;
}

static double ns_per_op(const row *r) {
  return 1e9 * r->seconds / (double)r->ops;
}
static double gb_per_s(const row *r) {
  return (double)r->bytes / r->seconds / 1e9;
}

/*--- Push and pop throughput ------------------------------------------------*/

static void push_f64s(adcc_tape *t, size_t n) {
  for (size_t i = 0; i < n; ++i)
    adcc_tape_push_f64(t, (double)i);
}

static void pop_f64s(adcc_tape *t, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum = fold(sum, adcc_tape_pop_f64(t));
  sink = sum;
}

/* The reference: the same stores and loads on a plain, pre-faulted array,
   which is the best any tape can do. */
static void bench_array(const options *o) {
  double *a = malloc(o->ops * sizeof(double));
  if (!a)
    return;
  memset(a, 0, o->ops * sizeof(double));
  double best_store = 1e30, best_load = 1e30;
  for (int rep = 0; rep < o->reps; ++rep) {
    double t0 = now();
    for (size_t i = 0; i < o->ops; ++i)
      ((volatile double *)a)[i] = (double)i;
    double t1 = now();
    uint64_t sum = 0;
    for (size_t i = o->ops; i-- > 0;)
      sum = fold(sum, ((volatile double *)a)[i]);
    double t2 = now();
    sink = sum;
    best_store = t1 - t0 < best_store ? t1 - t0 : best_store;
    best_load = t2 - t1 < best_load ? t2 - t1 : best_load;
  }
  add_row("array store f64 (reference)", o->ops, o->ops * 8, best_store);
  add_row("array load f64 (reference)", o->ops, o->ops * 8, best_load);
  free(a);
}

static void bench_f64(const options *o) {
  adcc_tape *t = adcc_tape_create();
  double t0 = now();
  push_f64s(t, o->ops); /* cold: allocates and page-faults every chunk */
  double cold = now() - t0;
  pop_f64s(t, o->ops);

  double best_push = 1e30, best_pop = 1e30;
  for (int rep = 0; rep < o->reps; ++rep) {
    double t1 = now();
    push_f64s(t, o->ops);
    double t2 = now();
    pop_f64s(t, o->ops);
    double t3 = now();
    best_push = t2 - t1 < best_push ? t2 - t1 : best_push;
    best_pop = t3 - t2 < best_pop ? t3 - t2 : best_pop;
  }
  add_row("push f64 (first call)", o->ops, o->ops * 8, cold);
  add_row("push f64", o->ops, o->ops * 8, best_push);
  add_row("pop f64", o->ops, o->ops * 8, best_pop);
  adcc_tape_destroy(t);
}

/* Records as a reverse sweep might need them: scalars, small aggregates and
   an over-aligned vector, pushed through the generic entry points. */
static const size_t mixed_bytes[] = {8, 4, 1, 16, 24, 12, 32, 8};
static const size_t mixed_align[] = {8, 4, 1, 8, 8, 4, 32, 8};
#define MIXED_KINDS (sizeof(mixed_bytes) / sizeof(mixed_bytes[0]))

static size_t push_mixed(adcc_tape *t, size_t n) {
  size_t bytes = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t k = i % MIXED_KINDS;
    unsigned char *p = adcc_tape_push(t, mixed_bytes[k], mixed_align[k]);
    p[0] = (unsigned char)i;
    bytes += mixed_bytes[k];
  }
  return bytes;
}

static void pop_mixed(adcc_tape *t, size_t n) {
  unsigned sum = 0;
  for (size_t i = n; i-- > 0;) {
    size_t k = i % MIXED_KINDS;
    const unsigned char *p = adcc_tape_pop(t, mixed_bytes[k], mixed_align[k]);
    sum += p[0];
  }
  sink = sum;
}

static void bench_mixed(const options *o) {
  adcc_tape *t = adcc_tape_create();
  size_t bytes = push_mixed(t, o->ops);
  pop_mixed(t, o->ops);
  double best_push = 1e30, best_pop = 1e30;
  for (int rep = 0; rep < o->reps; ++rep) {
    double t1 = now();
    push_mixed(t, o->ops);
    double t2 = now();
    pop_mixed(t, o->ops);
    double t3 = now();
    best_push = t2 - t1 < best_push ? t2 - t1 : best_push;
    best_pop = t3 - t2 < best_pop ? t3 - t2 : best_pop;
  }
  add_row("push mixed sizes", o->ops, bytes, best_push);
  add_row("pop mixed sizes", o->ops, bytes, best_pop);
  adcc_tape_destroy(t);
}

/*--- Chunk reuse across calls -----------------------------------------------*/

typedef struct reuse_result {
  const char *ending; /* how each call gives its records back */
  size_t first_allocs, later_allocs;
  size_t reserved_first, reserved_last;
  double first_seconds, later_seconds; /* later: mean of calls 2..n */
} reuse_result;

#define REUSE_KINDS 3
static reuse_result reuse[REUSE_KINDS];

/* One derivative call: a forward sweep that pushes, then a reverse sweep
   that pops (0), or drops its records by clear (1) or release (2). */
static void one_call(adcc_tape *t, size_t n, int ending) {
  adcc_tape_mark mark = adcc_tape_get_mark(t);
  push_f64s(t, n);
  push_mixed(t, n / 4);
  if (ending == 0) {
    pop_mixed(t, n / 4);
    pop_f64s(t, n);
  } else if (ending == 1) {
    adcc_tape_clear(t);
  } else {
    adcc_tape_release(t, mark);
  }
}

static void bench_reuse(const options *o) {
  static const char *endings[REUSE_KINDS] = {"pop", "clear", "release"};
  for (int e = 0; e < REUSE_KINDS; ++e) {
    reuse_result *r = &reuse[e];
    adcc_tape *t = adcc_tape_create();
    adcc_tape_stats s;
    double t0 = now();
    one_call(t, o->ops, e);
    r->first_seconds = now() - t0;
    adcc_tape_get_stats(t, &s);
    r->ending = endings[e];
    r->first_allocs = s.alloc_count;
    r->reserved_first = s.reserved_bytes;

    double t1 = now();
    for (int call = 1; call < o->calls; ++call)
      one_call(t, o->ops, e);
    r->later_seconds = (now() - t1) / (o->calls - 1);
    adcc_tape_get_stats(t, &s);
    r->later_allocs = s.alloc_count - r->first_allocs;
    r->reserved_last = s.reserved_bytes;
    adcc_tape_destroy(t);
  }
}

/*--- Per-thread tapes -------------------------------------------------------*/

typedef struct thread_result {
  int threads;
  size_t ops; /* pushes and pops, all threads */
  double seconds;
} thread_result;

#define MAX_THREAD_ROWS 8
static thread_result thread_rows[MAX_THREAD_ROWS];
static int thread_row_count;

typedef struct worker {
  pthread_t id;
  size_t ops;
  int reps;
} worker;

static void *work(void *arg) {
  const worker *w = arg;
  adcc_tape *t = adcc_tape_thread();
  for (int rep = 0; rep < w->reps; ++rep) {
    push_f64s(t, w->ops);
    pop_f64s(t, w->ops);
  }
  return NULL;
}

/* Each thread does the same work on its own tape; with no sharing the
   aggregate rate should grow with the thread count up to the cores. */
static void bench_threads(const options *o) {
  worker workers[64];
  size_t ops = o->ops / 4;
  for (int n = 1; n <= o->max_threads && n <= 64; n *= 2) {
    double t0 = now();
    int started = 0;
    for (; started < n; ++started) {
      workers[started].ops = ops;
      workers[started].reps = o->reps;
      if (pthread_create(&workers[started].id, NULL, work, &workers[started]))
        break;
    }
    for (int i = 0; i < started; ++i)
      pthread_join(workers[i].id, NULL);
    if (thread_row_count == MAX_THREAD_ROWS || started < n)
      return;
    thread_result *r = &thread_rows[thread_row_count++];
    r->threads = n;
    r->ops = 2 * ops * (size_t)o->reps * (size_t)n;
    r->seconds = now() - t0;
  }
}

/*--- Output -----------------------------------------------------------------*/

static void print_tables(const options *o) {
  printf("adcc tape runtime micro-benchmark (%zu records per sweep, best of "
         "%d)\n\n",
         o->ops, o->reps);
  printf("%-30s %10s %12s %10s %8s %8s\n", "operation", "records", "bytes",
         "ms", "ns/op", "GB/s");
  for (int i = 0; i < row_count; ++i) {
    const row *r = &rows[i];
    printf("%-30s %10zu %12zu %10.2f %8.2f %8.2f\n", r->name, r->ops, r->bytes,
           1e3 * r->seconds, ns_per_op(r), gb_per_s(r));
  }

  printf("\nchunk reuse over %d calls (each pushes %zu f64 and %zu mixed "
         "records)\n",
         o->calls, o->ops, o->ops / 4);
  printf("%-10s %14s %14s %14s %12s %12s\n", "ending", "allocs call 1",
         "allocs later", "reserved MiB", "call 1 ms", "later ms");
  for (int e = 0; e < REUSE_KINDS; ++e) {
    const reuse_result *r = &reuse[e];
    printf("%-10s %14zu %14zu %14.1f %12.2f %12.2f\n", r->ending,
           r->first_allocs, r->later_allocs,
           (double)r->reserved_last / (1 << 20), 1e3 * r->first_seconds,
           1e3 * r->later_seconds);
  }

  printf("\nper-thread tapes (each thread pushes and pops %zu f64, %d "
         "times)\n",
         o->ops / 4, o->reps);
  printf("%-8s %14s %10s %16s\n", "threads", "records", "ms", "Mrecords/s");
  for (int i = 0; i < thread_row_count; ++i) {
    const thread_result *r = &thread_rows[i];
    printf("%-8d %14zu %10.2f %16.1f\n", r->threads, r->ops, 1e3 * r->seconds,
           (double)r->ops / r->seconds / 1e6);
  }
}

static int write_json(const options *o) {
  FILE *f = fopen(o->json, "w");
  if (!f) {
    fprintf(stderr, "adcc-tape-bench: error: cannot write '%s'\n", o->json);
    return 1;
  }
  fprintf(f, "{\n  \"benchmark\": \"adcc-tape-bench\",\n");
  fprintf(f, "  \"records_per_sweep\": %zu,\n  \"repetitions\": %d,\n", o->ops,
          o->reps);
  fprintf(f, "  \"throughput\": [\n");
  for (int i = 0; i < row_count; ++i) {
    const row *r = &rows[i];
    fprintf(f,
            "    {\"name\": \"%s\", \"records\": %zu, \"bytes\": %zu, "
            "\"seconds\": %.9f, \"ns_per_op\": %.4f, "
            "\"bytes_per_second\": %.0f}%s\n",
            r->name, r->ops, r->bytes, r->seconds, ns_per_op(r),
            (double)r->bytes / r->seconds, i + 1 < row_count ? "," : "");
  }
  fprintf(f, "  ],\n  \"reuse\": {\"calls\": %d, \"endings\": [\n", o->calls);
  for (int e = 0; e < REUSE_KINDS; ++e) {
    const reuse_result *r = &reuse[e];
    fprintf(f,
            "    {\"ending\": \"%s\", \"allocs_first_call\": %zu, "
            "\"allocs_later_calls\": %zu, \"reserved_bytes_first\": %zu, "
            "\"reserved_bytes_last\": %zu, \"first_call_seconds\": %.9f, "
            "\"later_call_seconds\": %.9f}%s\n",
            r->ending, r->first_allocs, r->later_allocs, r->reserved_first,
            r->reserved_last, r->first_seconds, r->later_seconds,
            e + 1 < REUSE_KINDS ? "," : "");
  }
  fprintf(f, "  ]},\n  \"threads\": [\n");
  for (int i = 0; i < thread_row_count; ++i) {
    const thread_result *r = &thread_rows[i];
    fprintf(f,
            "    {\"threads\": %d, \"records\": %zu, \"seconds\": %.9f, "
            "\"records_per_second\": %.0f}%s\n",
            r->threads, r->ops, r->seconds, (double)r->ops / r->seconds,
            i + 1 < thread_row_count ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  return fclose(f) ? 1 : 0;
}

/*--- Driver -----------------------------------------------------------------*/

static int usage(FILE *out, int status) {
  fprintf(out, "usage: adcc-tape-bench [--quick] [--threads N] "
               "[--json FILE]\n"
               "  --quick      smaller sweeps, for a fast check\n"
               "  --threads N  largest thread count to measure (default: "
               "twice the cores, at most 16)\n"
               "  --json FILE  also write the results as JSON\n");
  return status;
}

static int parse_options(int argc, char **argv, options *o) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->ops = (size_t)1 << 23;
  o->reps = 5;
  o->calls = 20;
  o->max_threads = cores > 0 && cores < 8 ? (int)cores * 2 : 16;
  o->json = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick")) {
      o->ops = (size_t)1 << 20;
      o->reps = 3;
      o->calls = 5;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      o->max_threads = atoi(argv[++i]);
      if (o->max_threads < 1)
        return usage(stderr, -1);
    } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
      o->json = argv[++i];
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      return usage(stdout, 1);
    } else {
      fprintf(stderr, "adcc-tape-bench: error: unknown argument '%s'\n",
              argv[i]);
      return usage(stderr, -1);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed)
    return parsed < 0 ? 2 : 0;
  bench_array(&o);
  bench_f64(&o);
  bench_mixed(&o);
  bench_reuse(&o);
  bench_threads(&o);
  print_tables(&o);
  return o.json ? write_json(&o) : 0;
}
