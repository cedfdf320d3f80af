// A stepper that keeps two states in one object and picks the current one
// by a flag (`toggle ? x1 : x2`), as Boost.Odeint's dense output does,
// with flags and a counter after the states. The type analysis joined the
// layouts of the two choices at the same offsets, folding the object onto
// itself every 24 bytes (the distance between the states), its flags onto
// its doubles: at -O1 the copy of the state into the stepper was refused
// ("a memory copy whose contents cannot be typed", probe_odeint's
// dense_times), and at -O0, where each branch loads the object's address
// again, "every element" of a chosen array spread to the whole object and
// its flag and counter were taken for a double's bits ("an integer holds
// the bits of a floating-point value"), both until 2026-12-06. Checked
// against central differences and forward mode against reverse mode.
#include "check.h"

#include <algorithm>
#include <cstring>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

struct Stepper {
  double dt;
  double x1[3], x2[3];
  double d1[3], d2[3];
  bool toggle, ready;
  int steps;
  void step(double k) {
    double *c = toggle ? x1 : x2, *o = toggle ? x2 : x1;
    double *d = toggle ? d1 : d2;
    if (!ready) {
      for (int i = 0; i < 3; ++i)
        d[i] = -k * c[i] * c[(i + 1) % 3];
      ready = true;
    }
    for (int i = 0; i < 3; ++i)
      o[i] = c[i] + dt * d[i];
    toggle = !toggle;
    ++steps;
  }
};

// p[0..3): the initial state; p[3]: the rate.
static double run(const double *p) {
  Stepper s;
  std::memset(&s, 0, sizeof s);
  s.toggle = true;
  s.dt = 0.1;
  std::copy(p, p + 3, s.x1);
  double acc = 0;
  for (int n = 0; n < 4; ++n) {
    s.step(p[3]);
    s.ready = n % 2;
    double *c = s.toggle ? s.x1 : s.x2;
    acc += c[0] * n + c[2];
  }
  double out[3];
  std::copy(s.x1, s.x1 + 3, out);
  return acc + out[1] * s.steps;
}

// One of two member arrays chosen by a flag that is then flipped.
struct Pair {
  double x1[3], x2[3];
  bool first;
};

static double chosen(Pair *s) {
  double *c = s->first ? s->x1 : s->x2;
  double r = 0;
  for (int i = 0; i < 3; ++i)
    r += c[i] * c[i] * (i + 1);
  s->first = !s->first;
  return r;
}

int main() {
  double p[4] = {1, 2, 3, 0.5}, g[4] = {0}, h = 1e-6, dot = 0;
  __enzyme_autodiff((void *)run, enzyme_dup, p, g);
  for (int i = 0; i < 4; ++i) {
    double a[4], b[4];
    for (int j = 0; j < 4; ++j)
      a[j] = b[j] = p[j];
    a[i] += h;
    b[i] -= h;
    CHECK_CLOSE(g[i], (run(a) - run(b)) / (2 * h), 1e-6);
    CHECK_TRUE(g[i] != 0);
    dot += g[i] * (i + 1);
  }
  double t[4] = {1, 2, 3, 4};
  CHECK_CLOSE(__enzyme_fwddiff((void *)run, enzyme_dup, p, t), dot, 1e-10);

  // d/dx1[i] = 2 (i + 1) x1[i]; nothing for x2; the flag flipped once.
  Pair s = {{1, 2, 3}, {4, 5, 6}, true}, d = {};
  __enzyme_autodiff((void *)chosen, enzyme_dup, &s, &d);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(d.x1[i], 2.0 * (i + 1) * (i + 1), 1e-12);
    CHECK_CLOSE(d.x2[i], 0.0, 0.0);
  }
  CHECK_TRUE(!s.first);
  return check_finish();
}
