/* Reverse mode, assorted: float arrays in vectorizable loops, a double
 * dot product (vectorized reductions at -O2/-O3), axpy into an in-out
 * array, a pointer chosen by a select, memcpy of a struct mixing int,
 * float, long and double fields, a static local, a zero-trip loop,
 * recursion 10^4 deep over an array, GCC vector extensions,
 * enzyme_dupnoneed, and a const pointer beside an active scalar. */
#include "rev_check.h"
extern int enzyme_dupnoneed;
/* float arrays, vectorizable */
static float fsum(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * 0.5f + sinf(x[i]);
  return s;
}
/* double reduction vectorizable */
static double dsum(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
/* saxpy into output */
static void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
/* pointer select */
static double psel(const double *a, const double *b, int c) {
  const double *p = c ? a : b;
  return p[0] * p[1];
}
/* mixed struct memcpy */
typedef struct {
  double v;
  int n;
  float w;
  long k;
  double u[2];
} Mix;
static double mixcp(const Mix *m) {
  Mix t;
  memcpy(&t, m, sizeof t);
  return t.v * t.w * t.n + t.u[0] * t.u[1];
}
/* a leading integer field */
typedef struct {
  int n;
  double v;
} MixI;
static double mixcpi(const MixI *m) {
  MixI t;
  memcpy(&t, m, sizeof t);
  return t.v * t.v * t.n;
}
/* static local */
static double statloc(double x) {
  static int calls = 0;
  ++calls;
  return x * x * (calls > 0);
}
/* zero-trip loop */
static double zero_trip(const double *x, int n) {
  double s = x[0];
  for (int i = 0; i < n; ++i)
    s *= x[i];
  return s;
}
/* deep recursion */
static double rsum(const double *x, int n) {
  return n == 0 ? 0 : x[n - 1] * x[n - 1] + rsum(x, n - 1);
}
/* vector extension */
typedef double v2d __attribute__((vector_size(16)));
static double vext(const double *x) {
  v2d a = {x[0], x[1]}, b = {x[2], x[3]};
  v2d c = a * b + a;
  return c[0] * c[1];
}
/* enzyme_dupnoneed */
static double dupn(double *x) {
  x[0] = x[0] * x[0];
  return x[0] * 3;
}
/* active const pointer */
static double cptr(const double *c, double x) { return c[0] * x * x + c[1]; }
int main(void) {
  {
    float x[37], dx[37] = {0};
    for (int i = 0; i < 37; ++i)
      x[i] = 0.1f * i - 1.0f;
    __enzyme_autodiff_f((void *)fsum, x, dx, 37);
    int bad = 0;
    for (int i = 0; i < 37; ++i)
      bad += fabs(dx[i] - (x[i] + cosf(x[i]))) > 1e-5;
    {
      float v[37];
      double s = 0;
      for (int i = 0; i < 37; ++i)
        s += dx[i] * (v[i] = (float)rev_rand());
      CHECK_CLOSE(s, __enzyme_fwddiff_f((void *)fsum, x, v, 37), 1e-5);
    }
    CHECK_TRUE(bad == 0);
  }
  {
    double x[41], y[41], dx[41] = {0}, dy[41] = {0};
    for (int i = 0; i < 41; ++i) {
      x[i] = 0.1 * i;
      y[i] = 1 - 0.05 * i;
    }
    __enzyme_autodiff((void *)dsum, x, dx, y, dy, 41);
    int bad = 0;
    for (int i = 0; i < 41; ++i)
      bad += dx[i] != y[i] || dy[i] != x[i];
    {
      double vx[41], vy[41];
      double s = rev_dir(dx, vx, 41) + rev_dir(dy, vy, 41);
      CHECK_CLOSE(s, __enzyme_fwddiff((void *)dsum, x, vx, y, vy, 41),
                  REV_TOL_DOT);
    }
    CHECK_TRUE(bad == 0);
  }
  {
    double x[9], y[9], dx[9] = {0}, dy[9];
    for (int i = 0; i < 9; ++i) {
      x[i] = i;
      y[i] = 1;
      dy[i] = 1;
    }
    double da = __enzyme_autodiff((void *)axpy, 2.0, x, dx, y, dy, 9);
    CHECK_CLOSE(da, 36.0, 0);
    int bad = 0;
    for (int i = 0; i < 9; ++i)
      bad += dx[i] != 2.0 || dy[i] != 1.0;
    CHECK_TRUE(bad == 0);
  }
  {
    double a[2] = {2, 3}, b[2] = {5, 7}, da[2] = {0}, db[2] = {0};
    __enzyme_autodiff((void *)psel, a, da, b, db, 1);
    __enzyme_autodiff((void *)psel, a, da, b, db, 0);
    CHECK_CLOSE(da[0], 3, 0);
    CHECK_CLOSE(da[1], 2, 0);
    CHECK_CLOSE(db[0], 7, 0);
    CHECK_CLOSE(db[1], 5, 0);
  }
  {
    Mix m = {1.5, 3, 2.0f, 9, {4, 5}}, dm;
    memset(&dm, 0, sizeof dm);
    __enzyme_autodiff((void *)mixcp, &m, &dm);
    CHECK_CLOSE(dm.v, 6.0, 0);
    CHECK_CLOSE(dm.w, 4.5, 0);
    CHECK_CLOSE(dm.u[0], 5, 0);
    CHECK_CLOSE(dm.u[1], 4, 0);
    CHECK_TRUE(dm.n == 0 && dm.k == 0);
  }
  {
    MixI m = {3, 1.5}, dm = {0, 0};
    __enzyme_autodiff((void *)mixcpi, &m, &dm);
    CHECK_CLOSE(dm.v, 9.0, REV_TOL_EXACT);
  }
  CHECK_CLOSE(__enzyme_autodiff((void *)statloc, 3.0), 6.0, 0);
  {
    double x[2] = {3, 4}, dx[2] = {0};
    __enzyme_autodiff((void *)zero_trip, x, dx, 0);
    CHECK_CLOSE(dx[0], 1, 0);
    CHECK_CLOSE(dx[1], 0, 0);
  }
  {
    enum { R = 10000 };
    double *x = malloc(R * sizeof(double)), *dx = calloc(R, sizeof(double));
    for (int i = 0; i < R; ++i)
      x[i] = i * 1e-5;
    __enzyme_autodiff((void *)rsum, x, dx, R);
    int bad = 0;
    for (int i = 0; i < R; ++i)
      bad += dx[i] != 2 * x[i];
    CHECK_TRUE(bad == 0);
    free(x);
    free(dx);
  }
  {
    double x[4] = {1, 2, 3, 4}, dx[4] = {0};
    __enzyme_autodiff((void *)vext, x, dx);
    /* c0 = x0 x2 + x0 = 4, c1 = x1 x3 + x1 = 10 */
    CHECK_CLOSE(dx[0], 10 * 4, 0);
    CHECK_CLOSE(dx[1], 4 * 5, 0);
    CHECK_CLOSE(dx[2], 10 * 1, 0);
    CHECK_CLOSE(dx[3], 4 * 2, 0);
  }
  {
    double x[1] = {2}, dx[1] = {0};
    __enzyme_autodiff((void *)dupn, enzyme_dupnoneed, x, dx);
    CHECK_CLOSE(dx[0], 12, 0);
  }
  {
    double c[2] = {2, 3};
    CHECK_CLOSE(__enzyme_autodiff((void *)cptr, enzyme_const, c, 1.5), 6.0, 0);
  }
  return check_finish();
}
