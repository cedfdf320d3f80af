// Bits of a double changed by integer operations that are not a sign mask
// or a new exponent (here: mantissa bits cleared by a mask known only at
// run time, one set) are an error in both modes at every level. (Bits
// cleared or set by constants, fdlibm's SET_LOW_WORD(z, 0), are followed
// since 2026-12-06: e2e rev_float_words_o0.c.) Before, the derivative was silently
// dropped at -O2 (zero) and copied unchanged at -O0. (At -O0 the function's
// locals are made values first, as for sign masks on bits: the errors are
// those of -O2.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
#include <stdint.h>
#include <string.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double truncated(const double *x) {
  uint64_t b;
  memcpy(&b, x, 8);
  b = (b & ~(uint64_t)x[1]) | 0x10;
  // CHECK-DAG: float-bits-mask.c:[[@LINE-1]]:{{[0-9]+}}: error: cannot differentiate 'truncated' in forward mode: the bits of a floating-point value are changed by the integer operation
  double r;
  memcpy(&r, &b, 8);
  // CHECK-DAG: float-bits-mask.c:[[@LINE-1]]:3: error: cannot differentiate 'truncated' in reverse mode: integer bits reinterpreted as a floating-point value carry a derivative adcc cannot follow
  return r * r;
}
#ifdef __OPTIMIZE__
// The same on a packet whose doubles are only used for their bits: at -O2
// InstCombine loads them as integers (<2 x i64>), and the derivative was
// silently zero in both modes until such loads were read as loads of
// doubles again (adcore/lib/prepare/BitLoads.cpp).
#include <emmintrin.h>
static double packet_truncated(const double *x) {
  __m128d a = _mm_loadu_pd(x);
  __m128d keep = _mm_castsi128_pd(_mm_set1_epi64x(0x800ffffffffff000LL));
  __m128d one = _mm_castsi128_pd(_mm_set1_epi64x(0x3ff0000000000000LL));
  __m128d m = _mm_or_pd(_mm_and_pd(a, keep), one);
  // O2-DAG: float-bits-mask.c:[[@LINE-1]]:{{[0-9]+}}: error: cannot differentiate 'packet_truncated' in forward mode: the bits of a floating-point value are changed by the integer operation
  // O2-DAG: float-bits-mask.c:[[@LINE-2]]:{{[0-9]+}}: error: cannot differentiate 'packet_truncated' in reverse mode: integer bits reinterpreted as a floating-point value carry a derivative adcc cannot follow
  double out[2];
  _mm_storeu_pd(out, m);
  return out[0] * out[1];
}
void packet_gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)packet_truncated, x, g);
}
double packet_tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)packet_truncated, x, t);
}
#endif
void gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)truncated, x, g);
}
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)truncated, x, t);
}
