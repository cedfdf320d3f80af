// Eigen's products with a triangular matrix (product_triangular_matrix_
// matrix: the triangle is copied into a small buffer and packed into the
// blocking space's own buffer, which the blocking object points to): the
// square-root Kalman filters' `llt.matrixU() * A.transpose()` and
// `llt.reconstructedMatrix()`, a triangular view times a matrix and a
// matrix times one, fixed and dynamic sizes. At -O1 and up their gradient
// was 0 without an error (the blocking object was taken to hold no
// derivatives: e2e rev_self_buffer.c). Reverse mode against central
// differences, forward mode against reverse.
#include <Eigen/Dense>

#include <cmath>
#include <cstdio>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

using Eigen::Matrix3d;
using Eigen::MatrixXd;

namespace {

constexpr int N = 6;

// A symmetric positive-definite matrix made from p.
Matrix3d spd(const double *p) {
  Matrix3d A;
  A << 4 + p[0], p[1], p[2], p[1], 5 + p[3], p[4], p[2], p[4], 6 + p[5];
  return A;
}

Matrix3d fixedB() {
  Matrix3d B;
  B << 1, 2, 0.5, -1, 0.3, 2, 0.7, 0.1, 1;
  return B;
}

double weigh(const Eigen::Ref<const MatrixXd> &C) {
  double s = 0;
  for (int i = 0; i < C.rows(); ++i)
    for (int j = 0; j < C.cols(); ++j)
      s += (1 + i + 2 * j) * C(i, j) * (1 + 0.1 * C(i, j));
  return s;
}

double upperTimes(const double *p) {
  Eigen::LLT<Matrix3d> llt(spd(p));
  Matrix3d C = llt.matrixU() * fixedB().transpose();
  return weigh(C);
}

double reconstructed(const double *p) {
  Eigen::LLT<Matrix3d> llt(spd(p));
  Matrix3d C = llt.reconstructedMatrix();
  return weigh(C);
}

double timesLower(const double *p) {
  Matrix3d A = spd(p);
  Matrix3d C = fixedB() * A.triangularView<Eigen::Lower>();
  return weigh(C);
}

double dynamicUpper(const double *p) {
  MatrixXd A(4, 4), B(4, 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      A(i, j) = p[(i + 2 * j) % N] + (i == j ? 3 : 0.5 * (i - j));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      B(i, j) = std::sin(1.0 + i + 3 * j);
  MatrixXd C = A.triangularView<Eigen::Upper>() * B;
  return weigh(C);
}

int failures = 0;

void check(const char *name, double (*f)(const double *)) {
  double p[N] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.1}, g[N] = {};
  __enzyme_autodiff((void *)f, enzyme_dup, p, g);
  double size = 0;
  for (double v : g)
    size = std::fmax(size, std::fabs(v));
  double dir[N], dot = 0;
  for (int i = 0; i < N; ++i) {
    double s = p[i];
    p[i] = s + 1e-6;
    double up = f(p);
    p[i] = s - 1e-6;
    double down = f(p);
    p[i] = s;
    double fd = (up - down) / 2e-6;
    if (!(std::fabs(fd - g[i]) <= 1e-6 * (1 + std::fabs(fd)))) {
      std::printf("FAIL %s: d/dp[%d] = %.12g, central difference %.12g\n",
                  name, i, g[i], fd);
      ++failures;
    }
    dir[i] = 0.3 - 0.1 * i;
    dot += dir[i] * g[i];
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, dir);
  if (!(std::fabs(t - dot) <= 1e-10 * (1 + std::fabs(dot)))) {
    std::printf("FAIL %s: tangent %.15g, gradient along it %.15g\n", name, t,
                dot);
    ++failures;
  }
  if (!(size > 0)) {
    std::printf("FAIL %s: zero gradient\n", name);
    ++failures;
  }
}

} // namespace

int main() {
  check("matrixU() * B^T", upperTimes);
  check("reconstructedMatrix()", reconstructed);
  check("B * lower triangle", timesLower);
  check("dynamic upper triangle * B", dynamicUpper);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
