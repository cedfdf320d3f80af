/* Comparison masks combined with data by and, andnot and or in functions
 * of their own, where the mask is only another double (Eigen's pand,
 * pandnot and por at -O0, which its pselect, LinSpaced, exp and floor
 * use): adcc decides lane by lane at run time which operand is the mask
 * (before: "integer bits reinterpreted as a floating-point value"). Also
 * the rounding trick `(|x| + 2^52) - 2^52` behind Eigen's optimization
 * barrier with the sum computed by such a function (Eigen's SSE2 print and
 * pfloor at -O0): its derivative is zero (before the lane masks, an error;
 * with them alone, the derivative of |x|, a wrong gradient). Central
 * differences and forward mode (dot-product test). */
#include "rev_check.h"

#include <emmintrin.h>
#include <stdint.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE __m128d p_and(__m128d a, __m128d b) { return _mm_and_pd(a, b); }
static NOINLINE __m128d p_andnot(__m128d a, __m128d b) {
  return _mm_andnot_pd(a, b);
}
static NOINLINE __m128d p_or(__m128d a, __m128d b) { return _mm_or_pd(a, b); }
static NOINLINE __m128d p_add(__m128d a, __m128d b) { return _mm_add_pd(a, b); }

/* Eigen's pselect for SSE2. */
static __m128d select_pd(__m128d mask, __m128d a, __m128d b) {
  return p_or(p_and(mask, a), p_andnot(mask, b));
}

static double selections(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d lo = select_pd(_mm_cmplt_pd(a, b), a, b); /* min */
  __m128d hi = select_pd(_mm_cmplt_pd(a, b), b, a); /* max */
  /* A mask on either side of and; an absolute value by a mask that is a
   * run-time argument of p_and. */
  __m128d pos = p_and(a, _mm_cmpgt_pd(a, _mm_setzero_pd()));
  __m128d abs =
      p_and(_mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL)), b);
  /* copysign(b, a) from masks that are run-time arguments of p_and. */
  __m128d sign =
      _mm_castsi128_pd(_mm_set1_epi64x((long long)0x8000000000000000ULL));
  __m128d nosign = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
  __m128d cs = p_or(p_and(a, sign), p_and(b, nosign));
  __m128d r = _mm_add_pd(_mm_mul_pd(lo, hi), _mm_mul_pd(pos, abs));
  r = _mm_add_pd(r, _mm_mul_pd(hi, hi));
  r = _mm_add_pd(r, _mm_mul_pd(cs, _mm_add_pd(a, b)));
  double o[2];
  _mm_storeu_pd(o, r);
  return o[0] + 3 * o[1];
}

/* Eigen's SSE2 print and pfloor. */
static __m128d floor_pd(__m128d a) {
  const __m128d limit = _mm_set1_pd(4503599627370496.0); /* 2^52 */
  __m128d abs_a =
      p_and(_mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL)), a);
  __m128d r = p_add(abs_a, limit);
  __asm__("" : "+x"(r));
  r = _mm_sub_pd(r, limit);
  r = select_pd(_mm_cmplt_pd(abs_a, limit),
                select_pd(_mm_cmplt_pd(a, _mm_setzero_pd()),
                          _mm_sub_pd(_mm_setzero_pd(), r), r),
                a);
  __m128d mask = p_and(_mm_cmpgt_pd(r, a), _mm_set1_pd(1.0));
  return _mm_sub_pd(r, mask);
}

static double floors(const double *x) {
  __m128d a = _mm_mul_pd(_mm_loadu_pd(x), _mm_set1_pd(7.0));
  __m128d f = floor_pd(a);
  __m128d r = _mm_mul_pd(f, _mm_loadu_pd(x)); /* d/dx = floor(7x) */
  double o[2];
  _mm_storeu_pd(o, r);
  return o[0] + 2 * o[1];
}

int main(void) {
  CHECK_GRAD_AND_DOT(selections, 4, 1.0);
  CHECK_GRAD_AND_DOT(floors, 2, 1.0);
  {
    double x[2] = {0.31, -0.77}, g[2] = {0};
    __enzyme_autodiff((void *)floors, x, g);
    CHECK_CLOSE(g[0], floor(7 * 0.31), REV_TOL_EXACT);
    CHECK_CLOSE(g[1], 2 * floor(7 * -0.77), REV_TOL_EXACT);
  }
  return check_finish();
}
