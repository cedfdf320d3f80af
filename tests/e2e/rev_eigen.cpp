// Eigen 3 expressions in both modes: fixed-size (Vector3d, Matrix3d, the
// comma initializer, products, dot, squaredNorm) and dynamic-size
// (Map of the input, MatrixXd filled element by element, matrix-vector
// products through Eigen's GEMV kernel, a transposed product, sum). Each
// gradient is checked against central differences and forward mode
// column by column, at every level. Also matrix-matrix products large
// enough for Eigen's blocked GEBP kernel, which packs its operands into
// buffers from alloca() and broadcasts doubles with integer shuffles
// (before: a crash or a wrong gradient in reverse mode, an error in
// forward mode). (Dynamic-size objects once crashed:
// at -O1 and up a copied expression held its matrix's address as an
// integer without a shadow; at -O0 Eigen's allocation wrappers, which
// return through a local variable, were not seen as allocations.)
#include "rev_check.h"

#include <Eigen/Dense>

#include <vector>

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

// A 6x8 matrix: A^T A and A (A^T A) have 22 >= 20 rows + columns + depth,
// so Eigen multiplies them with its blocked kernel (GEBP), not
// coefficient by coefficient.
static double gemm_energy(const double *p) {
  Eigen::Map<const MatrixXd> a(p, 6, 8);
  MatrixXd b = a.transpose() * a;
  MatrixXd c = a * b;
  return 1e-3 * c.squaredNorm() + (a * a.transpose()).trace();
}

// Reductions, norms and decompositions of a 3x3 matrix and its 9 entries:
// Eigen's packet min and max (inline assembly under Clang), abs and
// negation (sign masks at -O0), LLT, LDLT and LU solves (with
// alloca()-backed buffers), determinants and inverses (dynamic-size: LU
// with an integer permutation, copied at -O0 through `int *` parameters).
static double decompositions(const double *p) {
  Eigen::Map<const VectorXd> x(p, 9);
  Eigen::Map<const MatrixXd> m(p, 3, 3);
  MatrixXd spd = m * m.transpose() + MatrixXd::Identity(3, 3);
  MatrixXd shifted = m + 3 * MatrixXd::Identity(3, 3);
  VectorXd a = spd.llt().solve(x.head(3));
  VectorXd b = spd.ldlt().solve(x.tail(3));
  VectorXd c = shifted.partialPivLu().solve(x.segment(3, 3));
  Matrix3d f = shifted;
  return x.maxCoeff() - x.minCoeff() + x.cwiseAbs().sum() + x.lpNorm<1>() +
         (-x).cwiseMax(0.1).sum() + a.squaredNorm() + b.sum() + c.sum() +
         shifted.determinant() + f.inverse().sum() + x.norm() +
         shifted.inverse().sum();
}

// A constant right-hand side built inside (VectorXd::LinSpaced), solved
// with LLT, next to an LU determinant. (Before: refused at -O2 and -O3 in
// reverse mode, "integer bits reinterpreted as a floating-point value carry
// a derivative": the constant expression object, a local that holds no
// derivative, went to its constructor as duplicated memory, whose bounds
// the constructor reads as integer packets.)
static double linspaced_solve(const double *p) {
  Eigen::Map<const MatrixXd> m(p, 3, 3);
  MatrixXd spd = m * m.transpose() + MatrixXd::Identity(3, 3);
  VectorXd rhs = VectorXd::LinSpaced(3, 0.5, 1.5);
  VectorXd a = spd.llt().solve(rhs);
  MatrixXd shifted = m + 3 * MatrixXd::Identity(3, 3);
  return a.squaredNorm() + shifted.partialPivLu().determinant() +
         rhs.dot(m.col(1));
}

// Fixed-size decompositions (Matrix3d): Eigen's LU peels scalar steps until
// a column's address is a multiple of 16 and then divides and updates it
// with aligned packets. (Before: a crash at -O1 and above, an aligned
// vector load from the shadow of a local matrix, which lives on the tape
// with 8-byte alignment: adcore/lib/ShadowAlignment.h.)
static double fixed_decompositions(const double *p) {
  Matrix3d a = Eigen::Map<const Matrix3d>(p) + 3 * Matrix3d::Identity();
  Vector3d b(1.0, 2.0, 3.0);
  Vector3d s = a.partialPivLu().solve(b);
  Matrix3d spd = a.transpose() * a + Matrix3d::Identity();
  Matrix3d l = spd.llt().matrixL();
  return s.squaredNorm() + a.inverse().sum() + a.determinant() +
         l.diagonal().array().log().sum();
}

#ifdef __OPTIMIZE__
// Eigen's vectorized exp (a polynomial, a rounding trick kept by an
// optimization barrier, integer exponent bits). At -O0 it is an error: its
// exponent bits are built in integer packets by functions of their own
// (docs/status.md).
static double vectorized_exp(const double *p) {
  Eigen::Map<const VectorXd> x(p, 9);
  return x.array().exp().sum() + (0.5 * x).array().exp().prod();
}
#endif

// Virtual terms held by pointer in one vector, points in a growing
// std::vector<Vector3d> (its reallocation copies the elements): the two
// vectors' null-initialized pointers once made the points' first double
// look like a pointer at -O1, and its adjoint was dropped.
struct term {
  virtual ~term() = default;
  virtual double eval(const Vector3d &p) const = 0;
};
struct spring : term {
  Vector3d anchor;
  double k;
  spring(const Vector3d &a, double k) : anchor(a), k(k) {}
  double eval(const Vector3d &p) const override {
    return 0.5 * k * (p - anchor).squaredNorm();
  }
};
struct gravity : term {
  double g;
  explicit gravity(double g) : g(g) {}
  double eval(const Vector3d &p) const override { return g * p.z(); }
};
static double springs(const double *x) {
  std::vector<term *> terms;
  terms.push_back(new spring(Vector3d(1, 0, 0), 2.0));
  terms.push_back(new spring(Vector3d(0, 1, 0.5), 3.0));
  terms.push_back(new gravity(9.81));
  std::vector<Vector3d> points;
  for (int i = 0; i < 2; ++i)
    points.emplace_back(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  double e = 0;
  for (size_t i = 0; i < points.size(); ++i)
    for (const term *t : terms)
      e += (i + 1) * t->eval(points[i]);
  for (term *t : terms)
    delete t;
  return e + std::exp(-(points[0] - points[1]).norm());
}

int main() {
  CHECK_GRAD_AND_DOT(fixed_energy, 3, 1.0);
  CHECK_GRAD_AND_DOT(dynamic_energy, 4, 1.0);
  CHECK_GRAD_AND_DOT(springs, 6, 1.0);
  CHECK_GRAD_AND_DOT(gemm_energy, 48, 1.0);
  CHECK_GRAD_AND_DOT(decompositions, 9, 1.0);
  CHECK_GRAD_AND_DOT(linspaced_solve, 9, 1.0);
  CHECK_GRAD_AND_DOT(fixed_decompositions, 9, 1.0);
#ifdef __OPTIMIZE__
  CHECK_GRAD_AND_DOT(vectorized_exp, 9, 1.0);
#else
  printf("vectorized_exp: an error at -O0 (docs/status.md), not built\n");
#endif
  return check_finish();
}
