/* Allocators called through function pointers: a struct of callbacks
 * holding the C library's malloc, calloc and free (as libraries that let
 * their users replace the allocator do), and one holding the program's own
 * allocator. The blocks they return receive values with derivatives; the
 * derivative gives them shadows as it does for direct calls. At -O0 these
 * stopped with "stored into memory that has no shadow" (the call through
 * the pointer was taken to return memory without derivatives; malloc, a
 * declaration, was no target of it). Reverse and forward mode against
 * central differences, every level. */
#include "rev_check.h"

#include <stdlib.h>

typedef struct {
  int flags;
  void *(*alloc)(size_t);
  void *(*zalloc)(size_t, size_t);
  void (*release)(void *);
} allocator;

allocator libc_allocator = {0, malloc, calloc, free};

static size_t counted;
__attribute__((noinline)) static void *counting_alloc(size_t n) {
  counted += n;
  return malloc(n);
}
allocator own_allocator = {1, counting_alloc, calloc, free};

__attribute__((noinline)) static double *new_vector(const allocator *a,
                                                    int n, int zeroed) {
  return zeroed ? a->zalloc(n, sizeof(double))
                : a->alloc(n * sizeof(double));
}

/* a small "library" computation on blocks from the allocator */
static double energy_with(const allocator *a, const double *x) {
  double *u = new_vector(a, 4, 0), *acc = new_vector(a, 4, 1);
  for (int i = 0; i < 4; ++i)
    u[i] = x[i] * x[(i + 1) % 4];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 4; ++i)
      acc[i] += sin(u[i]) * x[(i + k) % 4];
  double e = 0;
  for (int i = 0; i < 4; ++i)
    e += acc[i] * acc[i];
  a->release(u);
  a->release(acc);
  return e;
}
static double energy_libc(const double *x) {
  return energy_with(&libc_allocator, x);
}
static double energy_own(const double *x) {
  return energy_with(&own_allocator, x);
}

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.4};
  double g[4] = {0}, h[4] = {0};
  __enzyme_autodiff((void *)energy_libc, enzyme_dup, x, g);
  __enzyme_autodiff((void *)energy_own, enzyme_dup, x, h);
  for (int i = 0; i < 4; ++i) {
    double fd = fd_partial(energy_libc, x, i);
    CHECK_CLOSE(g[i], fd, REV_TOL_FD);
    CHECK_CLOSE(h[i], g[i], 1e-14);
    double t[4] = {0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)energy_libc, enzyme_dup, x, t), g[i],
                1e-12);
  }
  CHECK_TRUE(counted > 0);
  return check_finish();
}
