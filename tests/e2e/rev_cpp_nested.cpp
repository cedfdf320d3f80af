// Nested containers in reverse mode, at every level: std::vector of
// std::vector<double> built by the fill constructor (which copies the
// inner vector's elements with memmove), copied whole, assigned row by
// row, passed by reference to a helper, and given by the caller with a
// shadow of the same shape (enzyme_dup); a vector of std::array and one of
// structs. Element copies are typed by Clang's pointer type tags ("p1
// double") at -O1 and up. Each gradient is checked against central
// differences and, along a random direction, against forward mode.
#include "rev_check.h"

#include <array>
#include <vector>

typedef std::vector<std::vector<double>> matrix;

// the fill constructor copies `row` into each of the n rows
static double filled(const double *x) {
  const int n = 4;
  matrix m(n, std::vector<double>(n, x[0]));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[i][j] += x[i] * x[j] + std::sin(x[(i + j) % n]);
  double s = 0;
  for (auto &r : m)
    for (double v : r)
      s += v * v;
  return s;
}

static double row_dot(const std::vector<double> &a,
                      const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}
// copies of the whole matrix and of rows, then a helper by reference
static double copied(const double *x) {
  matrix a;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> row;
    for (int j = 0; j < 3; ++j)
      row.push_back(x[i] * (j + 1) + x[j]);
    a.push_back(row); // copies the row
  }
  matrix b = a; // copies every row
  b[0] = a[2];  // copy assignment into an existing row
  for (auto &r : b)
    for (double &v : r)
      v = std::exp(0.3 * v);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += row_dot(a[i], b[i]);
  return s;
}

// the matrix comes from the caller; its shadow has the same shape
static double quad(const matrix &m, const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i < m.size(); ++i)
    s += v[i] * row_dot(m[i], v);
  return s;
}

static double arrays(const double *x) {
  std::vector<std::array<double, 3>> p(3);
  for (int i = 0; i < 3; ++i)
    p[i] = {x[i], x[i] * x[i], std::cos(x[i])};
  std::vector<std::array<double, 3>> q = p;
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += q[i][0] * q[(i + 1) % 3][1] + q[i][2];
  return s;
}

struct point {
  double x, y;
  int tag;
};
static double structs(const double *x) {
  std::vector<point> p;
  for (int i = 0; i < 4; ++i)
    p.push_back({x[i], x[(i + 1) % 4] * x[i], i});
  std::vector<point> q(p.begin(), p.end());
  double s = 0;
  for (const point &e : q)
    s += e.tag * e.x + e.y * e.y;
  return s;
}

int main() {
  CHECK_GRAD_AND_DOT(filled, 4, 1.0);
  CHECK_GRAD_AND_DOT(copied, 3, 1.0);
  CHECK_GRAD_AND_DOT(arrays, 3, 1.0);
  CHECK_GRAD_AND_DOT(structs, 4, 1.0);

  // d/dm (v^T m v) = v v^T; d/dv = (m + m^T) v
  matrix m = {{1.0, 2.0, -0.5}, {0.3, -1.2, 0.8}, {2.1, 0.4, 1.5}};
  matrix dm(3, std::vector<double>(3, 0.0));
  std::vector<double> v = {0.7, -0.2, 1.3}, dv(3, 0.0);
  __enzyme_autodiff((void *)quad, enzyme_dup, &m, &dm, enzyme_dup, &v, &dv);
  for (int i = 0; i < 3; ++i) {
    double e = 0;
    for (int j = 0; j < 3; ++j) {
      CHECK_CLOSE(dm[i][j], v[i] * v[j], REV_TOL_EXACT);
      e += (m[i][j] + m[j][i]) * v[j];
    }
    CHECK_CLOSE(dv[i], e, REV_TOL_EXACT);
  }
  printf("quad: d/dm00 = %.12f, d/dv0 = %.12f\n", dm[0][0], dv[0]);
  return check_finish();
}
