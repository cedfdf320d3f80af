/* Copies of structs that mix numbers and pointers (struct assignment, a
 * memcpy of one struct or of an array of them: at -O0 one memcpy each).
 * In reverse mode the pointers' shadows must move with the pointers in the
 * forward sweep, and the numbers' adjoints only in the reverse sweep: the
 * shadows were not copied at all when the struct began with a double (the
 * derivative read through a null shadow pointer: a crash), and a struct
 * beginning with a pointer had its numbers' shadows copied forward too, so
 * that an adjoint the caller's shadow already held was counted twice.
 *
 * - one: {double, int, pointer} assigned whole;
 * - accumulate: {pointer, double} copied out of an argument whose shadow
 *   already holds an adjoint (gradients accumulated over calls);
 * - few / many: arrays of 4 and 100 such structs copied in one memcpy,
 *   then shifted within the array by overlapping memmoves (up and down):
 *   the pointers' shadows were copied field by field in ascending order,
 *   so a shift up read fields it had already overwritten (every shifted
 *   element pointed at the first element's shadow: wrong gradients at
 *   every -O level, forward mode right).
 */
#include "rev_check.h"

#include <math.h>
#include <string.h>


struct record {
  double key;
  int id;
  const double *value;
};

static double one(const double *x) {
  struct record r, t;
  r.key = x[0] * 2;
  r.id = 1;
  r.value = &x[1];
  t = r;
  return t.key * *t.value + t.id;
}

struct link {
  const double *p;
  double v;
};

static double accumulate(struct link *in) {
  struct link t;
  memcpy(&t, in, sizeof t);
  return t.v * t.v * *t.p;
}

#define FEW 4
#define MANY 100

static double copies(const double *x, int n) {
  struct record a[MANY], b[MANY];
  for (int i = 0; i < n; ++i) {
    a[i].key = sin(x[i % 3] + 0.01 * i);
    a[i].id = i;
    a[i].value = &x[(i + 1) % 3];
  }
  if (n == FEW) {
    memcpy(b, a, FEW * sizeof(struct record));
    /* Shifted up in place (overlapping): b = a0 a0 a1 a2. */
    memmove(b + 1, b, (FEW - 1) * sizeof(struct record));
  } else {
    memcpy(b, a, sizeof a);
    /* Shifted down, then up by a run-time count (the strided copies). */
    memmove(b, b + 1, (MANY - 1) * sizeof(struct record));
    memmove(b + 2, b, (size_t)(n - 2) * sizeof(struct record));
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += b[i].key * *b[i].value * (1 + 0.1 * b[i].id);
  return s;
}

static double few(const double *x) { return copies(x, FEW); }
static double many(const double *x) { return copies(x, MANY); }

/* The gradient against central differences, and along a random direction
 * against forward mode. */
static void check(double (*f)(const double *), double *x, int n) {
  double dx[3] = {0}, v[3];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  CHECK_GRAD(f, x, n, dx, NULL);
  double dir = rev_dir(dx, v, n);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, v), dir, REV_TOL_DOT);
}

int main(void) {
  double x[3] = {0.7, -0.4, 1.3};
  check(one, x, 2);
  check(few, x, 3);
  check(many, x, 3);

  /* d/dv = 2 v p, d/dp = v^2, on top of what the shadows held. */
  double p = 1.5, dp = 10;
  struct link in = {&p, 0.8}, din = {&dp, 100};
  __enzyme_autodiff((void *)accumulate, enzyme_dup, &in, &din);
  CHECK_CLOSE(din.v, 100 + 2 * 0.8 * 1.5, 1e-12);
  CHECK_CLOSE(dp, 10 + 0.8 * 0.8, 1e-12);
  return check_finish();
}
