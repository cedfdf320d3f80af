// Issue 33 across the threads and sibling tasks of one request: a pointer
// stored by one OpenMP task or thread, then a float with a derivative that
// another task or thread stores over the same bytes, ordered by the
// program's synchronisation (a task's `depend` clauses, a barrier, the
// region's end). The float's store must put back what the bytes held
// before the pointer's shadow, whichever thread or task stored that
// pointer: the marks of pointer shadows are one table per request, which
// all its threads and tasks share (docs/reverse-mode.md, "Shadows of
// memory reused"). The shadows of the stored pointers lie on a page at an
// address whose low 32 bits, read as a float, are 2^23 or more: a
// pointer's shadow read as the float's adjoint cannot pass by chance.
// Before the shared table, the sibling tasks gave 144 of 144 checks wrong
// (also with 1 thread), the barrier 108 of 144 with 4 threads (also where
// each thread's tasks store its links). Teams of 1,
// 2 and 4 threads; reverse mode against forward mode, central differences
// and the exact derivative.
#include "check.h"
#include "large_bits_page.h"

#include <omp.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { N = 48 };

struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

// sum_i x_i^3: a task links block i to x_i, a sibling task that depends
// on it stores a float over the link; where[i] = &x[i].
static float sibling_links(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    struct particle *q = malloc(N * sizeof *q);
    for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i) depend(out : q[i])
      link_block(q + i, x + i);
#pragma omp task firstprivate(i) shared(s) depend(in : q[i])
      {
        q[i].pos = x[i] * x[i];
        float r = q[i].pos * x[i];
        where[i] = x + i;
#pragma omp atomic
        s += r;
      }
    }
#pragma omp taskwait
    free(q);
  }
  return s;
}

// The same, with a second task relinking the block (a pointer's shadow
// over a pointer's shadow of another task) before the float's task: the
// float's store puts back what the bytes held before the first link.
static float sibling_relinks(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    struct particle *q = malloc(N * sizeof *q);
    for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i) depend(out : q[i])
      link_block(q + i, x + (i + 1) % N);
#pragma omp task firstprivate(i) depend(inout : q[i])
      link_block(q + i, x + i);
#pragma omp task firstprivate(i) shared(s) depend(in : q[i])
      {
        q[i].pos = x[i] * x[i];
        float r = q[i].pos * x[i];
        where[i] = x + i;
#pragma omp atomic
        s += r;
      }
    }
#pragma omp taskwait
    free(q);
  }
  return s;
}

// Each thread links the blocks of its share; after a barrier each thread
// stores floats over the links of another thread's share.
static float barrier_links(float *x, float **where) {
  float s = 0;
  struct particle *q = malloc(N * sizeof *q);
#pragma omp parallel shared(s)
  {
    int t = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = t; i < N; i += n)
      link_block(q + i, x + i);
#pragma omp barrier
    float local = 0;
    for (int i = n - 1 - t; i < N; i += n) {
      q[i].pos = x[i] * x[i];
      local += q[i].pos * x[i];
      where[i] = x + i;
    }
#pragma omp atomic
    s += local;
  }
  free(q);
  return s;
}

// The region's threads link the blocks; after the region the calling
// thread stores the floats over the links.
static float region_links(float *x, float **where) {
  struct particle *q = malloc(N * sizeof *q);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; ++i)
    link_block(q + i, x + i);
  float s = 0;
  for (int i = 0; i < N; ++i) {
    q[i].pos = x[i] * x[i];
    s += q[i].pos * x[i];
    where[i] = x + i;
  }
  free(q);
  return s;
}


// Each thread's tasks link the blocks of its share; after a barrier (which
// waits for them) each thread stores floats over another thread's links.
static float task_barrier_links(float *x, float **where) {
  float s = 0;
  struct particle *q = malloc(N * sizeof *q);
#pragma omp parallel shared(s)
  {
    int t = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = t; i < N; i += n) {
#pragma omp task firstprivate(i)
      link_block(q + i, x + i);
    }
#pragma omp barrier
    float local = 0;
    for (int i = n - 1 - t; i < N; i += n) {
      q[i].pos = x[i] * x[i];
      local += q[i].pos * x[i];
      where[i] = x + i;
    }
#pragma omp atomic
    s += local;
  }
  free(q);
  return s;
}

typedef float (*sum_fn)(float *, float **);

static void check(sum_fn f, float *x, float *dx, float **dwhere) {
  float *where[N], *fwhere[N], *twhere[N], t[N];
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    t[i] = 1;
    sum += 3.0 * x[i] * x[i];
  }
  float fwd = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_dup,
                               fwhere, twhere);
  CHECK_CLOSE(fwd, sum, 1e-5);
  for (int run = 0; run < 3; ++run) {
    for (int i = 0; i < N; ++i) {
      dx[i] = 0;
      dwhere[i] = NULL;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, where,
                      dwhere);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(dx[i], 3.0 * x[i] * x[i], 1e-5);
      CHECK_TRUE(dwhere[i] == dx + i);
    }
  }
  // (Central differences of one input.)
  float keep = x[5], h = 1e-2f;
  x[5] = keep + h;
  double up = f(x, where);
  x[5] = keep - h;
  double down = f(x, where);
  x[5] = keep;
  CHECK_CLOSE((up - down) / (2 * h), 3.0 * keep * keep, 1e-2);
}

int main(void) {
  char *page = large_bits_page();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float x[N];
  float *dx = (float *)page, **dwhere = (float **)(page + 2048);
  for (int i = 0; i < N; ++i)
    x[i] = 0.5f + 0.0125f * i;
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    check(sibling_links, x, dx, dwhere);
    check(sibling_relinks, x, dx, dwhere);
    check(barrier_links, x, dx, dwhere);
    check(region_links, x, dx, dwhere);
    check(task_barrier_links, x, dx, dwhere);
  }
  return check_finish();
}
