// Globals that the differentiated code only writes into: a log of the
// calls a program makes, kept in a global vector of records whose fields
// are the (active) pointers and scalars each wrapper is given, as test
// scaffolding that checks which routines a derivative calls does. No
// differentiated code reads a derivative back from the log, so the stores
// need no shadow (analysis/WriteOnlyMemory.h); the primal still writes
// every record. Both modes, analytic values and central differences.
// (Where differentiated code reads through the log again, the store stays
// an error: lit errors/shadowless-stores.c.)
#include "check.h"

#include <cstdlib>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// A growable array as small test frameworks write it: realloc'd, no
// destructor.
template <typename T> struct Log {
  T *data = nullptr;
  std::size_t capacity = 0, length = 0;
  void push_back(T v) {
    if (length == capacity) {
      std::size_t next = capacity == 0 ? 1 : 2 * capacity;
      data = static_cast<T *>(std::realloc(data, sizeof(T) * next));
      capacity = next;
    }
    data[length] = v;
    ++length;
  }
};

enum class Routine { Dot, Axpy };
struct Call {
  Routine routine;
  const double *in;
  double *out;
  double alpha;
  int n;
};
Log<Call> calls;

__attribute__((noinline)) double scaled_dot(int n, double alpha,
                                            const double *x, double *y) {
  calls.push_back(Call{Routine::Dot, x, y, alpha, n});
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return alpha * s;
}

__attribute__((noinline)) void axpy(int n, double alpha, const double *x,
                                    double *y) {
  calls.push_back(Call{Routine::Axpy, x, y, alpha, n});
  for (int i = 0; i < n; ++i)
    y[i] += alpha * x[i];
}

// f = a * x.(y + a x) = a x.y + a^2 x.x, y updated in place.
double objective(double *x, double *y, double a) {
  axpy(3, a, x, y);
  return scaled_dot(3, a, x, y);
}

#if defined(__OPTIMIZE__)
// The same log in a std::vector (from -O1: at -O0 the vector's iterators
// keep its addresses in objects adcc does not follow, and the store is an
// error).
struct Entry {
  const double *x;
  double alpha;
};
std::vector<Entry> entries;
__attribute__((noinline)) double logged_square(double *x, double alpha) {
  entries.push_back(Entry{x, alpha});
  return alpha * x[0] * x[0];
}
double objective_std(double *x, double a) { return logged_square(x, a) + a; }
#endif

static double objective_at(const double *x0, const double *y0, double a) {
  double x[3] = {x0[0], x0[1], x0[2]}, y[3] = {y0[0], y0[1], y0[2]};
  return objective(x, y, a);
}

int main() {
  const double x0[3] = {0.5, -1.25, 2.0}, y0[3] = {1.5, 0.75, -0.5};
  const double a = 1.3, h = 1e-6;
  double xx = 0, xy = 0;
  for (int i = 0; i < 3; ++i) {
    xx += x0[i] * x0[i];
    xy += x0[i] * y0[i];
  }
  // Reverse mode: df/dx = a y + 2 a^2 x, df/dy = a x, df/da = x.y + 2a x.x.
  {
    double x[3] = {x0[0], x0[1], x0[2]}, y[3] = {y0[0], y0[1], y0[2]};
    double dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
    std::size_t before = calls.length;
    double da = __enzyme_autodiff((void *)objective, enzyme_dup, x, dx,
                                  enzyme_dup, y, dy, a);
    // The primal's records, made while the derivative ran.
    CHECK_TRUE(calls.length == before + 2);
    CHECK_TRUE(calls.data[before].routine == Routine::Axpy);
    CHECK_TRUE(calls.data[before].in == x && calls.data[before].out == y);
    CHECK_TRUE(calls.data[before + 1].routine == Routine::Dot);
    CHECK_CLOSE(calls.data[before + 1].alpha, a, 0);
    CHECK_CLOSE(da, xy + 2 * a * xx, 1e-12);
    for (int i = 0; i < 3; ++i) {
      CHECK_CLOSE(dx[i], a * y0[i] + 2 * a * a * x0[i], 1e-12);
      CHECK_CLOSE(dy[i], a * x0[i], 1e-12);
    }
    CHECK_CLOSE(da, (objective_at(x0, y0, a + h) - objective_at(x0, y0, a - h)) /
                        (2 * h),
                1e-6);
  }
  // Forward mode, along x and a.
  {
    double x[3] = {x0[0], x0[1], x0[2]}, y[3] = {y0[0], y0[1], y0[2]};
    double tx[3] = {1, 0, 0}, ty[3] = {0, 0, 0};
    double d = __enzyme_fwddiff((void *)objective, enzyme_dup, x, tx,
                                enzyme_dup, y, ty, a, 1.0);
    CHECK_CLOSE(d, a * y0[0] + 2 * a * a * x0[0] + xy + 2 * a * xx, 1e-12);
  }
#if defined(__OPTIMIZE__)
  {
    double x = 1.5, dx = 0;
    double da = __enzyme_autodiff((void *)objective_std, enzyme_dup, &x, &dx,
                                  0.75);
    CHECK_CLOSE(dx, 2 * 0.75 * 1.5, 1e-12);
    CHECK_CLOSE(da, 1.5 * 1.5 + 1, 1e-12);
    CHECK_TRUE(entries.size() == 1 && entries[0].x == &x);
  }
#endif
  return check_finish();
}
