// Issue 33: a float output beside an integer of 256 or more in a record of
// numbers (`struct particle { float x; int id; }`), reached through a
// pointer read from a table. Its store is one where a caller's link could
// lie (another file may convert a linked record's pointer to it), so the
// augmented sweep tests its shadow word for a link's shadow. The test once
// also read the primal's word, where the float beside an id of 1000 reads
// as a user-space address, and zeroed the caller's seed: a gradient of 0
// for 2x at -O2 (found 2026-12-07 reviewing the test's introduction; right
// before it). Reverse mode against the exact derivative and central
// differences, ids 1000, 123456789 and -1 (all bits set beside the float),
// and the same with a double beside a long.
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

struct particle {
  float x;
  int id;
};
struct cell {
  double a;
  long id;
};

__attribute__((noinline)) void set_x(struct particle **tab, float *in) {
  struct particle *p = tab[1];
  p->x = in[0] * in[0] + 0.5f * in[1];
}
__attribute__((noinline)) void set_a(struct cell **tab, double *in) {
  struct cell *c = tab[0];
  c->a = 3 * in[0] * in[0] - in[1];
}

static void check_particle(int id) {
  struct particle p0 = {0, 1}, p = {0, id}, dp0 = {0, 0}, dp = {2.0f, 0};
  struct particle *tab[2] = {&p0, &p}, *dtab[2] = {&dp0, &dp};
  float in[2] = {1.25f, -0.5f}, din[2] = {0, 0};
  __enzyme_autodiff((void *)set_x, enzyme_dup, tab, dtab, enzyme_dup, in,
                    din);
  // The seed 2 times dx/din.
  CHECK_CLOSE(din[0], 2 * 2 * in[0], 1e-6);
  CHECK_CLOSE(din[1], 2 * 0.5, 1e-6);
  CHECK_TRUE(p.id == id && dp.id == 0);
  for (int i = 0; i < 2; ++i) {
    float h = 1e-2f, a[2] = {in[0], in[1]}, b[2] = {in[0], in[1]};
    a[i] += h;
    b[i] -= h;
    set_x(tab, a);
    float fa = p.x;
    set_x(tab, b);
    float fb = p.x;
    CHECK_CLOSE(din[i], 2 * (fa - fb) / (2 * h), 1e-3);
  }
}

static void check_cell(long id) {
  struct cell c = {0, id}, dc = {-1.5, 0};
  struct cell *tab[1] = {&c}, *dtab[1] = {&dc};
  double in[2] = {0.75, 2.0}, din[2] = {0, 0};
  __enzyme_autodiff((void *)set_a, enzyme_dup, tab, dtab, enzyme_dup, in,
                    din);
  CHECK_CLOSE(din[0], -1.5 * 6 * in[0], 1e-12);
  CHECK_CLOSE(din[1], -1.5 * -1, 1e-12);
  for (int i = 0; i < 2; ++i) {
    double h = 1e-6, a[2] = {in[0], in[1]}, b[2] = {in[0], in[1]};
    a[i] += h;
    b[i] -= h;
    set_a(tab, a);
    double fa = c.a;
    set_a(tab, b);
    double fb = c.a;
    CHECK_CLOSE(din[i], -1.5 * (fa - fb) / (2 * h), 1e-7);
  }
}

int main(void) {
  int ids[] = {1000, 123456789, -1};
  for (int i = 0; i < 3; ++i) {
    check_particle(ids[i]);
    check_cell(ids[i]);
  }
  return check_finish();
}
