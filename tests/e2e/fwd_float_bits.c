/* A double whose bits travel through integers: memcpy into a uint64_t,
 * returned and passed as an integer by functions the optimizer keeps apart,
 * through a union, integer heap memory and integer output parameters. Forward
 * mode follows the bits (the tangent travels as the bits of a double the
 * same way); reverse mode too (across calls: rev_float_bits_calls.c; what is
 * left an error: tests/lit/errors/float-bits-calls.c). Never a zero
 * derivative. */
#include "check.h"

#include <stdint.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) uint64_t to_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
__attribute__((noinline)) double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static inline uint64_t to_bits_inline(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static inline double from_bits_inline(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* returned and passed as integers */
static double calls(double x) { return from_bits(to_bits(x * x)) * 2; }
static double inlined(double x) {
  return from_bits_inline(to_bits_inline(x * x)) * 2;
}
/* a union */
static double punned(double x) {
  union {
    double d;
    uint64_t u;
  } a, b;
  a.d = x * x;
  b.u = a.u;
  return b.d * 2;
}
/* a union's integer member kept in an integer variable (a stack slot of its
   own at -O0) and put back */
static double punned_var(double x) {
  union {
    double d;
    uint64_t u;
  } a;
  a.d = x * x;
  uint64_t k = a.u;
  a.u = k;
  return a.d * 2;
}
/* an array copied through an integer array, element by element */
static double int_array(double x) {
  double v[3] = {x, x * x, 1.0}, w[3];
  uint64_t ib[3];
  for (int i = 0; i < 3; i++)
    memcpy(&ib[i], &v[i], sizeof(double));
  for (int i = 0; i < 3; i++)
    memcpy(&w[i], &ib[i], sizeof(double));
  return w[1] * 2 + w[2];
}
/* integer heap memory */
static double heap(double x) {
  uint64_t *m = malloc(2 * sizeof *m);
  m[1] = to_bits_inline(x * x);
  double r = from_bits_inline(m[1]) * 2;
  free(m);
  return r;
}
/* an integer output parameter */
__attribute__((noinline)) void put_bits(uint64_t *p, double x) {
  memcpy(p, &x, sizeof x);
}
__attribute__((noinline)) double get_bits(const uint64_t *p) {
  double x;
  memcpy(&x, p, sizeof x);
  return x;
}
static double out_param(double x) {
  uint64_t s[2];
  put_bits(&s[1], x * x);
  return get_bits(&s[1]) * 2;
}

int main(void) {
  double xs[] = {3.0, -0.7};
  for (int i = 0; i < 2; ++i) {
    double x = xs[i], want = 4 * x;
    CHECK_CLOSE(__enzyme_fwddiff((void *)calls, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)inlined, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)punned, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)heap, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)out_param, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)calls, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)inlined, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)heap, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)punned, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)out_param, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)punned_var, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)punned_var, x), want, 1e-15);
    CHECK_CLOSE(__enzyme_fwddiff((void *)int_array, x, 1.0), want, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)int_array, x), want, 1e-15);
    CHECK_CLOSE(calls(x), 2 * x * x, 1e-15);
  }
  return check_finish();
}
