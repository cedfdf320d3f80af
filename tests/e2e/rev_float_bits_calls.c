/* The bits of a double or float passed to a function as an integer, or
 * returned by one as an integer (memcpy into a uint64_t, as C code that
 * hashes or packs values does), in both modes: each such call calls a copy
 * of the function that takes (returns) the float itself
 * (prepare/FloatBitArguments.cpp), so the derivative follows the bits in
 * reverse mode as in forward mode. Checked against analytic values and
 * central differences, forward against reverse. */
#include "check.h"

#include <stdint.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_autodiff_f(void *, ...);
float __enzyme_fwddiff_f(void *, ...);

__attribute__((noinline)) uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
__attribute__((noinline)) double double_of(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* passed and returned as integers */
double round_trip(double x) { return double_of(bits_of(x * x)) * 3; }

/* a record built on the heap from the bits and a plain integer */
__attribute__((noinline)) uint64_t *record(uint64_t bits, uint64_t tag) {
  uint64_t *r = malloc(2 * sizeof *r);
  double v;
  memcpy(&v, &bits, sizeof v);
  *(double *)r = v;
  r[1] = tag;
  return r;
}
double from_record(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  uint64_t *r = record(u, 7);
  double y = ((double *)r)[0] * x + (double)r[1];
  free(r);
  return y;
}

/* passed on as an integer by the callee, beside a double */
__attribute__((noinline)) double scaled(uint64_t bits, double s) {
  return double_of(bits) * s;
}
double passed_on(double x) {
  double y = sin(x);
  uint64_t u;
  memcpy(&u, &y, sizeof u);
  return scaled(u, x) + scaled(u, 2.0);
}

/* bits handed back unchanged by a function that does not know they are a
   double's (only the caller's types say so) */
__attribute__((noinline)) uint64_t same_bits(uint64_t u) { return u; }
double identity(double x) {
  double y = x * x * x, z;
  uint64_t u;
  memcpy(&u, &y, sizeof u);
  u = same_bits(u);
  memcpy(&z, &u, sizeof z);
  return z;
}

/* a float's bits in a uint32_t */
__attribute__((noinline)) uint32_t fbits_of(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
__attribute__((noinline)) float float_of(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
float float_trip(float x) { return float_of(fbits_of(x * x * x)); }

/* the bits in an integer array, read back through a call */
__attribute__((noinline)) double sum_bits(const uint64_t *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += double_of(b[i]) * (i + 1);
  return s;
}
double array_bits(double x) {
  double v[3] = {x, x * x, exp(x)};
  uint64_t b[3];
  memcpy(b, v, sizeof b);
  return sum_bits(b, 3);
}

typedef double (*fn)(double);

static double central(fn f, double x) {
  double h = 1e-6;
  return (f(x + h) - f(x - h)) / (2 * h);
}

/* (A macro: the function differentiated must be known where it is.) */
#define CHECK_BOTH(f, x, want)                                                 \
  do {                                                                         \
    double rev = __enzyme_autodiff((void *)f, x);                              \
    double fwd = __enzyme_fwddiff((void *)f, x, 1.0);                          \
    CHECK_CLOSE(rev, want, 1e-12);                                             \
    CHECK_CLOSE(fwd, want, 1e-12);                                             \
    CHECK_CLOSE(rev, central(f, x), 1e-6);                                     \
  } while (0)

int main(void) {
  double xs[] = {1.3, -0.6};
  for (int i = 0; i < 2; ++i) {
    double x = xs[i];
    CHECK_BOTH(round_trip, x, 6 * x);
    CHECK_BOTH(from_record, x, 2 * x);
    CHECK_BOTH(passed_on, x, cos(x) * x + sin(x) + 2 * cos(x));
    CHECK_BOTH(array_bits, x, 1 + 4 * x + 3 * exp(x));
    CHECK_BOTH(identity, x, 3 * x * x);
    CHECK_CLOSE(from_record(x), x * x + 7, 1e-15);
    float f = (float)x;
    CHECK_CLOSE(__enzyme_autodiff_f((void *)float_trip, f), 3 * f * f, 1e-6);
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)float_trip, f, 1.0f), 3 * f * f,
                1e-6);
  }
  return check_finish();
}
