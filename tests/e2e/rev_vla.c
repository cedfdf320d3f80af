/* Reverse mode through variable-length arrays: a VLA sized by an argument,
 * and VLAs allocated in each iteration of a loop (with the stack saved and
 * restored around them). Their shadows live on the tape, sized at run time
 * (the element count is recorded for the release). Also byte buffers from
 * alloca(): alone, chosen at run time against malloc (Eigen's
 * ei_declare_aligned_stack_constructed_variable, which crashed at -O0 and
 * -O1 and gave a zero gradient at -O2: the byte buffer had no shadow), and
 * aligned by integer arithmetic on its address (Eigen's aligned alloca at
 * -O0). And heap blocks aligned the same way by a function of their own,
 * which keeps the block's address in front of the aligned one (Eigen's
 * handmade_aligned_malloc with AVX: its result had no shadow, a crash at
 * -O0). Central differences and forward mode (dot-product test). */
#include "rev_check.h"

#include <stdint.h>
#include <stdlib.h>

#define N 5

int rev_vla_n = N;

static double vla(const double *x) {
  int n = rev_vla_n;
  double a[n];
  for (int i = 0; i < n; i++)
    a[i] = sin(x[i]) * x[i];
  double s = 0;
  for (int k = 1; k <= 3; k++) {
    double b[k * n];
    for (int i = 0; i < k * n; i++)
      b[i] = a[i % n] * k + x[(i + 1) % n];
    for (int i = 0; i < k * n; i++)
      s += b[i] * b[i];
  }
  return s;
}

static double fill_and_sum(double *buf, const double *x, int n) {
  for (int i = 0; i < n; i++)
    buf[i] = sin(x[i]) * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += buf[i] * x[(i + 1) % n];
  return s;
}

static double bytes(const double *x) {
  int n = rev_vla_n;
  double *buf = (double *)__builtin_alloca(n * sizeof(double));
  return fill_and_sum(buf, x, n);
}

/* Small sizes on the stack, large ones on the heap; or a buffer given. */
static double stack_or_heap_in(const double *x, int n, double *given) {
  double *buf = given ? given
                : n * sizeof(double) < 4096
                    ? (double *)__builtin_alloca(n * sizeof(double))
                    : (double *)malloc(n * sizeof(double));
  double s = fill_and_sum(buf, x, n);
  if (!given && n * sizeof(double) >= 4096)
    free(buf);
  return s;
}
static double stack_or_heap(const double *x) {
  return stack_or_heap_in(x, rev_vla_n, NULL);
}

static double aligned(const double *x) {
  int n = rev_vla_n;
  double *buf =
      (double *)(((uintptr_t)__builtin_alloca(n * sizeof(double) + 31) + 31) &
                 ~(uintptr_t)31);
  return fill_and_sum(buf, x, n);
}

static void *aligned_malloc(size_t size) {
  void *original = malloc(size + 32);
  if (!original)
    return NULL;
  void *a = (void *)(((uintptr_t)original & ~(uintptr_t)31) + 32);
  *((void **)a - 1) = original;
  return a;
}

static void aligned_free(void *p) {
  if (p)
    free(*((void **)p - 1));
}

typedef struct {
  double *data;
  long n;
} vec;

static void vec_init(vec *v, long n) {
  v->data = aligned_malloc(n * sizeof(double));
  v->n = n;
}

static double aligned_heap(const double *x) {
  vec v;
  vec_init(&v, rev_vla_n);
  double s = fill_and_sum(v.data, x, (int)v.n);
  aligned_free(v.data);
  return s;
}

/* The second element, addressed through an integer. */
static double offset_bits(const double *x) {
  const double *p = (const double *)((uintptr_t)x + sizeof(double));
  return *p * *p * x[0];
}

int main(void) {
  double x[N], g[N] = {0}, v[N], dv[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.5 * rev_rand();
  __enzyme_autodiff((void *)vla, x, g);
  printf("vla: d/dx0 = %.12g\n", g[0]);
  CHECK_GRAD(vla, x, N, g, NULL);
  rev_dir(g, v, N);
  for (int i = 0; i < N; ++i)
    dv[i] = v[i];
  CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)vla, x, dv));

  CHECK_GRAD_AND_DOT(bytes, N, 1.0);
  CHECK_GRAD_AND_DOT(stack_or_heap, N, 1.0);
  CHECK_GRAD_AND_DOT(aligned, N, 1.0);
  CHECK_GRAD_AND_DOT(aligned_heap, N, 1.0);
  CHECK_GRAD_AND_DOT(offset_bits, 2, 1.0);
  return check_finish();
}
