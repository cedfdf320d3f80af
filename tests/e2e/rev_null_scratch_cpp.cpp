// C++ form of rev_null_scratch.c: a class holding a pointer to a buffer,
// its shadow zero-initialized (`Model dm{}`), whose member function writes
// values with derivatives into the buffer and reads them back; reverse and
// forward mode, checked against analytic values and central differences.
#include "check.h"

#include <cmath>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

namespace {

constexpr int N = 3;

struct Model {
  double *work;
  double scale;

  // work[i] = x[i] * scale; r = sum work[i]^2 = scale^2 sum x[i]^2
  double energy(const double *x) {
    for (int i = 0; i < N; ++i)
      work[i] = x[i] * scale;
    double r = 0;
    for (int i = 0; i < N; ++i)
      r += work[i] * work[i];
    return r;
  }
};

double energy(Model &m, const double *x) { return m.energy(x); }

double value(const double *x, double scale) {
  double buf[N];
  Model m{buf, scale};
  return m.energy(x);
}

} // namespace

int main() {
  const double x[N] = {0.5, -1.5, 2.25}, scale = 1.25, h = 1e-6;
  double buf[N] = {};
  Model m{buf, scale};
  Model dm{};
  double dx[N] = {};
  __enzyme_autodiff((void *)energy, enzyme_dup, &m, &dm, enzyme_dup, x, dx);
  CHECK_TRUE(dm.work == nullptr);
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += x[i] * x[i];
  CHECK_CLOSE(dm.scale, 2 * scale * sum, 1e-12);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i], 2 * scale * scale * x[i], 1e-12);
    double xp[N], xm[N];
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x[j];
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(dx[i], (value(xp, scale) - value(xm, scale)) / (2 * h), 1e-6);
    Model tm{};
    double tx[N] = {};
    tx[i] = 1;
    double t =
        __enzyme_fwddiff((void *)energy, enzyme_dup, &m, &tm, enzyme_dup, x, tx);
    CHECK_CLOSE(t, dx[i], 1e-12);
  }
  return check_finish();
}
