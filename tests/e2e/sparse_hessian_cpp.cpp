// Sparse Hessians from C++ as Enzyme's users write them: the request
// functions declared as templates, the triplets in a std::vector passed by
// reference to the store function, nullptr as the enzyme_dupnoneed value
// of the gradient's output, and a template energy of springs between
// points in the plane. Forward mode over the gradient with dense views;
// checked against central differences of the gradient and the dense
// forward-over-reverse columns, with the sparsity of the springs' graph.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T, typename... Args> T __enzyme_todense(Args...);
template <typename T, typename... Args> T __enzyme_fwddiff(void *, Args...);
template <typename T, typename... Args> T __enzyme_autodiff(void *, Args...);
extern int enzyme_const, enzyme_dup, enzyme_dupnoneed;

static int failures = 0;
static void check_close(double got, double want, double tol, int line) {
  double scale = std::fabs(want) > 1 ? std::fabs(want) : 1;
  if (!(std::fabs(got - want) <= tol * scale)) {
    std::printf("FAIL line %d: %.17g, expected %.17g\n", line, got, want);
    ++failures;
  }
}
#define CHECK_CLOSE(got, want, tol) check_close(got, want, tol, __LINE__)

struct Entry {
  long row, col;
  double val;
};

constexpr long Points = 5, Dim = 2 * Points;

// Springs between neighbours on a closed chain, rest length 1:
// E = sum_i (|p_{i+1} - p_i| - 1)^2 k_i.
template <typename T> static T energy(long n, const T *p) {
  T e = 0;
  for (long i = 0; i < n; ++i) {
    long j = (i + 1) % n;
    T dx = p[2 * j] - p[2 * i], dy = p[2 * j + 1] - p[2 * i + 1];
    T len = std::sqrt(dx * dx + dy * dy);
    e += (len - 1) * (len - 1) * T(1 + i);
  }
  return e;
}

template <typename T> static void gradient(long n, const T *p, T *g) {
  __enzyme_autodiff<void>((void *)energy<T>, enzyme_const, n, enzyme_dup, p,
                          g);
}

template <typename T> static T hot_load(long offset, long hot) {
  return T(offset / long(sizeof(T)) == hot);
}
template <typename T> static void never_store(T, long, long) { std::abort(); }
template <typename T>
static T zero_load(long, long, std::vector<Entry> &) {
  return 0;
}
template <typename T>
static void keep_store(T v, long offset, long col, std::vector<Entry> &out) {
  if (v != 0)
    out.push_back({offset / long(sizeof(T)), col, v});
}

template <typename T>
static std::vector<Entry> sparse_hessian(long n, T *p) {
  std::vector<Entry> out;
  for (long j = 0; j < 2 * n; ++j) {
    T *dp = __enzyme_todense<T *>((void *)hot_load<T>, (void *)never_store<T>,
                                  j);
    T *dg = __enzyme_todense<T *>((void *)zero_load<T>, (void *)keep_store<T>,
                                  j, &out);
    __enzyme_fwddiff<void>((void *)gradient<T>, enzyme_const, n, enzyme_dup,
                           p, dp, enzyme_dupnoneed, (T *)nullptr, dg);
  }
  return out;
}

int main() {
  double p[Dim];
  for (long i = 0; i < Points; ++i) {
    double a = 2 * M_PI * i / Points;
    p[2 * i] = 1.3 * std::cos(a) + 0.1 * i;
    p[2 * i + 1] = 0.8 * std::sin(a);
  }
  std::vector<Entry> entries = sparse_hessian<double>(Points, p);
  double H[Dim][Dim] = {};
  for (const Entry &e : entries) {
    // Only coordinates of the same point or of neighbours.
    long a = e.row / 2, b = e.col / 2;
    long gap = std::labs(a - b);
    if (!(gap <= 1 || gap == Points - 1)) {
      std::printf("FAIL: entry (%ld, %ld) outside the springs' graph\n",
                  e.row, e.col);
      ++failures;
    }
    H[e.row][e.col] += e.val;
  }
  const double h = 1e-5;
  for (long j = 0; j < Dim; ++j) {
    double dp[Dim] = {}, g[Dim] = {}, column[Dim] = {};
    dp[j] = 1;
    __enzyme_fwddiff<void>((void *)gradient<double>, enzyme_const, Points,
                           enzyme_dup, p, dp, enzyme_dup, g, column);
    double pp[Dim], pm[Dim], gp[Dim] = {}, gm[Dim] = {};
    for (long i = 0; i < Dim; ++i)
      pp[i] = pm[i] = p[i];
    pp[j] += h;
    pm[j] -= h;
    gradient<double>(Points, pp, gp);
    gradient<double>(Points, pm, gm);
    for (long i = 0; i < Dim; ++i) {
      CHECK_CLOSE(H[i][j], column[i], 1e-12);
      CHECK_CLOSE(H[i][j], (gp[i] - gm[i]) / (2 * h), 1e-6);
      CHECK_CLOSE(H[i][j], H[j][i], 1e-12);
    }
  }
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
