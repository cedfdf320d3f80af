// A comparison mask combined with a value by `_mm_and_pd` (a select at -O1
// and up, where InstCombine rewrites it) stays an integer `and` of two
// doubles' bits at -O0: an error in both modes at the intrinsic, never a
// derivative silently dropped. (Sign masks, whose bits are constants, are
// read as fabs and fneg: e2e rev_simd_masks.c.) Eigen's vectorized exp
// and floor meet this at -O0.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -c %s -o /dev/null
#include <emmintrin.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double below_half(const double *x) {
  __m128d a = _mm_loadu_pd(x);
  __m128d m = _mm_cmplt_pd(a, _mm_set1_pd(0.5));
  __m128d r = _mm_and_pd(m, a);
  // CHECK-DAG: simd-compare-mask.c:[[@LINE-1]]:15: error: cannot differentiate 'below_half' in reverse mode: integer bits reinterpreted as a floating-point value carry a derivative adcc cannot follow
  // CHECK-DAG: simd-compare-mask.c:[[@LINE-2]]:15: error: cannot differentiate 'below_half' in forward mode: the bits of a floating-point value are changed by the integer operation 'and'
  double o[2];
  _mm_storeu_pd(o, _mm_mul_pd(r, a));
  return o[0] + o[1];
}
void gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)below_half, x, g);
}
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)below_half, x, t);
}
