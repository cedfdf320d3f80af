/* Inline assembly adcc reads as IR, in both modes: Eigen's packet min and
 * max (`minpd`/`maxpd` with the result tied to an input, which Eigen uses
 * under Clang) and its optimization barrier (an empty string tied to a
 * value), including the rounding trick it guards, `(|x| + 2^52) - 2^52`,
 * whose derivative is that of rint: zero. Before: "inline assembly cannot
 * be differentiated" (and Eigen's vectorized exp, maxCoeff and cwiseMax
 * with it). Central differences and forward mode (dot-product test). */
#include "rev_check.h"

#include <emmintrin.h>

#define N 4

static __m128d packet_min(__m128d a, __m128d b) {
  __m128d res = b;
  __asm__("minpd %[a], %[res]" : [res] "+x"(res) : [a] "x"(a));
  return res;
}
static __m128d packet_max(__m128d a, __m128d b) {
  __m128d res = b;
  __asm__("maxpd %[a], %[res]" : [res] "+x"(res) : [a] "x"(a));
  return res;
}

/* Clamps and products of the two packets of x. */
static double clamped(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d lo = packet_min(a, b), hi = packet_max(a, b);
  __m128d c = packet_min(packet_max(_mm_mul_pd(a, b), _mm_set1_pd(-0.2)),
                         _mm_set1_pd(0.3));
  double out[2];
  _mm_storeu_pd(out, _mm_add_pd(_mm_mul_pd(lo, hi), c));
  return out[0] * 2 + out[1] + sin(out[0]);
}

/* Eigen's rint for |v| < 2^52: the sum is kept by the barrier. */
static double round_packet_trick(double v) {
  const double limit = 4503599627370496.0; /* 2^52 */
  double r = fabs(v) + limit;
  __asm__("" : "+g,x"(r));
  r -= limit;
  return v < 0 ? -r : r;
}

/* x0 * 2^k with k = rint(x1 * 3): the rounded factor has no derivative. */
static double scaled(const double *x) {
  double k = round_packet_trick(x[1] * 3.2);
  double y = x[0] * ldexp(1.0, (int)k) + x[2] * k;
  double z = x[3];
  __asm__("" : "+x"(z)); /* a barrier on a plain value */
  return y * z;
}

int main(void) {
  CHECK_GRAD_AND_DOT(clamped, N, 1.0);
  CHECK_GRAD_AND_DOT(scaled, N, 1.0);
  return check_finish();
}
