/* Ties of maxima and minima written as choices: the derivative goes to the
 * operand the program chooses, at every level and with -ffast-math (where
 * InstCombine would turn `(a > b) ? a : b` into llvm.maxnum(a, b) and the
 * tie would no longer be the program's).  `r = (r > v[i]) ? r : v[i]`
 * keeps the last of equal maxima (on a tie the condition is false),
 * `(r >= v[i]) ? r : v[i]` the first; likewise for minima, macros, `if`
 * statements, a helper left as a call, float and double, reverse and
 * forward mode.  Each gradient is exactly the indicator of the chosen
 * element; each tangent is the chosen element's seed.  Calls of fmax and
 * fmin give a tie to their first operand, a constant operand counting as
 * the second (docs/rules.md), at every level. */
#include "rev_check.h"

#include <adcc.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* --- double */
static double max_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r > v[i]) ? r : v[i];
  return r;
}
static double max_first(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r >= v[i]) ? r : v[i];
  return r;
}
static double min_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r < v[i]) ? r : v[i];
  return r;
}
static double min_first(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r <= v[i]) ? r : v[i];
  return r;
}
/* a minimum started from the last element, which is compared again: with
 * -ffast-math InstCombine folded the second choice, a minimum of a minimum,
 * into the first (adfuzz v5 seed 187), and the tie went to v[0] */
static double seeded_min2(const double *v, int n) {
  (void)n;
  double r = v[1];
  for (int i = 0; i < 2; i++) {
    double t = v[i];
    r = (r < t) ? r : t;
  }
  return r;
}
/* the same, differentiated by a declared derivative */
ADCC_FORWARD(d_max_last, Dual, Const, DualOnly)
double max_last_declared(const double *v, int n);
double max_last_declared(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r > v[i]) ? r : v[i];
  return r;
}
/* MAX(r, v[i]) keeps the last maximum, MAX(v[i], r) the first */
static double macro_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = MAX(r, v[i]);
  return r;
}
static double macro_first(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = MAX(v[i], r);
  return r;
}
static double macro_min_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = MIN(r, v[i]);
  return r;
}
/* an if statement: a strict test keeps the first, >= the last */
static double if_first(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > r)
      r = v[i];
  return r;
}
static double if_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] >= r)
      r = v[i];
  return r;
}
/* the choice in a helper left as a call */
__attribute__((noinline)) static double max2(double a, double b) {
  return MAX(a, b);
}
static double helper_last(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = max2(r, v[i]);
  return r;
}
/* two scalars: on a tie MAX(x, y) is y */
static double scalar_max(double x, double y) { return MAX(x, y) * 3; }

/* calls of fmax and fmin: a tie goes to the first operand, a constant
 * operand counts as the second */
static double relu(double x) { return fmax(0.0, x) * 2; }
static double clamp_hi(double x) { return fmin(5.0, x); }
static double fmax_xy(double x, double y) { return fmax(x, y) * 3; }
static float relu_f(float x) { return fmaxf(0.0f, x) * 2; }

/* --- float (fmaxf and fminf written as ternaries) */
static float fmaxf_t(float a, float b) { return a > b ? a : b; }
static float fminf_t(float a, float b) { return a < b ? a : b; }
static float max_last_f(const float *v, int n) {
  float r = v[0];
  for (int i = 1; i < n; i++)
    r = fmaxf_t(r, v[i]);
  return r;
}
static float max_first_f(const float *v, int n) {
  float r = v[0];
  for (int i = 1; i < n; i++)
    r = (r >= v[i]) ? r : v[i];
  return r;
}
static float min_last_f(const float *v, int n) {
  float r = v[0];
  for (int i = 1; i < n; i++)
    r = fminf_t(r, v[i]);
  return r;
}

typedef double (*reduce_fn)(const double *, int);
typedef float (*reduce_fn_f)(const float *, int);

#define N 64

/* v with its extreme value `ext` at positions a and b, the others
 * strictly on the other side of it */
static void fill(double *v, int n, double ext, int a, int b) {
  for (int i = 0; i < n; i++)
    v[i] = ext > 0 ? 0.5 * sin(i * 0.7) : 2 + 0.5 * sin(i * 0.7);
  v[a] = v[b] = ext;
}

/* the gradient and the tangent of f at v are those of v[chosen] */
#define CHECK_REDUCE(f, v, n, chosen)                                          \
  do {                                                                         \
    double d_[N] = {0}, s_[N];                                                 \
    __enzyme_autodiff_void((void *)f, v, d_, n);                               \
    for (int i_ = 0; i_ < n; i_++) {                                           \
      if (d_[i_] != (i_ == (chosen) ? 1.0 : 0.0))                              \
        rev_fail(__FILE__, __LINE__, #f " gradient", i_, d_[i_],               \
                 i_ == (chosen) ? 1.0 : 0.0);                                  \
      s_[i_] = i_ + 1;                                                         \
    }                                                                          \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, v, s_, n), (chosen) + 1.0, 0);     \
  } while (0)

