/*===- instances.h - The kernels' sizes and input arrays -------------------===*
 *
 * The benchmark table and the set-up of each kernel's arrays, shared by
 * forward_bench.c and reverse_bench.c. Included after the program defines
 * what differs between them:
 *   bench_t, arr_t and ROLE_IN/ROLE_OUT/ROLE_TMP;
 *   add_arr(b, role, len, lo, hi): adds an array, inputs with values in
 *     [lo, hi] (and whatever seeds or weights the program draws);
 *   SET_FNS(b, kernel): points the instance at the kernel's wrappers;
 *   BENCH_LOGSUMEXP_LARGE: the larger size of logsumexp.
 * The random inputs are drawn in the same order as before this file
 * existed, so every instance holds the same numbers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_INSTANCES_H
#define ADCC_BENCH_INSTANCES_H

#include <stdio.h>
#include <string.h>

/* The benchmark table: kernel name and two sizes (n, steps). */
typedef struct {
  const char *name;
  int n[2], steps[2];
} spec_t;

static const spec_t specs[] = {
    {"dot", {4096, 262144}, {0, 0}},
    {"sumsq", {4096, 262144}, {0, 0}},
    {"rosenbrock", {4096, 262144}, {0, 0}},
    {"logsumexp", {4096, BENCH_LOGSUMEXP_LARGE}, {0, 0}},
    {"matvec", {64, 1024}, {0, 0}},
    {"matmul", {32, 128}, {0, 0}},
    {"heat1d", {1024, 65536}, {50, 5}},
    {"stencil2d", {64, 512}, {10, 2}},
    {"rk4", {0, 0}, {1000, 100000}},
};
#define NSPECS ((int)(sizeof specs / sizeof specs[0]))

/* A constant (inactive) n x n matrix in b->c, entries in [-1, 1]. */
static void add_matrix(bench_t *b, int n) {
  b->c = alloc((long)n * n);
  for (long i = 0; i < (long)n * n; i++)
    b->c[i] = urand(-1, 1);
}

/* Instance `which` (0 small, 1 large) of the kernel \p s: its name, sizes,
 * arrays, result kind and wrappers. */
static void setup_instance(bench_t *b, const spec_t *s, int which) {
  memset(b, 0, sizeof *b);
  b->name = s->name;
  int n = b->n = s->n[which], steps = b->steps = s->steps[which];
  const char *nm = s->name;
  if (!strcmp(nm, "dot")) {
    add_arr(b, ROLE_IN, n, -1, 1);
    add_arr(b, ROLE_IN, n, -1, 1);
    b->has_ret = 1;
    SET_FNS(b, dot);
    snprintf(b->size, sizeof b->size, "n=%d", n);
  } else if (!strcmp(nm, "sumsq")) {
    add_arr(b, ROLE_IN, n, -1, 1);
    b->has_ret = 1;
    SET_FNS(b, sumsq);
    snprintf(b->size, sizeof b->size, "n=%d", n);
  } else if (!strcmp(nm, "rosenbrock")) {
    add_arr(b, ROLE_IN, n, -1.5, 1.5);
    b->has_ret = 1;
    SET_FNS(b, rosenbrock);
    snprintf(b->size, sizeof b->size, "n=%d", n);
  } else if (!strcmp(nm, "logsumexp")) {
    add_arr(b, ROLE_IN, n, -5, 5);
    b->has_ret = 1;
    SET_FNS(b, logsumexp);
    snprintf(b->size, sizeof b->size, "n=%d", n);
  } else if (!strcmp(nm, "matvec")) {
    add_matrix(b, n);
    add_arr(b, ROLE_IN, n, -1, 1);
    add_arr(b, ROLE_OUT, n, 0, 0);
    SET_FNS(b, matvec);
    snprintf(b->size, sizeof b->size, "%dx%d", n, n);
  } else if (!strcmp(nm, "matmul")) {
    add_matrix(b, n);
    add_arr(b, ROLE_IN, (long)n * n, -1, 1);
    add_arr(b, ROLE_OUT, (long)n * n, 0, 0);
    SET_FNS(b, matmul);
    snprintf(b->size, sizeof b->size, "%dx%d", n, n);
  } else if (!strcmp(nm, "heat1d")) {
    add_arr(b, ROLE_IN, n, 0, 1);
    add_arr(b, ROLE_OUT, n, 0, 0);
    add_arr(b, ROLE_TMP, n, 0, 0);
    SET_FNS(b, heat1d);
    snprintf(b->size, sizeof b->size, "n=%d,steps=%d", n, 2 * steps);
  } else if (!strcmp(nm, "stencil2d")) {
    add_arr(b, ROLE_IN, (long)n * n, 0, 1);
    add_arr(b, ROLE_OUT, (long)n * n, 0, 0);
    add_arr(b, ROLE_TMP, (long)n * n, 0, 0);
    SET_FNS(b, stencil2d);
    snprintf(b->size, sizeof b->size, "%dx%d,steps=%d", n, n, 2 * steps);
  } else if (!strcmp(nm, "rk4")) {
    /* rate constants around (10, 1, 2), state (E, S, ES, P) */
    arr_t *k = add_arr(b, ROLE_IN, 3, 0, 0);
    double k0[3] = {10.0, 1.0, 2.0}, y0[4] = {1.0, 2.0, 0.1, 0.0};
    for (int i = 0; i < 3; i++)
      k->v[i] = k->orig[i] = k0[i] * urand(0.9, 1.1);
    arr_t *y = add_arr(b, ROLE_IN, 4, 0, 0);
    for (int i = 0; i < 4; i++)
      y->v[i] = y->orig[i] = y0[i] * urand(0.9, 1.1);
    add_arr(b, ROLE_OUT, 4, 0, 0);
    b->h = 5.0 / steps; /* integrate to t = 5 whatever the step count */
    SET_FNS(b, rk4);
    snprintf(b->size, sizeof b->size, "steps=%d", steps);
  }
}

#endif /* ADCC_BENCH_INSTANCES_H */
