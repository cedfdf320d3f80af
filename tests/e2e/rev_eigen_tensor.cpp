// Eigen's Tensor module (unsupported/Eigen/CXX11/Tensor) in both modes, at
// every level: a 2-D convolution of a 4-D tensor (its evaluator first
// evaluates the kernel into a buffer of its own: TensorExecutor::run of a
// TensorEvalToOp, whose TensorEvaluator::evalSubExprsIfNeeded(double
// const*) copies the tensor with DefaultDevice::memcpy of `void *`), a
// contraction, and element-wise expressions with reductions over a
// TensorMap of the input. Each gradient is checked against central
// differences and, along a random direction, forward mode. (Before: at -O0
// the copy was "a memory copy whose contents cannot be typed", and with
// the first part of the fix a crash: the simplified copy of run inlines
// evalSubExprsIfNeeded, whose parameter type was the only thing that said
// the buffer holds doubles, and keeps the call of DefaultDevice::get that
// returns the pointer.)
#include "rev_check.h"

#include <unsupported/Eigen/CXX11/Tensor>

using Eigen::Tensor;
using Eigen::TensorMap;

// p[0..4): a 2x2 kernel; p[4..36): a 2x4x4x1 input.
static double convolution(const double *p) {
  Tensor<double, 2> kernel(2, 2);
  Tensor<double, 4> input(2, 4, 4, 1);
  for (int i = 0; i < 4; ++i)
    kernel.data()[i] = p[i];
  for (int i = 0; i < 32; ++i)
    input.data()[i] = p[4 + i];
  Eigen::array<ptrdiff_t, 2> dims({1, 2});
  Tensor<double, 4> out(2, 3, 3, 1);
  out = input.convolve(kernel, dims);
  double s = 0;
  for (int i = 0; i < out.size(); ++i)
    s += std::sin(0.3 * i + 0.1) * out.data()[i];
  return s;
}

#ifdef __OPTIMIZE__
// (At -O0 forward mode refuses the contraction's evaluator, and reverse
// mode Eigen's vectorized exp: located errors, docs/status.md.)

// p[0..12): a 3x4 matrix, p[12..20): a 4x2 one, contracted over the
// shared dimension.
static double contraction(const double *p) {
  Tensor<double, 2> a(3, 4), b(4, 2);
  for (int i = 0; i < 12; ++i)
    a.data()[i] = p[i];
  for (int i = 0; i < 8; ++i)
    b.data()[i] = p[12 + i];
  Eigen::array<Eigen::IndexPair<int>, 1> pairs = {Eigen::IndexPair<int>(1, 0)};
  Tensor<double, 2> c = a.contract(b, pairs);
  double s = 0;
  for (int i = 0; i < c.size(); ++i)
    s += (1 + 0.25 * i) * c.data()[i] * c.data()[i];
  return s;
}

// The input viewed as a 3x4 tensor: element-wise expressions, a reduction
// along one dimension and a full one.
static double elementwise(const double *p) {
  TensorMap<const Tensor<double, 2>> x(p, 3, 4);
  Tensor<double, 2> y = (x * x + x.constant(0.5)).sqrt() + x.exp() * 0.1;
  Eigen::array<int, 1> rows = {0};
  Tensor<double, 1> colsum = y.sum(rows);
  Tensor<double, 0> total = (y * y).sum();
  double s = total();
  for (int j = 0; j < 4; ++j)
    s += (j + 1) * colsum(j);
  return s;
}
#endif

int main() {
#ifdef __OPTIMIZE__
  CHECK_GRAD_AND_DOT(convolution, 36, 1.0);
#else
  // (At -O0 forward mode refuses Tensor::resize: docs/status.md. The
  // gradient against central differences.)
  {
    double x[36], g[36] = {0};
    for (int i = 0; i < 36; ++i)
      x[i] = rev_rand();
    __enzyme_autodiff((void *)convolution, x, g);
    CHECK_GRAD(convolution, x, 36, g, NULL);
    printf("convolution: d/dx0 = %.12f\n", g[0]);
  }
#endif
#ifdef __OPTIMIZE__
  CHECK_GRAD_AND_DOT(contraction, 20, 1.0);
  CHECK_GRAD_AND_DOT(elementwise, 12, 1.0);
#endif
  return check_finish();
}
