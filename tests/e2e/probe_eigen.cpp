// Idiom corpus, Eigen beyond the basics: fixed-size rotations
// (Quaterniond normalized, toRotationMatrix, acting on vectors; AngleAxisd),
// Map<> over the raw input (row-major and dynamic), block() / segment() /
// head() / tail() / col() expressions, an LDLT solve of a normal matrix,
// noalias() products, Array expressions with select(), cwiseMax, max/min
// against scalars and reverse(), and a templated Scalar function called
// with double. Both modes, central differences (probe_check.h). (A
// Householder QR solve is refused at -O1 and up: docs/status.md.)
#include "probe_check.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>

using namespace Eigen;

static double f_quaternion(const double *x) {
  Quaterniond q(x[0], x[1], x[2], x[3]);
  q.normalize();
  Matrix3d R = q.toRotationMatrix();
  Vector3d w = R * Vector3d(x[4], x[5], x[6]);
  Vector3d u = q * Vector3d(1, 2, 3);
  return w.dot(Vector3d(0.3, -0.2, 0.5)) + u.squaredNorm() * u(0) +
         (R * R.transpose()).trace();
}
static double f_angle_axis(const double *x) {
  AngleAxisd aa(x[0], Vector3d(x[1], x[2], x[3]).normalized());
  Matrix3d S = aa.toRotationMatrix() * 2 + Matrix3d::Constant(x[4]);
  return S.determinant() + S(0, 1) * S(2, 0);
}
static double f_map_blocks(const double *x) {
  Map<const Matrix<double, 3, 4, RowMajor>> A(x);
  Map<const VectorXd> b(x + 12, 4);
  Vector3d y = A * b;
  Matrix2d corner = A.block<2, 2>(1, 1);
  return y.segment(1, 2).dot(corner * y.head<2>()) +
         A.col(3).tail(2).sum() * b.segment<2>(1).prod();
}
static double f_ldlt(const double *x) {
  Map<const Matrix3d> M(x);
  Matrix3d A = M + 3 * Matrix3d::Identity();
  Matrix3d S = A.transpose() * A;
  Vector3d s = S.ldlt().solve(Vector3d(x[9], x[10], 1.0));
  return s.sum() + s.squaredNorm();
}
static double f_noalias(const double *x) {
  MatrixXd A = Map<const MatrixXd>(x, 3, 3), B(3, 3), C(3, 3);
  B = A.array().sin().matrix();
  C.noalias() = A * B;
  C.noalias() += A.transpose() * B;
  return C.norm();
}
static double f_arrays(const double *x) {
  ArrayXd a = Map<const ArrayXd>(x, 6);
  ArrayXd b = (a > 0.1).select(a * a, -a);
  ArrayXd c = a.cwiseMax(0.2 * a.reverse());
  ArrayXd d = a.max(b).min(0.5);
  return (b * c).sum() + d.sum() + a.abs2().maxCoeff();
}
template <typename Scalar>
static Scalar rosenbrock(const Matrix<Scalar, Dynamic, 1> &v) {
  Scalar s(0);
  for (Index i = 0; i + 1 < v.size(); ++i) {
    Scalar r = v(i + 1) - v(i) * v(i);
    s += Scalar(100) * r * r + (Scalar(1) - v(i)) * (Scalar(1) - v(i));
  }
  return s;
}
static double f_template(const double *x) {
  VectorXd v = Map<const VectorXd>(x, 4);
  return rosenbrock<double>(v);
}

int main() {
  PROBE(f_quaternion, 7, 0.9, 0.1, -0.2, 0.3, 0.5, -0.6, 0.7);
  PROBE(f_angle_axis, 5, 0.9, 0.1, -0.2, 0.3, 0.5);
  PROBE(f_map_blocks, 16, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2, 0.1,
        -0.3, 0.45, 0.35, -0.15, 0.25, 0.7);
  PROBE(f_ldlt, 11, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2, 0.1, -0.3);
  PROBE(f_noalias, 9, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2);
  PROBE(f_arrays, 6, 0.3, -0.4, 0.55, 0.6, -0.7, 0.8);
  {
    // a2 = 0.5: max(a, a*a) = a, then min(a, 0.5) is a tie that Eigen's
    // min resolves to its first operand (d/da2 of d: 1); (b * c)2 = a^3
    double exact[6];
    double x[6] = {0.3, -0.4, 0.5, 0.6, -0.7, 0.8};
    // the other coordinates away from ties: compare with differences
    for (int i = 0; i < 6; ++i)
      exact[i] = fd_partial(f_arrays, x, i);
    exact[2] = 3 * 0.25 + 1;
    PROBE_AT(f_arrays, 6, exact, 0, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  }
  PROBE(f_template, 4, 0.3, -0.4, 0.5, 0.6);
  return check_finish();
}
