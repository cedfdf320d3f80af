// BLAS calls in differentiated C++ (docs/rules.md#blas): a dense layer
// y = tanh(W x + b) and its loss, written with CBLAS over std::vector, in
// double and in float (cblas_s*), row-major as C++ programs store
// matrices; the weights enzyme_dup, the input enzyme_const. The double
// gradient against central differences and forward mode, the float one
// against the double one.
#include "rev_check.h"

#include <cblas.h>

#include <cmath>
#include <vector>

namespace {

constexpr int In = 4, Out = 3, Batch = 2;

// Loss of a layer over a batch: the weights W (Out x In, row-major) and
// biases b in w, the inputs (Batch x In) constant.
template <typename T> struct Blas;
template <> struct Blas<double> {
  static void gemm(int m, int n, int k, const double *a, const double *b,
                   double *c) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0, a, k,
                b, k, 1.0, c, n);
  }
  static double dot(int n, const double *x, const double *y) {
    return cblas_ddot(n, x, 1, y, 1);
  }
  static void axpy(int n, double a, const double *x, double *y) {
    cblas_daxpy(n, a, x, 1, y, 1);
  }
};
template <> struct Blas<float> {
  static void gemm(int m, int n, int k, const float *a, const float *b,
                   float *c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a, k,
                b, k, 1.0f, c, n);
  }
  static float dot(int n, const float *x, const float *y) {
    return cblas_sdot(n, x, 1, y, 1);
  }
  static void axpy(int n, float a, const float *x, float *y) {
    cblas_saxpy(n, a, x, 1, y, 1);
  }
};

template <typename T> double loss(const double *w, const double *input) {
  std::vector<T> W(w, w + Out * In), b(w + Out * In, w + Out * In + Out);
  std::vector<T> X(input, input + Batch * In), Y(Batch * Out);
  for (int r = 0; r < Batch; ++r)
    Blas<T>::axpy(Out, T(1), b.data(), Y.data() + r * Out);
  // Y (Batch x Out) += X (Batch x In) W^T
  Blas<T>::gemm(Batch, Out, In, X.data(), W.data(), Y.data());
  for (T &y : Y)
    y = std::tanh(y);
  return Blas<T>::dot(Batch * Out, Y.data(), Y.data()) +
         0.5 * Blas<T>::dot(Out * In, W.data(), W.data());
}

double loss_d(const double *w, const double *input) {
  return loss<double>(w, input);
}
double loss_f(const double *w, const double *input) {
  return loss<float>(w, input);
}

double input[Batch * In];
double loss_fd(const double *w) { return loss_d(w, input); }

} // namespace

int main() {
  constexpr int N = Out * In + Out;
  double w[N], gd[N] = {0}, gf[N] = {0}, v[N];
  for (double &x : input)
    x = rev_rand();
  for (double &x : w)
    x = 0.7 * rev_rand();
  __enzyme_autodiff((void *)loss_d, enzyme_dup, w, gd, enzyme_const, input);
  CHECK_GRAD(loss_fd, w, N, gd, NULL);
  double dir = rev_dir(gd, v, N);
  CHECK_CLOSE(__enzyme_fwddiff((void *)loss_d, enzyme_dup, w, v, enzyme_const,
                               input),
              dir, REV_TOL_DOT);
  __enzyme_autodiff((void *)loss_f, enzyme_dup, w, gf, enzyme_const, input);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(gf[i], gd[i], 1e-4);
  CHECK_CLOSE(__enzyme_fwddiff((void *)loss_f, enzyme_dup, w, v, enzyme_const,
                               input),
              dir, 1e-4);
  printf("d loss / d w0 = %.12f\n", gd[0]);
  return check_finish();
}
