// A struct copied through a reference in a helper (`dst = src`, a memcpy
// of the whole struct at -O0): inside the helper nothing says which bytes
// are doubles; the stack variables its callers pass do (caller-seeded type
// analysis). Before, -O0 stopped with "a memory copy whose contents cannot
// be typed". Central differences and forward mode (dot-product test).
#include "rev_check.h"
#include <cmath>

struct State {
  double pos[2];
  int steps;
  double vel;
};

static void assign(State &dst, const State &src) { dst = src; }

static double simulate(const double *x) {
  State s = {{x[0], x[1]}, 0, x[2]}, saved;
  for (int k = 0; k < 3; ++k) {
    assign(saved, s);
    s.pos[0] = saved.pos[0] + 0.1 * saved.vel * saved.pos[1];
    s.pos[1] = saved.pos[1] - 0.1 * std::sin(saved.pos[0]);
    s.vel = saved.vel * 0.9;
    s.steps = saved.steps + 1;
  }
  return s.pos[0] * s.pos[1] + s.vel * s.steps;
}

/* the same through a pointer, with an array of structs */
static void copy_all(State *dst, const State *src, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = src[i];
}
static double pairs(const double *x) {
  State a[2] = {{{x[0], x[1]}, 1, x[2]}, {{x[1], x[2]}, 2, x[0]}}, b[2];
  copy_all(b, a, 2);
  return b[0].pos[0] * b[1].vel + b[1].pos[1] * b[0].vel * b[1].steps;
}

int main() {
  CHECK_GRAD_AND_DOT(simulate, 3, 1.0);
  CHECK_GRAD_AND_DOT(pairs, 3, 1.0);
  return check_finish();
}
