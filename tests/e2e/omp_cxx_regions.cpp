// OpenMP regions in C++ functions, both modes, teams of 1, 2 and 4 threads
// (omp_check.h). The body of a region is a function of its own named after
// the C++ function (`_ZL7courant...omp_outlined`) whose parameters are the
// captured variables, not the C++ signature's: until 2026-12-06 the type
// analysis read the signature from that name and gave its parameter types
// to the wrong parameters, so at -O0 LULESH's Courant constraint (an int
// and a double array per thread) was refused ("a floating-point value is
// copied as an integer"). Also: a region in a method (`this` captured), and
// a function taking a std::complex by value after pointers, which the IR
// passes as two doubles (the parameter types read from the name must line
// up with the IR's arguments).
#include <complex>
#include <vector>

#define N 12
#include "omp_check.h"

namespace {

typedef double Real_t;
typedef int Index_t;

struct Domain {
  std::vector<Real_t> m_ss, m_vdov, m_arealg;
  Real_t &ss(Index_t i) { return m_ss[i]; }
  Real_t &vdov(Index_t i) { return m_vdov[i]; }
  Real_t &arealg(Index_t i) { return m_arealg[i]; }
};

// LULESH 2.0's CalcCourantConstraintForElems, as it is written there (its
// per-thread arrays are variable-length arrays, a Clang extension in C++).
#pragma clang diagnostic ignored "-Wvla-cxx-extension"
void courant(Domain &domain, Index_t length, Index_t *regElemlist,
             Real_t qqc, Real_t &dtcourant) {
  const Index_t threads = omp_get_max_threads();
  Index_t courant_elem_per_thread[threads];
  Real_t dtcourant_per_thread[threads];
#pragma omp parallel firstprivate(length, qqc)
  {
    Real_t qqc2 = Real_t(64.0) * qqc * qqc;
    Real_t dtcourant_tmp = dtcourant;
    Index_t courant_elem = -1;
    Index_t thread_num = omp_get_thread_num();
#pragma omp for
    for (Index_t i = 0; i < length; ++i) {
      Index_t indx = regElemlist[i];
      Real_t dtf = domain.ss(indx) * domain.ss(indx);
      if (domain.vdov(indx) < Real_t(0.))
        dtf = dtf + qqc2 * domain.arealg(indx) * domain.arealg(indx) *
                        domain.vdov(indx) * domain.vdov(indx);
      dtf = sqrt(dtf);
      dtf = domain.arealg(indx) / dtf;
      if (domain.vdov(indx) != Real_t(0.)) {
        if (dtf < dtcourant_tmp) {
          dtcourant_tmp = dtf;
          courant_elem = indx;
        }
      }
    }
    dtcourant_per_thread[thread_num] = dtcourant_tmp;
    courant_elem_per_thread[thread_num] = courant_elem;
  }
  for (Index_t i = 1; i < threads; ++i)
    if (dtcourant_per_thread[i] < dtcourant_per_thread[0]) {
      dtcourant_per_thread[0] = dtcourant_per_thread[i];
      courant_elem_per_thread[0] = courant_elem_per_thread[i];
    }
  if (courant_elem_per_thread[0] != -1)
    dtcourant = dtcourant_per_thread[0];
}

class Model {
public:
  Model(const double *w, int n) : Weights(w, w + n), Scale(0.75) {}
  // A region in a method: its body's first captured variable is `this`.
  double energy(const double *x, int n) const {
    double e = 0;
#pragma omp parallel for reduction(+ : e)
    for (int i = 0; i < n; ++i)
      e += Scale * Weights[i] * x[i] * x[i];
    return e;
  }

private:
  std::vector<double> Weights;
  double Scale;
};

// A std::complex by value after two pointers: two doubles in the IR.
__attribute__((noinline)) double mix(const int *k, const double *v,
                                     std::complex<double> z) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += v[k[i]] * std::abs(z);
  return s;
}

} // namespace

// 4 elements: sound speeds x[0..3], volume rates x[4..7], areas x[8..11].
static double courant_objective(const double *x, double *y, int n) {
  Domain d;
  int m = n / 3;
  for (int i = 0; i < m; ++i) {
    d.m_ss.push_back(1 + x[i]);
    d.m_vdov.push_back(x[m + i] - 0.52 + 0.1 * (i % 2));
    d.m_arealg.push_back(0.5 + x[2 * m + i] * (1 + 0.3 * i));
  }
  std::vector<int> list(m);
  for (int i = 0; i < m; ++i)
    list[i] = m - 1 - i;
  double dt = 1e20;
  courant(d, m, list.data(), 2.0 + x[3], dt);
  y[0] = dt;
  return dt;
}

static double method_objective(const double *x, double *y, int n) {
  double w[N];
  for (int i = 0; i < n; ++i)
    w[i] = 1.0 + 0.1 * i;
  Model model(w, n);
  y[0] = model.energy(x, n);
  return y[0];
}

static double complex_objective(const double *x, double *y, int n) {
  int k[3] = {2, 5, 7};
  std::complex<double> z(x[0], x[1] * x[1]);
  y[0] = mix(k, x, z) + x[n - 1];
  return y[0];
}

DERIVATIVES(courant_objective)
DERIVATIVES(method_objective)
DERIVATIVES(complex_objective)

int main() {
  CHECK_GRADIENT(courant_objective, 1e-6, 1e-6);
  CHECK_GRADIENT(method_objective, 1e-6, 1e-6);
  CHECK_GRADIENT(complex_objective, 1e-6, 1e-6);
  return check_finish();
}
