/* Reverse mode with many arguments and pointer structures: nine active
 * scalars (five passed on the stack; adjoints in a struct returned through
 * sret), an array of row pointers with a shadow array of shadow rows, a
 * noinline callee called with different activity patterns, a pointer walk
 * to an end pointer (with its shadow end), a linked list whose shadow list
 * mirrors it, and a stack array declared inside a loop body. */
#include "rev_check.h"
typedef struct {
  double a[9];
} nine;
nine __enzyme_autodiff9(void *, ...);
static double many(double a, double b, double c, double d, double e, double f,
                   double g, double h, double i) {
  return a * b + c * d * e + f * g * h * i + i * a;
}
static double pp(double **rows, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += rows[i][j] * rows[j][i];
  return s;
}
__attribute__((noinline)) static double two_act(double x, double y) {
  return x * x * y;
}
static double patterns(double x, double c) {
  return two_act(x, 2.0) + two_act(3.0, x) + two_act(x, x) + two_act(c, c);
}
static double walk(const double *p, const double *end) {
  double s = 0;
  while (p < end) {
    s += *p * *p;
    ++p;
  }
  return s;
}
typedef struct Node {
  double v;
  struct Node *next;
} Node;
static double listsum(const Node *n) {
  double s = 0;
  for (; n; n = n->next)
    s += n->v * n->v * n->v;
  return s;
}
static double loop_stack(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double tmp[3];
    for (int k = 0; k < 3; ++k)
      tmp[k] = x[i] * (k + 1);
    s += tmp[0] * tmp[1] * tmp[2];
  }
  return s;
}
int main(void) {
  nine r = __enzyme_autodiff9((void *)many, 1., 2., 3., 4., 5., 6., 7., 8., 9.);
  double w[9] = {2 + 9,     1,         20,        15,           12,
                 7 * 8 * 9, 6 * 8 * 9, 6 * 7 * 9, 6 * 7 * 8 + 1};
  for (int i = 0; i < 9; ++i)
    CHECK_CLOSE(r.a[i], w[i], 0);
  {
    double m[2][2] = {{1, 2}, {3, 4}}, dm[2][2] = {{0}};
    double *rows[2] = {m[0], m[1]}, *drows[2] = {dm[0], dm[1]};
    __enzyme_autodiff((void *)pp, rows, drows, 2);
    /* s = sum_ij m_ij m_ji: d/dm_ij = 2 m_ji */
    CHECK_CLOSE(dm[0][0], 2, 0);
    CHECK_CLOSE(dm[0][1], 6, 0);
    CHECK_CLOSE(dm[1][0], 4, 0);
    CHECK_CLOSE(dm[1][1], 8, 0);
    double vm[2][2] = {{0.3, -0.5}, {1.1, 0.7}};
    double *vrows[2] = {vm[0], vm[1]};
    CHECK_CLOSE(0.3 * 2 - 0.5 * 6 + 1.1 * 4 + 0.7 * 8,
                __enzyme_fwddiff((void *)pp, rows, vrows, 2), REV_TOL_DOT);
  }
  {
    double x = 1.5, c = 0.5;
    CHECK_CLOSE(__enzyme_autodiff((void *)patterns, x, enzyme_const, c),
                2 * x * 2 + 9 + 3 * x * x, 1e-12);
  }
  {
    double p[4] = {1, 2, 3, 4}, dp[4] = {0};
    __enzyme_autodiff((void *)walk, p, dp, p + 4, dp + 4);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(dp[i], 2 * p[i], 0);
    double v[4];
    rev_dir(dp, v, 4);
    CHECK_DOT(dp, v, 4, __enzyme_fwddiff((void *)walk, p, v, p + 4, v + 4));
  }
  {
    Node n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2};
    Node d3 = {0, 0}, d2 = {0, &d3}, d1 = {0, &d2};
    __enzyme_autodiff((void *)listsum, &n1, &d1);
    CHECK_CLOSE(d1.v, 3, 0);
    CHECK_CLOSE(d2.v, 12, 0);
    CHECK_CLOSE(d3.v, 27, 0);
    Node t3 = {0.5, 0}, t2 = {-1, &t3}, t1 = {2, &t2};
    CHECK_CLOSE(3 * 2 - 12 + 27 * 0.5,
                __enzyme_fwddiff((void *)listsum, &n1, &t1), REV_TOL_DOT);
  }
  {
    double x[3] = {1, 2, 3}, dx[3] = {0};
    __enzyme_autodiff((void *)loop_stack, x, dx, 3);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dx[i], 18 * x[i] * x[i], 0);
    double v[3];
    rev_dir(dx, v, 3);
    CHECK_DOT(dx, v, 3, __enzyme_fwddiff((void *)loop_stack, x, v, 3));
  }
  return check_finish();
}
