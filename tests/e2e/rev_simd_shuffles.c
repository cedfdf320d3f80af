/* Doubles moved by SSE2 integer shuffles, as Eigen's packet broadcasts do:
 * `_mm_shuffle_epi32` of a `__m128d` cast to `__m128i` and back. At -O1
 * and up InstCombine reads the doubles as <4 x i32>; at -O0 the __m128i
 * goes through a local variable. adcc reads both as shuffles of doubles,
 * in both modes (before: an error in forward mode, and the derivative
 * through the shuffle silently dropped in reverse mode at -O0). Central
 * differences and forward mode (dot-product test). */
#include "rev_check.h"

#include <emmintrin.h>

#define N 6

static __m128d splat_lo(__m128d v) {
  return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x44));
}
static __m128d splat_hi(__m128d v) {
  return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0xEE));
}
static __m128d swap(__m128d v) {
  return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x4E));
}

/* A 2x2 block times the pairs of x, as a GEBP micro-kernel broadcasts its
 * right-hand side. */
static double broadcasts(const double *x) {
  __m128d acc = _mm_setzero_pd();
  __m128d col0 = _mm_loadu_pd(x), col1 = _mm_loadu_pd(x + 2);
  for (int k = 0; k < N; k += 2) {
    __m128d b = _mm_loadu_pd(x + k);
    acc = _mm_add_pd(acc, _mm_mul_pd(col0, splat_lo(b)));
    acc = _mm_add_pd(acc, _mm_mul_pd(col1, splat_hi(b)));
    acc = _mm_mul_pd(acc, swap(_mm_loadu_pd(x + (k + 2) % N)));
  }
  double out[2];
  _mm_storeu_pd(out, acc);
  return out[0] + 3 * out[1] + sin(out[0] * out[1]);
}

int main(void) {
  CHECK_GRAD_AND_DOT(broadcasts, N, 1.0);
  return check_finish();
}
