/* SSE4.1 rounding (`_mm_floor_pd`, `_mm_ceil_pd`, `_mm_round_pd` with each
 * rounding mode), as Eigen's vectorized floor, rint and exp use with
 * -march=native: adcc reads them as LLVM's floor, ceil, roundeven, trunc
 * and nearbyint, whose derivative is zero (before: "the intrinsic
 * 'llvm.x86.sse41.round.pd' is not supported"). The function is compiled
 * for SSE4.1 by its target attribute. Central differences and forward
 * mode (dot-product test). */
#include "rev_check.h"

#include <smmintrin.h>

#define N 4

__attribute__((target("sse4.1"))) static double rounded(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d f = _mm_floor_pd(_mm_mul_pd(a, _mm_set1_pd(3.0)));
  __m128d c = _mm_ceil_pd(_mm_mul_pd(b, _mm_set1_pd(2.5)));
  __m128d n = _mm_round_pd(_mm_add_pd(a, b),
                           _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m128d t =
      _mm_round_pd(_mm_mul_pd(b, _mm_set1_pd(4.0)),
                   _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m128d m = _mm_round_pd(_mm_mul_pd(a, _mm_set1_pd(5.0)),
                           _MM_FROUND_CUR_DIRECTION);
  __m128d r = _mm_add_pd(_mm_mul_pd(a, f), _mm_mul_pd(b, c));
  r = _mm_add_pd(r, _mm_mul_pd(_mm_add_pd(n, t), _mm_mul_pd(a, b)));
  r = _mm_add_pd(r, _mm_mul_pd(m, b));
  double out[2];
  _mm_storeu_pd(out, r);
  return out[0] + 2 * out[1] + sin(out[0]);
}

int main(void) {
  if (!__builtin_cpu_supports("sse4.1")) {
    printf("this test needs a processor with SSE4.1\n");
    return 1;
  }
  CHECK_GRAD_AND_DOT(rounded, N, 1.0);
  return check_finish();
}
