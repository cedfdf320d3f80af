// Eigen's vectorized math and reductions in both modes, for the packet
// sizes of each instruction set: dynamic (11 entries: full packets and a
// tail), 8, 4, 3 and 2 entries. Built with the default SSE2 and, by
// tests/e2e/CMakeLists.txt, with AVX2 and FMA and with AVX-512 (its own
// packets, horizontal sums, blends, roundscale, the FMA assembly of
// pmadd, AVX halves taken as integers). Before: "the intrinsic
// 'llvm.x86.avx.hadd.pd.256' is not supported", "inline assembly cannot
// be differentiated" (pmadd), a backend crash (AVX-512 code inlined into a
// function compiled without it), a crash at -O0 (Eigen's aligned heap
// blocks through handmade_aligned_malloc), and a zero gradient for the
// vectorized log (its frexp on the bits of the doubles) even with SSE2.
// At -O0 the reductions, which once failed on a copy of a Map whose
// caller used the bytes after it otherwise. Each gradient is checked
// against central differences and forward mode.
// A processor without the instruction set the test was built for makes it
// exit with 77 (reported as skipped by ctest).
#include "rev_check.h"

#include <Eigen/Dense>

using namespace Eigen;

// Vectorized math, at -O1 and up (at -O0 Eigen's exp, log and logistic
// build exponent bits in integer packets by functions of their own: an
// error, docs/status.md).
template <class V> static double math_terms(const V &v) {
  auto a = (v.array().abs() + 0.25).eval(); // positive, away from 0
  return a.exp().sum() + a.log().sum() + a.log1p().sum() + a.pow(2.5).sum() +
         v.array().tanh().sum() + v.array().logistic().sum() + a.sqrt().sum() +
         v.array().sin().sum() + a.rsqrt().sum() + v.array().cos().prod();
}

template <class V> static double reduction_terms(const V &v) {
  return v.norm() + v.dot(v.reverse()) + (v * v.transpose()).sum() +
         v.normalized().dot(V::LinSpaced(v.size(), 1, 2)) + v.maxCoeff() +
         v.minCoeff() + v.cwiseAbs().sum() + v.template lpNorm<1>() +
         v.template lpNorm<Infinity>() + v.cwiseMax(0.1).sum() +
         (v.array() + 2).prod();
}

template <class F> static double each_size(const double *p, F terms) {
  Map<const VectorXd> x(p, 11);
  Map<const Matrix<double, 8, 1>> y(p + 1);
  Map<const Vector4d> z(p + 2);
  Map<const Vector3d> w(p + 3);
  return terms(x) + terms(y) + terms(z) + terms(w) +
         terms(Vector2d(p[4], p[5]));
}

#ifdef __OPTIMIZE__
static double vector_math(const double *p) {
  return each_size(p, [](const auto &v) { return math_terms(v); });
}
#endif

static double reductions(const double *p) {
  return each_size(p, [](const auto &v) { return reduction_terms(v); });
}

int main() {
#if defined(__AVX512F__)
  bool supported =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
#elif defined(__AVX2__)
  bool supported =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  bool supported = true;
#endif
  if (!supported) {
    printf("this processor lacks the instruction set the test was built "
           "for: skipped\n");
    return 77;
  }
  CHECK_GRAD_AND_DOT(reductions, 11, 1.0);
#ifdef __OPTIMIZE__
  CHECK_GRAD_AND_DOT(vector_math, 11, 1.0);
#else
  printf("vector_math: an error at -O0 (docs/status.md), not built\n");
#endif
  return check_finish();
}
