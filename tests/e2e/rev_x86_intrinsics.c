/* x86 SIMD intrinsics that stay intrinsics in the IR (SSE3, SSE4.1, AVX,
 * AVX2, FMA, AVX-512): horizontal sums and differences, addsub, blendv,
 * min and max (packed and scalar), constant permutes, AVX-512 roundscale
 * and min/max with a rounding operand, the FMA assembly of Eigen's pmadd,
 * and the halves of an AVX packet taken as integers. adcc reads each as
 * the target-independent IR that computes the same bits (before: "the
 * intrinsic 'llvm.x86.sse3.hadd.pd' is not supported", "inline assembly
 * cannot be differentiated"). A mantissa set in a double's bits (Eigen's
 * pfrexp, before a silent zero derivative) is read as frexp at -O1 and up.
 * Each function is compiled for its instruction set by its target
 * attribute; the derivatives, inlined into main, must not take the AVX-512
 * code there (before: a crash of the instruction selector, "Do not know
 * how to split this operator's operand"). Central differences and forward
 * mode (dot-product test). */
#include "rev_check.h"

#include <immintrin.h>

__attribute__((target("sse4.1"))) static double sse_ops(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d h = _mm_hadd_pd(a, b), s = _mm_hsub_pd(b, a);
  __m128d as = _mm_addsub_pd(a, b);
  __m128d mn = _mm_min_pd(a, b), mx = _mm_max_pd(a, _mm_mul_pd(b, b));
  __m128d mns = _mm_min_sd(a, b), mxs = _mm_max_sd(b, a);
  __m128d bl = _mm_blendv_pd(a, _mm_mul_pd(b, a), _mm_cmplt_pd(a, b));
  __m128d r = _mm_add_pd(_mm_mul_pd(h, s), _mm_mul_pd(as, mn));
  r = _mm_add_pd(r, _mm_mul_pd(mx, mns));
  r = _mm_add_pd(r, _mm_mul_pd(mxs, bl));
  double out[2];
  _mm_storeu_pd(out, r);
  return out[0] + 2 * out[1];
}

/* Eigen's pmadd with FMA under Clang. */
__attribute__((target("avx2,fma"))) static __m256d madd(__m256d a, __m256d b,
                                                        __m256d c) {
  __m256d res = c;
  __asm__("vfmadd231pd %[a], %[b], %[c]"
          : [c] "+x"(res)
          : [a] "x"(a), [b] "x"(b));
  return res;
}

__attribute__((target("avx2,fma"))) static double avx_ops(const double *x) {
  __m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
  __m256d h = _mm256_hadd_pd(a, b), s = _mm256_hsub_pd(b, a);
  __m256d as = _mm256_addsub_pd(a, b);
  __m256d mn = _mm256_min_pd(a, b), mx = _mm256_max_pd(a, b);
  __m256d bl =
      _mm256_blendv_pd(b, _mm256_mul_pd(a, a), _mm256_cmp_pd(a, b, _CMP_LT_OQ));
  __m256d pv = _mm256_permutevar_pd(a, _mm256_setr_epi64x(2, 0, 0, 2));
#ifdef __OPTIMIZE__
  /* (At -O0 the integers pass through copies of local variables, which
   * adcc does not follow: an error, documented.) */
  __m256d pd = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(
      _mm256_castpd_si256(b), _mm256_setr_epi32(6, 7, 0, 1, 2, 3, 4, 5)));
#else
  __m256d pd = _mm256_permute4x64_pd(b, 0x93); /* lanes 3, 0, 1, 2 */
#endif
  __m256d r = madd(h, s, _mm256_mul_pd(as, mn));
  r = madd(mx, bl, r);
  r = madd(pv, pd, r);
  /* The two halves, summed as Eigen's predux does. */
  __m128d lo = _mm256_castpd256_pd128(r), hi = _mm256_extractf128_pd(r, 1);
  __m128d sum = _mm_add_pd(lo, hi);
  return _mm_cvtsd_f64(_mm_hadd_pd(sum, sum));
}

