// A request made where a C++ exception may pass (the calling function has
// a local with a destructor: clang emits the request as an invoke), with a
// shadow struct zero-initialized (`Model dm{}`): what the function writes
// through the null shadow pointer and reads back kept no derivative at -O0
// (the request opened no null-shadow session). Also a derivative that
// throws: the session it leaves open is closed where the exception is
// caught, so a later request does not see its scratch (a tangent left
// there would be read back as the derivative of data given as constant).
// Reverse and forward mode, split mode; analytic values and central
// differences.
#include "check.h"

#include <cmath>
#include <stdexcept>
#include <string>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" void *__enzyme_augmentfwd(void *, ...);
extern "C" void __enzyme_reverse(void *, ...);

namespace {

constexpr int N = 3;

struct Model {
  double *work;
  double scale;
};

// work[i] = x[i] * scale; r = sum work[i]^2 = scale^2 sum x[i]^2
double energy(Model *m, const double *x) {
  for (int i = 0; i < N; ++i)
    m->work[i] = x[i] * m->scale;
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += m->work[i] * m->work[i];
  return r;
}

double energy_value(const double *x, double scale) {
  double buf[N];
  Model m{buf, scale};
  return energy(&m, x);
}

// r = work[0] * x (work[0] as given: no derivative); work[0] = x * scale;
// throws for x > 10; else r + work[0]^2.
double throwing(Model *m, const double *x) {
  double r = m->work[0] * x[0];
  m->work[0] = x[0] * m->scale;
  if (x[0] > 10)
    throw std::runtime_error("too large");
  return r + m->work[0] * m->work[0];
}

struct Named {
  std::string name;
};

void check_energy() {
  Named guard{"a name long enough to live on the heap, with a destructor"};
  const double x[N] = {0.5, -1.5, 2.25}, scale = 1.25, h = 1e-6;
  double buf[N] = {};
  Model m{buf, scale};
  for (int rep = 0; rep < 2; ++rep) {
    Model dm{};
    double dx[N] = {};
    __enzyme_autodiff((void *)energy, enzyme_dup, &m, &dm, enzyme_dup, x, dx);
    CHECK_TRUE(dm.work == nullptr);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(dx[i], 2 * scale * scale * x[i], 1e-12);
      double xp[N], xm[N];
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      CHECK_CLOSE(dx[i],
                  (energy_value(xp, scale) - energy_value(xm, scale)) /
                      (2 * h),
                  1e-6);
      Model tm{};
      double tx[N] = {};
      tx[i] = 1;
      double t = __enzyme_fwddiff((void *)energy, enzyme_dup, &m, &tm,
                                  enzyme_dup, x, tx);
      CHECK_CLOSE(t, dx[i], 1e-12);
    }
    Model sm{};
    double sx[N] = {};
    void *tape = __enzyme_augmentfwd((void *)energy, enzyme_dup, &m, &sm,
                                     enzyme_dup, x, sx);
    __enzyme_reverse((void *)energy, enzyme_dup, &m, &sm, enzyme_dup, x, sx,
                     1.0, tape);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(sx[i], 2 * scale * scale * x[i], 1e-12);
  }
  CHECK_TRUE(guard.name.size() > 16);
}

void check_throwing() {
  Named guard{"another name long enough to live on the heap"};
  const double scale = -0.75, w0 = 0.5;
  double buf[N] = {w0};
  Model m{buf, scale};
  for (int rep = 0; rep < 2; ++rep) {
    bool caught = false;
    try {
      double big = 20, tbig = 1;
      Model tm{};
      __enzyme_fwddiff((void *)throwing, enzyme_dup, &m, &tm, enzyme_dup,
                       &big, &tbig);
    } catch (const std::runtime_error &) {
      caught = true;
    }
    CHECK_TRUE(caught);
    buf[0] = w0;
    double x = 0.4, tx = 1;
    Model tm{};
    // d/dx = w0 + 2 x scale^2 (the scratch of work[0] starts at zero).
    double t = __enzyme_fwddiff((void *)throwing, enzyme_dup, &m, &tm,
                                enzyme_dup, &x, &tx);
    CHECK_CLOSE(t, w0 + 2 * x * scale * scale, 1e-12);
    buf[0] = w0;
    Model dm{};
    double dx = 0;
    __enzyme_autodiff((void *)throwing, enzyme_dup, &m, &dm, enzyme_dup, &x,
                      &dx);
    CHECK_CLOSE(dx, w0 + 2 * x * scale * scale, 1e-12);
  }
  CHECK_TRUE(guard.name.size() > 16);
}

} // namespace

int main() {
  check_energy();
  check_throwing();
  return check_finish();
}
