// eigen.cpp: an Eigen-heavy C++ file without derivative requests, for
// bench/compile_time.py: adcc's compile of code that asks for no
// derivatives (the frontend's records of declared pointee types are made for
// every file) against clang-22's. Dense and fixed-size products,
// decompositions and geometry.
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cstdio>

using namespace Eigen;

template <typename T> static T solveAndNorm(int n, unsigned seed) {
  using Mat = Matrix<T, Dynamic, Dynamic>;
  using Vec = Matrix<T, Dynamic, 1>;
  std::srand(seed);
  Mat A = Mat::Random(n, n);
  Mat S = A.transpose() * A + Mat::Identity(n, n) * T(n);
  Vec b = Vec::Random(n);
  Vec x1 = S.llt().solve(b);
  Vec x2 = S.ldlt().solve(b);
  Vec x3 = A.partialPivLu().solve(b);
  Vec x4 = A.householderQr().solve(b);
  SelfAdjointEigenSolver<Mat> es(S);
  return (x1 - x2).norm() + (x3 - x4).norm() + es.eigenvalues().sum();
}

template <typename T> static T rotations(const T *v) {
  Quaternion<T> q(v[0], v[1], v[2], v[3]);
  q.normalize();
  Matrix<T, 3, 3> R = q.toRotationMatrix();
  AngleAxis<T> aa(v[4], Matrix<T, 3, 1>(v[5], v[6], v[7]).normalized());
  Transform<T, 3, Affine> tf = Translation<T, 3>(v[0], v[1], v[2]) * aa;
  Matrix<T, 3, 1> p = tf * (R * Matrix<T, 3, 1>(v[1], v[2], v[3]));
  Matrix<T, 4, 4> M = tf.matrix();
  return p.squaredNorm() + M.determinant() + M.inverse().trace();
}

template <typename T> static T arrays(int n) {
  Array<T, Dynamic, 1> a = Array<T, Dynamic, 1>::LinSpaced(n, T(-1), T(1));
  Array<T, Dynamic, 1> b = (a > T(0)).select(a.sqrt(), a.abs().exp());
  return (b.cwiseMax(T(0.5)) * a.reverse()).sum() + b.maxCoeff();
}

int main() {
  double vd[8] = {0.9, 0.1, 0.2, 0.3, 0.7, 1.0, 2.0, 3.0};
  double r = solveAndNorm<double>(24, 1) + rotations(vd) + arrays<double>(64);
  std::printf("%g\n", r);
  return 0;
}
