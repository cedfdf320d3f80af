// Issue 33 in OpenMP regions: the threads of a parallel loop store a float
// with a derivative in a heap object and then a pointer over it (the order
// a float, then a pointer), and store pointers into an array of the
// caller's. The threads have no request of their own: they record their
// pointer stores themselves, the reverse of the region undoes them on the
// thread of the same number, and the request's end puts back the pointer
// shadows the caller's memory ended the augmented sweep with
// (docs/reverse-mode.md, "Shadows of memory reused"). The shadows of the
// stored pointers lie on a page at an address whose low 32 bits, read as a
// float, are 2^23 or more. Teams of 1, 2 and 4 threads; reverse mode
// against forward mode, central differences and the exact derivative.
#include "check.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { N = 16 };

// Pages at an address whose low 32 bits are a large float, or null.
static void *large_bits_pages(void) {
  for (uintptr_t a = 0x4b000000; a <= 0x4e000000; a += 0x01000000) {
    void *p = mmap((void *)a, 8192, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == (void *)a)
      return p;
    if (p != MAP_FAILED)
      munmap(p, 8192);
  }
  return NULL;
}

struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

// sum_i x_i^3, each thread's objects linked to x_i after their floats were
// read; where[i] = &x[i] (its shadow ends holding &dx[i]).
static float cubes(float *x, float **where) {
  float s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
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

int main(void) {
  char *page = large_bits_pages();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float x[N], *where[N], *fwhere[N], *twhere[N], t[N];
  float *dx = (float *)page, **dwhere = (float **)(page + 4096);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5f + 0.125f * i;
    t[i] = 1;
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double sum = 0;
    for (int i = 0; i < N; ++i)
      sum += 3.0 * x[i] * x[i];
    float fwd = __enzyme_fwddiff((void *)cubes, enzyme_dup, x, t, enzyme_dup,
                                 fwhere, twhere);
    CHECK_CLOSE(fwd, sum, 1e-5);
    for (int run = 0; run < 3; ++run) {
      for (int i = 0; i < N; ++i) {
        dx[i] = 0;
        dwhere[i] = NULL;
      }
      __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx, enzyme_dup, where,
                        dwhere);
      for (int i = 0; i < N; ++i) {
        CHECK_CLOSE(dx[i], 3.0 * x[i] * x[i], 1e-5);
        CHECK_TRUE(dwhere[i] == dx + i);
      }
    }
    // (Central differences of one input.)
    float keep = x[3], h = 1e-2f;
    x[3] = keep + h;
    double up = cubes(x, where);
    x[3] = keep - h;
    double down = cubes(x, where);
    x[3] = keep;
    CHECK_CLOSE((up - down) / (2 * h), 3.0 * keep * keep, 1e-2);
  }
  return check_finish();
}
