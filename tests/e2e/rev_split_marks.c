// Issue 33, split requests one after the other: the augmented sweep of one
// request, then another request's augmented sweep before the first one's
// reverse sweep (the reverse sweeps in the opposite order, as the tape
// wants them). Each function stores a float with a derivative in a heap
// object and then a pointer over it (the order a float, then a pointer):
// the reverse of the pointer's store puts back the bytes from before it.
// The second request's marks begin while the first one's records wait for
// its reverse sweep, which still finds them (docs/reverse-mode.md,
// "Shadows of memory reused"). Also a combined request between an
// augmented sweep and its reverse sweep. The shadows of the stored pointers
// lie on a page at an address whose low 32 bits, read as a float, are
// 2^23 or more. Split mode against combined mode, forward mode, central
// differences and the exact derivative.
#include "check.h"
#include "large_bits_page.h"

#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

// x^3.
static float cube(float *p) {
  struct particle *q = malloc(sizeof *q);
  q->pos = p[0] * p[0];
  float r = q->pos * p[0];
  link_block(q, p);
  free(q);
  return r;
}

// 2x^2 + x^4: another function, the same order.
static float quartic(float *p) {
  struct particle *q = malloc(sizeof *q);
  q->vel = 2 * p[0];
  q->pos = p[0] * p[0];
  float r = q->vel * p[0] + q->pos * q->pos;
  link_block(q, p);
  free(q);
  return r;
}

static float central(float (*f)(float *), float *p) {
  float keep = p[0], h = 1e-2f;
  p[0] = keep + h;
  double up = f(p);
  p[0] = keep - h;
  double down = f(p);
  p[0] = keep;
  return (float)((up - down) / (2 * h));
}

int main(void) {
  char *page = large_bits_page();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[2] = {1.5f, 0}, q[2] = {0.75f, 0};
  float *dp = (float *)page, *dq = (float *)(page + 512);
  float *dr = (float *)(page + 1024);
  double x = p[0], y = q[0];
  double cube_at_x = 3 * x * x, quartic_at_y = 4 * y + 4 * y * y * y;
  float t[1] = {1};
  CHECK_CLOSE(__enzyme_fwddiff((void *)cube, enzyme_dup, p, t), cube_at_x,
              1e-5);
  CHECK_CLOSE(__enzyme_fwddiff((void *)quartic, enzyme_dup, q, t),
              quartic_at_y, 1e-5);
  CHECK_CLOSE(central(cube, p), cube_at_x, 1e-2);
  CHECK_CLOSE(central(quartic, q), quartic_at_y, 1e-2);
  for (int run = 0; run < 3; ++run) {
    // Two augmented sweeps, then their reverse sweeps, the last first.
    dp[0] = dq[0] = 0;
    void *a = __enzyme_augmentfwd((void *)cube, enzyme_dup, p, dp);
    void *b = __enzyme_augmentfwd((void *)quartic, enzyme_dup, q, dq);
    __enzyme_reverse((void *)quartic, enzyme_dup, q, dq, 1.0f, b);
    __enzyme_reverse((void *)cube, enzyme_dup, p, dp, 1.0f, a);
    CHECK_CLOSE(dp[0], cube_at_x, 1e-5);
    CHECK_CLOSE(dq[0], quartic_at_y, 1e-5);
    // A combined request between an augmented sweep and its reverse sweep.
    dp[0] = dr[0] = 0;
    a = __enzyme_augmentfwd((void *)cube, enzyme_dup, p, dp);
    __enzyme_autodiff((void *)quartic, enzyme_dup, q, dr);
    __enzyme_reverse((void *)cube, enzyme_dup, p, dp, 1.0f, a);
    CHECK_CLOSE(dr[0], quartic_at_y, 1e-5);
    CHECK_CLOSE(dp[0], cube_at_x, 1e-5);
    // The same function twice.
    dp[0] = dq[0] = 0;
    a = __enzyme_augmentfwd((void *)cube, enzyme_dup, p, dp);
    b = __enzyme_augmentfwd((void *)cube, enzyme_dup, q, dq);
    __enzyme_reverse((void *)cube, enzyme_dup, q, dq, 1.0f, b);
    __enzyme_reverse((void *)cube, enzyme_dup, p, dp, 1.0f, a);
    CHECK_CLOSE(dp[0], cube_at_x, 1e-5);
    CHECK_CLOSE(dq[0], 3 * y * y, 1e-5);
  }
  return check_finish();
}
