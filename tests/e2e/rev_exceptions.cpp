// Reverse mode and C++ exceptions: where the primal throws, the derivative
// throws the same exception to its caller (never std::terminate).  The
// exception is thrown from the differentiated function itself, from a
// callee several calls deep, from inside a long loop (after much has been
// recorded on the tape), through a frame with a destructor (cleanup
// landing pad), and after heap memory was allocated; it carries
// its value (a std::runtime_error message, a custom type).  (An exception
// object holding a value computed from active data, and std::string work
// for the message: rev_throw_message.cpp.)  Each time the
// test catches it and then checks that later gradients are still right
// (the tape left by the interrupted call must not disturb them).
#include "rev_check.h"

#include <cmath>
#include <stdexcept>
#include <string>

struct Bad {
  int code;
};

static double direct(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return std::sqrt(x) * x;
}

__attribute__((noinline)) static double deep3(double x) {
  if (x > 10)
    throw Bad{3};
  return std::sin(x) * x;
}
__attribute__((noinline)) static double deep2(double x) {
  return deep3(x * 2) + x;
}
__attribute__((noinline)) static double deep1(double x) {
  return deep2(x + 1) * x;
}
static double deep(double x) { return deep1(x) * deep1(0.5 * x); }

// throws from the middle of a long loop
static double longloop(double x, int stop) {
  double s = 0;
  for (int i = 0; i < 200000; ++i) {
    s += std::sin(x * i * 1e-5);
    if (i == stop)
      throw std::runtime_error("stopped");
  }
  return s;
}
static double longloop_d(double x) {
  double d = 0;
  for (int i = 0; i < 200000; ++i)
    d += std::cos(x * i * 1e-5) * i * 1e-5;
  return d;
}

// throws after heap memory was allocated and filled (in a callee, so no
// cleanup in this frame)
__attribute__((noinline)) static void check_ok(const double *w, int n) {
  for (int i = 0; i < n; ++i)
    if (!(w[i] < 1e3))
      throw Bad{7};
}
static double heap(const double *x, int n) {
  double *w = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int i = 0; i < n; ++i)
    w[i] = std::exp(x[i]);
  check_ok(w, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i];
  std::free(w);
  return s;
}

// a local with a destructor and two calls that may throw: two invokes
// sharing one cleanup landing pad at -O0
struct Guard {
  double *p;
  ~Guard() { *p = 0; }
};
double may_throw(double x) {
  if (x > 100)
    throw Bad{9};
  return x * x;
}
static double guarded_pair(double x) {
  double t = 1;
  Guard g{&t};
  double a = may_throw(x);
  return a * may_throw(a);
}

// caught inside a noinline callee that is not differentiated through the
// throwing path: the derivative of the caller must still be right
__attribute__((noinline)) static double guarded(double x) {
  try {
    if (x > 5)
      throw 1;
  } catch (int) {
    return 0.0;
  }
  return x * x;
}

int main() {
  // direct
  CHECK_CLOSE(__enzyme_autodiff((void *)direct, 4.0), 1.5 * 2.0, REV_TOL_EXACT);
  {
    bool caught = false;
    try {
      __enzyme_autodiff((void *)direct, -1.0);
    } catch (const std::domain_error &e) {
      caught = std::string(e.what()) == "negative";
    }
    CHECK_TRUE(caught);
    CHECK_CLOSE(__enzyme_autodiff((void *)direct, 9.0), 1.5 * 3.0,
                REV_TOL_EXACT);
  }
  // deep
  {
    double x = 1.3;
    double want = __enzyme_fwddiff((void *)deep, x, 1.0);
    CHECK_CLOSE(__enzyme_autodiff((void *)deep, x), want, REV_TOL_EXACT);
    int code = 0;
    try {
      __enzyme_autodiff((void *)deep, 7.0); /* deep3(16) throws */
    } catch (const Bad &b) {
      code = b.code;
    }
    CHECK_TRUE(code == 3);
    CHECK_CLOSE(__enzyme_autodiff((void *)deep, x), want, REV_TOL_EXACT);
  }
  // long loop: the tape holds ~10^5 records when it throws
  {
    std::string msg;
    for (int rep = 0; rep < 3; ++rep) {
      try {
        __enzyme_autodiff((void *)longloop, 0.7, 150000);
      } catch (const std::runtime_error &e) {
        msg = e.what();
      }
    }
    CHECK_TRUE(msg == "stopped");
    CHECK_CLOSE(__enzyme_autodiff((void *)longloop, 0.7, -1), longloop_d(0.7),
                1e-9);
  }
  // heap
  {
    double x[3] = {0.5, -0.3, 1.2}, dx[3] = {0};
    __enzyme_autodiff((void *)heap, x, dx, 3);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dx[i], std::exp(x[i]) * (1 + x[i]), REV_TOL_EXACT);
    double y[3] = {0.5, 9.0, 1.2}, dy[3] = {0};
    int code = 0;
    try {
      __enzyme_autodiff((void *)heap, y, dy, 3);
    } catch (const Bad &b) {
      code = b.code;
    }
    CHECK_TRUE(code == 7);
    for (int i = 0; i < 3; ++i) /* nothing was accumulated */
      CHECK_CLOSE(dy[i], 0.0, 0);
    double dz[3] = {0};
    __enzyme_autodiff((void *)heap, x, dz, 3);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dz[i], dx[i], REV_TOL_EXACT);
  }
  // cleanup landing pads: the derivative, then a throw through the guard
  {
    CHECK_CLOSE(__enzyme_autodiff((void *)guarded_pair, 3.0), 6 * 243.0,
                REV_TOL_EXACT);
    int code = 0;
    try {
      __enzyme_autodiff((void *)guarded_pair, 11.0); /* 121^2 > 100 */
    } catch (const Bad &b) {
      code = b.code;
    }
    CHECK_TRUE(code == 9);
    CHECK_CLOSE(__enzyme_autodiff((void *)guarded_pair, 2.0), 6 * 32.0,
                REV_TOL_EXACT);
  }
  // try/catch inside the differentiated code (a callee)
  CHECK_CLOSE(__enzyme_autodiff((void *)guarded, 2.0), 4.0, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)guarded, 6.0), 0.0, REV_TOL_EXACT);
  return check_finish();
}
