// std::sort of a std::vector of structs that mix doubles and an int,
// ordered by a double through a lambda, after a few integration steps;
// the derivative follows the permutation the sort chose. (The sort moves
// whole elements as bytes and its comparator reads one double of each: a
// type analysis that took the comparator's reads for the layout of the
// array saw "doubles at 0, 24, 48, ..." and refused the moves at -O1 and
// -O2 as copies of structs of unknown element size. At -O0 std::sort's
// heap moves elements through its iterators' operator*, typed once those
// small functions are inlined into a simplified copy of the heap's.)
#include "rev_check.h"

#include <algorithm>
#include <vector>

struct particle {
  double x, v;
  int id;
};

static double energy(const double *x) {
  std::vector<particle> ps;
  for (int i = 0; i < 6; ++i)
    ps.push_back({x[i], 0.1 * i, i});
  const double dt = 0.05, k = 1.0 + 0.1 * x[0];
  for (int s = 0; s < 10; ++s)
    for (particle &p : ps) {
      p.v -= dt * k * p.x;
      p.x += dt * p.v;
    }
  std::sort(ps.begin(), ps.end(),
            [](const particle &a, const particle &b) { return a.x < b.x; });
  double e = 0;
  for (size_t r = 0; r < ps.size(); ++r)
    e += (r + 1) * (ps[r].id + 1) * (ps[r].x * ps[r].x + ps[r].v * ps[r].v);
  return e;
}

int main() {
  CHECK_GRAD_AND_DOT(energy, 6, 1.0);
  return check_finish();
}