#define CHECK_REDUCE_F(f, v, n, chosen)                                        \
  do {                                                                         \
    float d_[N] = {0}, s_[N];                                                  \
    __enzyme_autodiff_void((void *)f, v, d_, n);                               \
    for (int i_ = 0; i_ < n; i_++) {                                           \
      if (d_[i_] != (i_ == (chosen) ? 1.0f : 0.0f))                            \
        rev_fail(__FILE__, __LINE__, #f " gradient", i_, d_[i_],               \
                 i_ == (chosen) ? 1.0 : 0.0);                                  \
      s_[i_] = i_ + 1;                                                         \
    }                                                                          \
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)f, v, s_, n), (chosen) + 1.0, 0);   \
  } while (0)

int main(void) {
  /* the reproducer of the issue: two maxima, the last chosen */
  {
    double v[4] = {1, 5, 2, 5};
    CHECK_REDUCE(max_last, v, 4, 3);
    CHECK_REDUCE(max_first, v, 4, 1);
    CHECK_REDUCE(macro_last, v, 4, 3);
    CHECK_REDUCE(macro_first, v, 4, 1);
    CHECK_REDUCE(if_first, v, 4, 1);
    CHECK_REDUCE(if_last, v, 4, 3);
    CHECK_REDUCE(helper_last, v, 4, 3);
    double s[4] = {1, 2, 3, 4};
    CHECK_CLOSE(d_max_last(v, s, 4), 4, 0);
  }
  /* long arrays (vectorizable reductions), ties far apart */
  {
    double v[N];
    fill(v, N, 3, 9, 50);
    CHECK_REDUCE(max_last, v, N, 50);
    CHECK_REDUCE(max_first, v, N, 9);
    CHECK_REDUCE(macro_last, v, N, 50);
    CHECK_REDUCE(macro_first, v, N, 9);
    CHECK_REDUCE(if_first, v, N, 9);
    CHECK_REDUCE(if_last, v, N, 50);
    CHECK_REDUCE(helper_last, v, N, 50);
    fill(v, N, -3, 0, 37);
    CHECK_REDUCE(min_last, v, N, 37);
    CHECK_REDUCE(min_first, v, N, 0);
    CHECK_REDUCE(macro_min_last, v, N, 37);
  }
  /* a minimum of a minimum */
  {
    double v[2] = {0.25, 0.25};
    CHECK_REDUCE(seeded_min2, v, 2, 1);
    v[0] = 0.125;
    CHECK_REDUCE(seeded_min2, v, 2, 0);
  }
  /* three equal minima */
  {
    double v[6] = {4, -1, 3, -1, 0, -1};
    CHECK_REDUCE(min_last, v, 6, 5);
    CHECK_REDUCE(min_first, v, 6, 1);
  }
  /* two scalars */
  {
    rev_two g = __enzyme_autodiff2((void *)scalar_max, 2.0, 2.0);
    CHECK_CLOSE(g.a, 0, 0);
    CHECK_CLOSE(g.b, 3, 0);
    CHECK_CLOSE(__enzyme_fwddiff((void *)scalar_max, 2.0, 1.0, 2.0, 0.0), 0, 0);
    CHECK_CLOSE(__enzyme_fwddiff((void *)scalar_max, 2.0, 0.0, 2.0, 1.0), 3, 0);
    g = __enzyme_autodiff2((void *)scalar_max, 2.5, 2.0);
    CHECK_CLOSE(g.a, 3, 0);
    CHECK_CLOSE(g.b, 0, 0);
  }
  /* calls of fmax and fmin */
  {
    CHECK_CLOSE(__enzyme_autodiff((void *)relu, 0.0), 2, 0);
    CHECK_CLOSE(__enzyme_fwddiff((void *)relu, 0.0, 1.0), 2, 0);
    CHECK_CLOSE(__enzyme_autodiff((void *)relu, -1.0), 0, 0);
    CHECK_CLOSE(__enzyme_autodiff((void *)clamp_hi, 5.0), 1, 0);
    CHECK_CLOSE(__enzyme_fwddiff((void *)clamp_hi, 5.0, 1.0), 1, 0);
    CHECK_CLOSE(__enzyme_autodiff((void *)clamp_hi, 6.0), 0, 0);
    rev_two g = __enzyme_autodiff2((void *)fmax_xy, 2.0, 2.0);
    CHECK_CLOSE(g.a, 3, 0);
    CHECK_CLOSE(g.b, 0, 0);
    CHECK_CLOSE(__enzyme_fwddiff((void *)fmax_xy, 2.0, 0.0, 2.0, 1.0), 0, 0);
    CHECK_CLOSE(__enzyme_autodiff_f((void *)relu_f, 0.0f), 2, 0);
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)relu_f, 0.0f, 1.0f), 2, 0);
  }
  /* float */
  {
    float v[N];
    for (int i = 0; i < N; i++)
      v[i] = (float)(0.5 * sin(i * 0.7));
    v[12] = v[44] = 3;
    CHECK_REDUCE_F(max_last_f, v, N, 44);
    CHECK_REDUCE_F(max_first_f, v, N, 12);
    float w[5] = {2, -7, 1, -7, -7};
    CHECK_REDUCE_F(min_last_f, w, 5, 4);
    CHECK_REDUCE_F(max_first_f, w, 5, 0);
    float u[4] = {1, 5, 2, 5};
    CHECK_REDUCE_F(max_last_f, u, 4, 3);
  }
  return check_finish();
}