__attribute__((target("avx512f"))) static double avx512_ops(const double *x) {
  __m512d a = _mm512_loadu_pd(x), b = _mm512_loadu_pd(x + 8);
  __m512d f = _mm512_roundscale_pd(_mm512_mul_pd(a, _mm512_set1_pd(3.0)),
                                   _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512d mn = _mm512_min_pd(a, b), mx = _mm512_max_pd(a, b);
  /* An integer per lane, converted back: a constant factor. */
  __m512d k = _mm512_cvtepi32_pd(_mm512_cvtpd_epi32(_mm512_mul_pd(
      _mm512_add_pd(a, _mm512_set1_pd(1.0)), _mm512_set1_pd(2.0))));
  /* Reversed lanes (Eigen's preverse), a full-width permute. */
  __m512d rv =
      _mm512_permutexvar_pd(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), b);
  __m512d r = _mm512_add_pd(_mm512_mul_pd(f, rv), _mm512_mul_pd(mn, mx));
  r = _mm512_add_pd(r, _mm512_mul_pd(k, _mm512_mul_pd(a, a)));
  return _mm512_reduce_add_pd(r);
}

/* Approximate reciprocal square roots and reciprocals refined by Newton
 * steps, as Eigen's sqrt with AVX-512 does (before: "the intrinsic
 * 'llvm.x86.avx512.rsqrt14.pd.512' is not supported"); one under a mask,
 * whose other lanes take the passthrough. */
__attribute__((target("avx512f"))) static __m512d refine_rsqrt(__m512d a,
                                                               __m512d r) {
  __m512d h = _mm512_mul_pd(a, _mm512_set1_pd(-0.5));
  for (int k = 0; k < 2; ++k)
    r = _mm512_mul_pd(
        r, _mm512_fmadd_pd(h, _mm512_mul_pd(r, r), _mm512_set1_pd(1.5)));
  return r;
}

__attribute__((target("avx512f"))) static double
avx512_approx(const double *x) {
  __m512d v = _mm512_loadu_pd(x);
  __m512d a = _mm512_add_pd(_mm512_mul_pd(v, v), _mm512_set1_pd(0.5));
  __m512d r = refine_rsqrt(a, _mm512_rsqrt14_pd(a));
  /* (The passthrough depends on x too: lanes 0, 2, 5 and 7 keep it.) */
  __m512d p =
      _mm512_add_pd(_mm512_mul_pd(v, _mm512_set1_pd(0.1)), _mm512_set1_pd(0.7));
  __m512d m = refine_rsqrt(a, _mm512_mask_rsqrt14_pd(p, 0x5a, a));
  __m512d q = _mm512_rcp14_pd(a); /* 1/a, two Newton steps */
  for (int k = 0; k < 2; ++k)
    q = _mm512_mul_pd(q, _mm512_fnmadd_pd(a, q, _mm512_set1_pd(2.0)));
  __m512d s = _mm512_mul_pd(a, r); /* sqrt(a) */
  return _mm512_reduce_add_pd(
      _mm512_add_pd(_mm512_add_pd(s, m), _mm512_mul_pd(q, v)));
}

__attribute__((target("avx512f"))) static double
avx512_sqrt_sum(const double *x) {
  __m512d v = _mm512_loadu_pd(x);
  __m512d a = _mm512_add_pd(_mm512_mul_pd(v, v), _mm512_set1_pd(0.5));
  return _mm512_reduce_add_pd(
      _mm512_mul_pd(a, refine_rsqrt(a, _mm512_rsqrt14_pd(a))));
}

#ifdef __OPTIMIZE__
/* log(m) + e log(2) of both lanes: m, the mantissa in [0.5, 1) that the
 * caller set in the bits of a with a constant mask as Eigen's pfrexp does,
 * and the exponent e from the bits of a. (The mask stays in the callers:
 * with -fno-inline a mask passed in would not be a constant.) */
static double log_parts(__m128d m, __m128d a) {
  __m128i bits = _mm_srli_epi64(_mm_castpd_si128(a), 52);
  bits = _mm_and_si128(bits, _mm_set1_epi64x(0x7ff));
  double out[2];
  _mm_storeu_pd(out, m);
  long long e[2];
  _mm_storeu_si128((__m128i *)e, bits);
  return log(out[0]) + (double)(e[0] - 1022) * 0.6931471805599453 +
         log(out[1]) + (double)(e[1] - 1022) * 0.6931471805599453;
}

