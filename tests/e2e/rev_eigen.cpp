// Eigen 3 expressions in both modes: fixed-size (Vector3d, Matrix3d, the
// comma initializer, products, dot, squaredNorm) and dynamic-size
// (Map of the input, MatrixXd filled element by element, matrix-vector
// products through Eigen's GEMV kernel, a transposed product, sum). Each
// gradient is checked against central differences and forward mode
// column by column, at every level. (Dynamic-size objects once crashed:
// at -O1 and up a copied expression held its matrix's address as an
// integer without a shadow; at -O0 Eigen's allocation wrappers, which
// return through a local variable, were not seen as allocations.)
#include "rev_check.h"

#include <Eigen/Dense>

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

static double fixed_energy(const double *p) {
  Vector3d v(p[0], p[1], p[2]);
  Matrix3d a;
  a << 2, p[0], 0.5, p[1], 3, 0.1, 0.2, p[2], 1;
  Vector3d w = a * v;
  return w.squaredNorm() + v.dot(w) + std::sin(w(0));
}

static double dynamic_energy(const double *p) {
  const int n = 4;
  Eigen::Map<const VectorXd> x(p, n);
  MatrixXd m(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m(i, j) = 1.0 / (1 + i + j) + (i == j ? x(i) * x(i) : 0.0);
  VectorXd r = m * x - VectorXd::Ones(n);
  return r.squaredNorm() + (m.transpose() * x).sum();
}

int main() {
  CHECK_GRAD_AND_DOT(fixed_energy, 3, 1.0);
  CHECK_GRAD_AND_DOT(dynamic_energy, 4, 1.0);
  return check_finish();
}
