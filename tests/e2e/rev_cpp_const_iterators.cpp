// Iterators into a constant argument's containers inside differentiated C++
// code. At -O0 (and wherever begin(), operator*, operator++ and operator!=
// are not inlined: -fno-inline) an iterator lives in a stack slot whose
// address those members receive; adcc used to take the slot for memory that
// may hold derivatives, gave the iterator into the constant's std::vector a
// null shadow and dereferenced it (a crash in reverse mode, a zero tangent
// in forward mode). A range-for, std::transform, std::accumulate and
// std::inner_product over a `const Model &` (enzyme_const), with a
// duplicated std::vector next to it whose iterators do carry derivatives.
// Reverse mode against central differences and against forward mode (dot
// product test), at every level (run-e2e's -O0..-O3) and, registered again,
// with -fno-inline.
#include "rev_check.h"

#include <algorithm>
#include <numeric>
#include <vector>

extern "C" double __enzyme_autodiff_m(void *, ...);
extern "C" double __enzyme_fwddiff_m(void *, ...);
extern "C" {
extern int enzyme_dup, enzyme_const;
}

#define N 5

struct Model {
  std::vector<double> w;
  std::vector<double> b;
};

static double range_for(const Model &m, const double *x) {
  double s = 0;
  int i = 0;
  for (double wi : m.w)
    s += wi * std::sin(x[i++]);
  for (const double &bi : m.b)
    s += bi * x[0];
  return s;
}

static double algorithms(const Model &m, const double *x) {
  std::vector<double> t(x, x + N); // carries derivatives
  std::transform(t.begin(), t.end(), m.w.begin(), t.begin(),
                 [](double a, double w) { return std::sin(a) * w; });
  double s = std::accumulate(t.begin(), t.end(), 0.0);
  s += std::inner_product(m.b.begin(), m.b.end(), t.begin(), 0.0);
  return s + *std::max_element(m.w.begin(), m.w.end()) * x[1];
}

static double explicit_iterators(const Model &m, const double *x) {
  double s = 0;
  auto it = m.w.cbegin();
  for (int i = 0; i < N; ++i, ++it)
    s += std::exp(0.1 * *it * x[i]);
  auto jt = m.b.end();
  while (jt != m.b.begin()) {
    --jt;
    s += *jt * x[jt - m.b.begin()] * x[0];
  }
  return s;
}

static const Model model{{0.5, 1.0, 1.5, 2.0, -0.5},
                         {0.25, -1.0, 0.75, 2.0, 1.0}};

static double range_for_x(const double *x) { return range_for(model, x); }
static double algorithms_x(const double *x) { return algorithms(model, x); }
static double explicit_x(const double *x) {
  return explicit_iterators(model, x);
}

// (A macro: the differentiated function must be known where it is asked
// for.)
#define CHECK_ONE(f, fx)                                                       \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = 0.5 * rev_rand();                                                 \
    __enzyme_autodiff_m((void *)f, enzyme_const, &model, enzyme_dup, x, g);    \
    printf("%-18s d/dx0 = %.12g\n", #f, g[0]);                                 \
    CHECK_GRAD(fx, x, N, g, NULL);                                             \
    rev_dir(g, v, N);                                                          \
    CHECK_DOT(g, v, N,                                                         \
              __enzyme_fwddiff_m((void *)f, enzyme_const, &model, enzyme_dup,  \
                                 x, v));                                       \
  } while (0)

int main() {
  CHECK_ONE(range_for, range_for_x);
  CHECK_ONE(algorithms, algorithms_x);
  CHECK_ONE(explicit_iterators, explicit_x);
  return check_finish();
}
