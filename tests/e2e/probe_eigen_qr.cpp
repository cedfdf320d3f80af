// Idiom corpus, Eigen's Householder QR solves (householderQr,
// colPivHouseholderQr) of a 3x3 system and a least-squares fit, at -O0:
// HouseholderSequence::adjoint() negates its bool m_reverse in an object
// copied as bytes, which forward mode refused ("an address kept in an
// integer is changed by the integer operation 'xor'"); flags narrower than
// 16 bits hold neither addresses nor a float's bits. At -O2 and -O3 they
// were refused in reverse mode until 2026-12-06: the copy of a Map out of
// a product evaluator whose vector part is read at a variable index was
// "doubles everywhere" to the type analysis; the evaluator's declared type
// now says which bytes the copy moves (analysis/CopyLayouts.cpp). At -O1
// forward mode refused the reflector's aligned start, a number computed
// from an address with 'xor', until 2026-12-06 (ForwardArith.cpp: one
// that never becomes an address again has no derivative). Both modes,
// central differences (probe_check.h).
#include "probe_check.h"

#include <Eigen/Dense>

using namespace Eigen;

static double f_householder(const double *x) {
  Matrix3d A = Map<const Matrix3d>(x) + 3 * Matrix3d::Identity();
  Vector3d s = A.householderQr().solve(Vector3d(x[9], x[10], 1.0));
  return s.squaredNorm() + s(0);
}
static double f_column_pivots(const double *x) {
  Matrix3d A = Map<const Matrix3d>(x) + 3 * Matrix3d::Identity();
  Vector3d s = A.colPivHouseholderQr().solve(Vector3d(x[9], x[10], 1.0));
  return s.squaredNorm() + s(1);
}
static double f_least_squares(const double *x) {
  // fit c0 + c1 t + c2 t^2 to 6 samples x[0..6) at t = 0, 0.2, ..., 1
  Matrix<double, 6, 3> V;
  for (int i = 0; i < 6; ++i)
    V.row(i) << 1, 0.2 * i, 0.04 * i * i;
  Vector3d c = V.householderQr().solve(Map<const Matrix<double, 6, 1>>(x));
  return c(0) * c(1) + c(2) * c(2);
}

int main() {
  PROBE(f_householder, 11, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2, 0.1,
        -0.3);
  PROBE(f_column_pivots, 11, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2, 0.1,
        -0.3);
  PROBE(f_least_squares, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  return check_finish();
}
