// Issue 33 with concurrent gradients: two threads of the program (its own
// threads, or an OpenMP region's, the gradients' regions nested) each
// compute gradients, one after the other, of functions whose OpenMP
// regions store pointers and floats over them in the same bytes (a float
// then a pointer, a pointer then a float, and links that the thread that
// starts the region stored before it, with floats stored over them by the
// region's threads). The threads of a region mark and record their
// pointer stores on states of the region's own (runtime/lib/parallel.c):
// before, another thread's request beginning while a region's threads
// worked for a request made their records stale (about 10-20% of the
// adjoints wrong at -O0 with teams of 2 and 4), and the links that the
// region's starting thread stored were not the other threads' marks (108
// of 144 adjoints wrong with a team of 4, one request at a time).
// docs/reverse-mode.md, "Shadows of memory reused". The shadows of the
// stored pointers lie on a page at an address whose low 32 bits, read as
// a float, are 2^23 or more. Reverse mode against forward mode, central
// differences and the exact derivative; teams of 1, 2 and 4 threads.
#include "check.h"
#include "large_bits_page.h"

#include <omp.h>
#include <pthread.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { N = 48, RUNS = 6, CALLERS = 2, KINDS = 3 };

struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

// sum_i x_i^3; where[i] = &x[i] (its shadow ends holding &dx[i]).
static float pointer_then_float(float *x, float **where) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i) {
    struct particle *q = malloc(sizeof *q);
    link_block(q, x + i);
    q->pos = x[i] * x[i];
    s += q->pos * x[i];
    where[i] = x + i;
    free(q);
  }
  return s;
}

static float float_then_pointer(float *x, float **where) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i) {
    struct particle *q = malloc(sizeof *q);
    q->pos = x[i] * x[i];
    float r = q->pos * x[i];
    link_block(q, x + i);
    where[i] = x + i;
    free(q);
    s += r;
  }
  return s;
}

// The links stored before the region, the floats by its threads.
static float starter_links(float *x, float **where) {
  float s = 0;
  struct particle *q = malloc(N * sizeof *q);
  for (int i = 0; i < N; ++i)
    link_block(q + i, x + i);
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i) {
    q[i].pos = x[i] * x[i];
    s += q[i].pos * x[i];
    where[i] = x + i;
  }
  free(q);
  return s;
}

typedef float (*sum_fn)(float *, float **);

static char *page;
static int team;
static float xs[CALLERS][N];
static float got[CALLERS][KINDS][RUNS][N];
static int links_ok[CALLERS][KINDS][RUNS];

static void gradient(int kind, float *x, float *dx, float **where,
                     float **dwhere) {
  if (kind == 0)
    __enzyme_autodiff((void *)pointer_then_float, enzyme_dup, x, dx, enzyme_dup,
                      where, dwhere);
  else if (kind == 1)
    __enzyme_autodiff((void *)float_then_pointer, enzyme_dup, x, dx, enzyme_dup,
                      where, dwhere);
  else
    __enzyme_autodiff((void *)starter_links, enzyme_dup, x, dx, enzyme_dup,
                      where, dwhere);
}

static void *caller(void *arg) {
  int c = (int)(long)arg;
  float *x = xs[c], *where[N];
  float *dx = (float *)(page + 1024 * c);
  float **dwhere = (float **)(page + 2048 + 1024 * c);
  omp_set_num_threads(team);
  for (int run = 0; run < RUNS; ++run)
    for (int k = 0; k < KINDS; ++k) {
      for (int i = 0; i < N; ++i) {
        dx[i] = 0;
        dwhere[i] = NULL;
      }
      gradient(k, x, dx, where, dwhere);
      int ok = 1;
      for (int i = 0; i < N; ++i) {
        got[c][k][run][i] = dx[i];
        ok = ok && dwhere[i] == dx + i;
      }
      links_ok[c][k][run] = ok;
    }
  return NULL;
}

int main(void) {
  page = large_bits_page();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  for (int c = 0; c < CALLERS; ++c)
    for (int i = 0; i < N; ++i)
      xs[c][i] = 0.5f + 0.0125f * i + 0.25f * c;
  static const sum_fn fns[KINDS] = {pointer_then_float, float_then_pointer,
                                    starter_links};
  // The callers are threads of the program's own, then the threads of an
  // OpenMP region of its own (the gradients' regions nested in it).
  omp_set_max_active_levels(2);
  for (int nested = 0; nested < 2; ++nested)
    for (team = 1; team <= 4; team *= 2) {
      if (nested) {
#pragma omp parallel num_threads(CALLERS)
        caller((void *)(long)omp_get_thread_num());
      } else {
        pthread_t threads[CALLERS];
        for (int c = 0; c < CALLERS; ++c)
          pthread_create(&threads[c], NULL, caller, (void *)(long)c);
        for (int c = 0; c < CALLERS; ++c)
          pthread_join(threads[c], NULL);
      }
      for (int c = 0; c < CALLERS; ++c)
        for (int k = 0; k < KINDS; ++k)
          for (int run = 0; run < RUNS; ++run) {
            for (int i = 0; i < N; ++i)
              CHECK_CLOSE(got[c][k][run][i], 3.0 * xs[c][i] * xs[c][i], 1e-5);
            CHECK_TRUE(links_ok[c][k][run]);
          }
    }
  // Forward mode and central differences of one input, on this thread.
  float *x = xs[0], *where[N], *twhere[N], t[N];
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    t[i] = 1;
    sum += 3.0 * x[i] * x[i];
  }
  for (int k = 0; k < KINDS; ++k) {
    float tangent =
        k == 0 ? __enzyme_fwddiff((void *)pointer_then_float, enzyme_dup, x, t,
                                  enzyme_dup, where, twhere)
        : k == 1 ? __enzyme_fwddiff((void *)float_then_pointer, enzyme_dup, x,
                                    t, enzyme_dup, where, twhere)
                 : __enzyme_fwddiff((void *)starter_links, enzyme_dup, x, t,
                                    enzyme_dup, where, twhere);
    CHECK_CLOSE(tangent, sum, 1e-5);
    float keep = x[3], h = 1e-2f;
    x[3] = keep + h;
    double up = fns[k](x, where);
    x[3] = keep - h;
    double down = fns[k](x, where);
    x[3] = keep;
    CHECK_CLOSE((up - down) / (2 * h), 3.0 * keep * keep, 1e-2);
  }
  return check_finish();
}