/* log(x^2) = log(m) + e log(2) with x^2 = m 2^e: sign and mantissa kept. */
static double mantissa_log(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; i += 2) {
    __m128d a = _mm_loadu_pd(x + i);
    a = _mm_mul_pd(a, a);
    __m128d keep = _mm_castsi128_pd(_mm_set1_epi64x(0x800fffffffffffffLL));
    __m128d half = _mm_castsi128_pd(_mm_set1_epi64x(0x3fe0000000000000LL));
    s += log_parts(_mm_or_pd(_mm_and_pd(a, keep), half), a);
  }
  return s;
}

/* The same with the mask of the mantissa alone (the sign cleared): the
 * mantissa of |x|, so log|x| for negative x too. (InstCombine makes this
 * mask from mantissa_log's where x * x cannot be negative: -ffast-math.
 * Here only integer operations use the packet, which InstCombine then
 * loads as <2 x i64>: adcore/lib/prepare/BitLoads.cpp.) */
static double mantissa_log_abs(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; i += 2) {
    __m128d a = _mm_loadu_pd(x + i);
    __m128d keep = _mm_castsi128_pd(_mm_set1_epi64x(0x000fffffffffffffLL));
    __m128d half = _mm_castsi128_pd(_mm_set1_epi64x(0x3fe0000000000000LL));
    s += log_parts(_mm_or_pd(_mm_and_pd(a, keep), half), a);
  }
  return s;
}
#endif

int main(void) {
  /* What this processor lacks is skipped, visibly: the test then ends with
   * status 77 (ctest: skipped), after the parts it can run passed. */
  int skipped = 0;
  if (__builtin_cpu_supports("sse4.1")) {
    CHECK_GRAD_AND_DOT(sse_ops, 4, 1.0);
  } else {
    printf("skipped: the SSE4.1 part (this processor lacks SSE4.1)\n");
    skipped = 1;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    CHECK_GRAD_AND_DOT(avx_ops, 8, 1.0);
  } else {
    printf("skipped: the AVX2 part (this processor lacks AVX2 or FMA)\n");
    skipped = 1;
  }
  if (__builtin_cpu_supports("avx512f")) {
    CHECK_GRAD_AND_DOT(avx512_ops, 16, 1.0);
    CHECK_GRAD_AND_DOT(avx512_approx, 8, 1.0);
    /* sum sqrt(x^2 + 1/2) through rsqrt14 and two Newton steps: x / sqrt
     * each, to the precision the refined approximation reaches (its
     * derivative follows r^3 of the 14-bit first guess: 1e-8). */
    double x[8] = {0.3, -1.7, 2.5, 4.0, -0.2, 1.1, 0.9, -3.3}, g[8] = {0};
    __enzyme_autodiff((void *)avx512_sqrt_sum, x, g);
    for (int i = 0; i < 8; ++i)
      CHECK_CLOSE(g[i], x[i] / sqrt(x[i] * x[i] + 0.5), 1e-7);
  } else {
    printf("skipped: the AVX-512 part (this processor lacks AVX-512F)\n");
    skipped = 1;
  }
#ifdef __OPTIMIZE__
  CHECK_GRAD_AND_DOT(mantissa_log, 4, 1.0);
  {
    /* log(x^2) summed: 2 / x each. */
    double x[4] = {0.3, -1.7, 2.5, 40.0}, g[4] = {0};
    __enzyme_autodiff((void *)mantissa_log, x, g);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(g[i], 2 / x[i], REV_TOL_EXACT);
  }
  CHECK_GRAD_AND_DOT(mantissa_log_abs, 4, 1.0);
  {
    /* log|x| summed: 1 / x each, negative x too. */
    double x[4] = {0.3, -1.7, 2.5, -40.0}, g[4] = {0};
    double v = mantissa_log_abs(x), want = 0;
    for (int i = 0; i < 4; ++i)
      want += log(fabs(x[i]));
    CHECK_CLOSE(v, want, REV_TOL_EXACT);
    __enzyme_autodiff((void *)mantissa_log_abs, x, g);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(g[i], 1 / x[i], REV_TOL_EXACT);
  }
#endif
  int status = check_finish();
  return status == 0 && skipped ? 77 : status;
}
