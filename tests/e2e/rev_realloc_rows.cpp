// A cache of rows grown by realloc in a member function that only hands
// the row out through a `float **` parameter (LIBSVM's Cache::get_data):
// nothing in that function reads or writes the floats, so only the
// parameter's C++ type says what the block holds. Refused at -O0 until
// 2026-12-06 ("a realloc whose contents cannot be typed"). The gradient by
// reverse mode against central differences, forward mode against reverse.
#include "check.h"

#include <cstdlib>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

class RowCache {
public:
  explicit RowCache(int n) : rows((float **)calloc(n, sizeof(float *))),
                             lens((int *)calloc(n, sizeof(int))), n(n) {}
  ~RowCache() {
    for (int i = 0; i < n; ++i)
      free(rows[i]);
    free(rows);
    free(lens);
  }
  // Returns where [p, len) of the row still needs filling.
  __attribute__((noinline)) int get(int i, float **data, int len) {
    int have = lens[i];
    if (len > have) {
      rows[i] = (float *)realloc(rows[i], sizeof(float) * len);
      lens[i] = len;
    }
    *data = rows[i];
    return have;
  }

private:
  float **rows;
  int *lens;
  int n;
};

double f(const double *x, int n) {
  RowCache cache(n);
  double s = 0;
  for (int len = 1; len <= n; ++len) // each row grows, keeping its prefix
    for (int i = 0; i < n; ++i) {
      float *row;
      for (int j = cache.get(i, &row, len); j < len; ++j)
        row[j] = (float)(x[i] * x[j]);
      s += row[len - 1] * x[len - 1];
    }
  return s;
}

int main() {
  const int n = 3;
  double x[n] = {0.5, -1.25, 2.0};
  double g[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double h = 1e-3, xp[n], xm[n];
    for (int j = 0; j < n; ++j)
      xp[j] = xm[j] = x[j];
    xp[i] += h;
    xm[i] -= h;
    // (float rows: differences of a quadratic-and-cubic sum, rounded)
    CHECK_CLOSE(g[i], (f(xp, n) - f(xm, n)) / (2 * h), 1e-4);
    double e[n] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, n);
    CHECK_CLOSE(t, g[i], 1e-6);
  }
  return check_finish();
}
