// C++: templates, classes with methods, std::vector, lambdas, virtual calls;
// results checked against closed forms.
#include "check.h"

#include <memory>
#include <numeric>
#include <vector>

template <typename T> class Matrix {
public:
  Matrix(int Rows, int Cols) : Rows(Rows), Cols(Cols), Data(Rows * Cols) {}
  T &operator()(int I, int J) { return Data[I * Cols + J]; }
  const T &operator()(int I, int J) const { return Data[I * Cols + J]; }
  int rows() const { return Rows; }
  int cols() const { return Cols; }

  std::vector<T> apply(const std::vector<T> &X) const {
    std::vector<T> Y(Rows);
    for (int I = 0; I < Rows; ++I)
      Y[I] = std::inner_product(X.begin(), X.end(), &Data[I * Cols], T{});
    return Y;
  }

private:
  int Rows, Cols;
  std::vector<T> Data;
};

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Disk : Shape {
  double R;
  explicit Disk(double R) : R(R) {}
  double area() const override { return M_PI * R * R; }
};
struct Square : Shape {
  double S;
  explicit Square(double S) : S(S) {}
  double area() const override { return S * S; }
};

int main() {
  // The n x n matrix A(i,j) = 1 / (i + j + 1) (Hilbert) times the ones vector:
  // row sums, compared with harmonic-number differences.
  const int N = 12;
  Matrix<double> A(N, N);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      A(I, J) = 1.0 / (I + J + 1);
  std::vector<double> Ones(N, 1.0);
  std::vector<double> Y = A.apply(Ones);
  for (int I = 0; I < N; ++I) {
    double Want = 0;
    for (int K = I + 1; K <= I + N; ++K)
      Want += 1.0 / K;
    CHECK_CLOSE(Y[I], Want, 1e-14);
  }

  std::vector<std::unique_ptr<Shape>> Shapes;
  Shapes.push_back(std::make_unique<Disk>(2.0));
  Shapes.push_back(std::make_unique<Square>(3.0));
  double Total = 0;
  for (const auto &S : Shapes)
    Total += S->area();
  CHECK_CLOSE(Total, 4 * M_PI + 9, 1e-14);

  auto Poly = [](double X) { return ((2 * X - 3) * X + 1) * X - 5; };
  CHECK_CLOSE(Poly(2.0), 1.0, 0);

  Matrix<float> F(2, 2);
  F(0, 0) = 1.5f;
  F(1, 1) = 2.0f;
  std::vector<float> V = F.apply({2.0f, 4.0f});
  CHECK_CLOSE(V[0], 3.0, 0);
  CHECK_CLOSE(V[1], 8.0, 0);
  return check_finish();
}
