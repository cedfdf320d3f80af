// Issue 33 in OpenMP tasks, whose reverse may run on another thread than
// their augmented sweep: each task stores a float with a derivative in a
// heap block and then a pointer over it (a float, then a pointer), or a
// pointer and then a float over it, and stores a pointer into an array of
// the caller's. A task marks and records its pointer stores on a state of
// its own, which its reverse takes on whichever thread it runs; the
// request's end puts back the pointer shadows the caller's memory ended
// the augmented sweep with (docs/reverse-mode.md, "Shadows of memory
// reused"). The tasks' creator may store the pointer, and the task the
// float over it (also the creator of the task's creator). The shadows of
// the stored pointers lie on a page at an address
// whose low 32 bits, read as a float, are 2^23 or more: before the tasks'
// own records, `float_then_pointer` gave adjoints near 2^24 in about 40%
// of the checks at -O0 with 4 threads. Teams of 1, 2 and 4 threads;
// reverse mode against forward mode, central differences and the exact
// derivative.
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

// sum_i x_i^3, each task's block linked to x_i after its float was read;
// where[i] = &x[i] (its shadow ends holding &dx[i]).
static float float_then_pointer(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i) shared(s)
      {
        struct particle *q = malloc(sizeof *q);
        q->pos = x[i] * x[i];
        float r = q->pos * x[i];
        link_block(q, x + i);
        where[i] = x + i;
        free(q);
#pragma omp atomic
        s += r;
      }
    }
#pragma omp taskwait
  }
  return s;
}

// The same sum, each task's block linked first, then its float stored
// over the link.
static float pointer_then_float(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i) shared(s)
      {
        struct particle *q = malloc(sizeof *q);
        link_block(q, x + i);
        q->pos = x[i] * x[i];
        float r = q->pos * x[i];
        where[i] = x + i;
        free(q);
#pragma omp atomic
        s += r;
      }
    }
#pragma omp taskwait
  }
  return s;
}

// The same sum, each block linked by the tasks' creator before it creates
// the task that stores a float over the link, maybe on another thread: the
// creator's mark is one of another state than the task's. Before the task
// put back its creator's marks, about 100 of the 144 checks of a team of
// 4 threads were wrong.
static float creator_links(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    struct particle *q = malloc(N * sizeof *q);
    for (int i = 0; i < N; ++i) {
      link_block(q + i, x + i);
#pragma omp task firstprivate(i) shared(s)
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

// The same, the links stored by the creator of a task that creates the
// tasks storing the floats (the creator's creator's marks).
static float creator_creator_links(float *x, float **where) {
  float s = 0;
#pragma omp parallel
#pragma omp single
  {
    struct particle *q = malloc(N * sizeof *q);
    for (int i = 0; i < N; ++i)
      link_block(q + i, x + i);
    // (The inner tasks may outlive the task that created them: the
    // taskgroup waits for them.)
#pragma omp taskgroup
    for (int k = 0; k < N; k += 8) {
#pragma omp task firstprivate(k) shared(s)
      for (int i = k; i < k + 8; ++i) {
#pragma omp task firstprivate(i) shared(s)
        {
          q[i].pos = x[i] * x[i];
          float r = q[i].pos * x[i];
          where[i] = x + i;
#pragma omp atomic
          s += r;
        }
      }
    }
    free(q);
  }
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
  float keep = x[3], h = 1e-2f;
  x[3] = keep + h;
  double up = f(x, where);
  x[3] = keep - h;
  double down = f(x, where);
  x[3] = keep;
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
    check(float_then_pointer, x, dx, dwhere);
    check(pointer_then_float, x, dx, dwhere);
    check(creator_links, x, dx, dwhere);
    check(creator_creator_links, x, dx, dwhere);
  }
  return check_finish();
}
