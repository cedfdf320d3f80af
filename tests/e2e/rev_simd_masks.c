/* Absolute values and negations written as SSE2 masks on the sign bits,
 * as Eigen's pabs and pnegate are: `_mm_and_pd` with the sign bits clear,
 * `_mm_xor_pd` / `_mm_or_pd` / `_mm_and_pd` with only the sign bits set,
 * in every lane or in some (the others left alone).
 * At -O0 they stay integer operations on the bits of the doubles; adcc
 * reads them as fabs, fneg, -fabs and copysign(0, x) in both modes
 * (before: an error at -O0). Central differences and forward mode
 * (dot-product test). */
#include "rev_check.h"

#include <emmintrin.h>

#define N 4

/* The masks are built where they are used, as Eigen does. */
static double masks(const double *x) {
  const __m128d abs_mask =
      _mm_castsi128_pd(_mm_setr_epi32(-1, 0x7FFFFFFF, -1, 0x7FFFFFFF));
  const __m128d sign_mask = _mm_set1_pd(-0.0);
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d abs_a = _mm_and_pd(a, abs_mask);
  __m128d neg_b = _mm_xor_pd(b, sign_mask);
  __m128d negabs = _mm_or_pd(_mm_add_pd(a, b), sign_mask);
  __m128d sign_of = _mm_and_pd(b, sign_mask); /* +-0: no derivative */
  /* One lane only, as in Eigen's quaternion product. */
  __m128d flip_hi = _mm_xor_pd(a, _mm_set_pd(-0.0, 0.0));
  __m128d r = _mm_add_pd(_mm_mul_pd(abs_a, neg_b), _mm_mul_pd(negabs, a));
  r = _mm_add_pd(r, _mm_mul_pd(sign_of, a));
  r = _mm_add_pd(r, _mm_mul_pd(flip_hi, b));
  double out[2];
  _mm_storeu_pd(out, r);
  return out[0] * 1.5 + out[1] + cos(out[0]);
}

int main(void) {
  CHECK_GRAD_AND_DOT(masks, N, 1.0);
  return check_finish();
}
