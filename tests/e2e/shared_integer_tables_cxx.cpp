// Shadow structs holding std::vector<int> (shared_integer_tables.c in C++):
// counts in a std::vector<int> that the shadow struct refers to (the
// primal's own vector) or owns a copy of, ids pushed back into a vector
// the shadow owns, values in a std::vector<double>. The counts and ids
// are numbers: no derivative code may write them. Forward mode against
// the analytic tangent and central differences, reverse mode against
// forward mode, and the primal's integers after each call.
#include "check.h"

#include <algorithm>
#include <vector>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

namespace {

constexpr int NB = 3, CAP = 6, NA = 7;

struct Cells {
  std::vector<int> &count;
  std::vector<int> ids;
  std::vector<double> v;
};

double weight(int b) { return 1 + 0.5 * b; }

int box_of(int i, int n) { return (i * n + 1) % NB; }

// Values put into boxes by counts; ids pushed back; weighted squares summed.
double fill(Cells *c, const double *x, int n) {
  std::fill(c->count.begin(), c->count.end(), 0);
  c->ids.clear();
  for (int i = 0; i < NA; ++i) {
    int b = box_of(i, n);
    int k = c->count[b]++;
    c->ids.push_back(i);
    c->v[b * CAP + k] = x[i] * x[i];
  }
  double s = 0;
  for (int b = 0; b < NB; ++b)
    for (int k = 0; k < c->count[b]; ++k)
      s += weight(b) * c->v[b * CAP + k];
  return s + 0.125 * c->ids.size();
}

} // namespace

int main() {
  double x[NA] = {0.5, -1.25, 0.75, 1.5, -0.5, 2.0, 0.25};
  double dx[NA] = {1, -2, 0.5, 3, 1.5, -1, 2};
  const int n = 2;
  double exact = 0;
  for (int i = 0; i < NA; ++i)
    exact += 2 * weight(box_of(i, n)) * x[i] * dx[i];
  std::vector<int> plain_count(NB);
  Cells plain{plain_count, {}, std::vector<double>(NB * CAP)};
  fill(&plain, x, n);
  double xp[NA], xm[NA], h = 1e-6;
  for (int i = 0; i < NA; ++i) {
    xp[i] = x[i] + h * dx[i];
    xm[i] = x[i] - h * dx[i];
  }
  double fd = (fill(&plain, xp, n) - fill(&plain, xm, n)) / (2 * h);
  CHECK_CLOSE(fd, exact, 1e-6);

  for (int shared = 0; shared < 2; ++shared) {
    std::vector<int> count(NB), own(NB);
    Cells c{count, {}, std::vector<double>(NB * CAP)};
    Cells dc{shared ? count : own, {}, std::vector<double>(NB * CAP)};
    double t = __enzyme_fwddiff((void *)fill, enzyme_dup, &c, &dc, enzyme_dup,
                                x, dx, enzyme_const, n);
    CHECK_CLOSE(t, exact, 1e-12);
    CHECK_TRUE(count == plain_count && c.ids == plain.ids);

    double gx[NA] = {0};
    std::fill(dc.v.begin(), dc.v.end(), 0.0);
    __enzyme_autodiff((void *)fill, enzyme_dup, &c, &dc, enzyme_dup, x, gx,
                      enzyme_const, n);
    double dot = 0;
    for (int i = 0; i < NA; ++i)
      dot += gx[i] * dx[i];
    CHECK_CLOSE(dot, exact, 1e-12);
    CHECK_TRUE(count == plain_count && c.ids == plain.ids);
  }
  return check_finish();
}
