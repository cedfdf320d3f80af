// Issue 33, a request nested in differentiated code (reverse over
// reverse): g(p) runs the gradient of cube(p), whose heap object gets a
// pointer stored over its floats (the order a float, then a pointer), and
// does the same itself. The inner request's marks of pointer shadows begin
// and end inside the outer request's augmented sweep; they are kept on a
// level of their own (the tapes' levels), so that the outer request's
// records of its own pointer stores survive the inner request and its
// reverse sweep puts back what those stores overwrote (docs/reverse-mode.md,
// "Shadows of memory reused"). The outer shadows of the stored pointers lie
// on a page at an address whose low 32 bits, read as a float, are 2^23 or
// more: a stale pointer's shadow read as an adjoint shows in every run.
// Reverse over reverse against the exact derivative and central
// differences, over repeated calls.
#include "check.h"
#include "large_bits_page.h"

#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);

struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

// x^3: a float stored and read, then a pointer over it.
static float cube(float *p) {
  struct particle *q = malloc(sizeof *q);
  q->pos = p[0] * p[0];
  float r = q->pos * p[0];
  link_block(q, p);
  free(q);
  return r;
}

// g = (3x^2) (2x^3) = 6x^5, dg/dx = 30x^4: the inner gradient, then the
// same order in g itself.
static float g(float *p) {
  float d[1] = {0};
  __enzyme_autodiff((void *)cube, enzyme_dup, p, d);
  struct particle *q = malloc(sizeof *q);
  q->vel = 2 * p[0];
  float r = q->vel * p[0];
  link_block(q, p);
  float s = r * p[0];
  free(q);
  return d[0] * s;
}

// g2 = 3x^2 + 2x^3 (the inner gradient's result added), 6x + 6x^2.
static float g2(float *p) {
  float d[1] = {0};
  __enzyme_autodiff((void *)cube, enzyme_dup, p, d);
  struct particle *q = malloc(sizeof *q);
  q->vel = 2 * p[0];
  float r = q->vel * p[0];
  link_block(q, p);
  float s = r * p[0];
  free(q);
  return d[0] + s;
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

static void check(float (*f)(float *), float *p, float *dp, double exact) {
  CHECK_CLOSE(central(f, p), exact, 1e-2);
  for (int run = 0; run < 3; ++run) {
    dp[0] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
    CHECK_CLOSE(dp[0], exact, 1e-5);
  }
}

int main(void) {
  char *page = large_bits_page();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[2] = {1.5f, 0.25f};
  float *dp = (float *)page;
  double x = p[0];
  // (The inner gradient alone.)
  dp[0] = 0;
  __enzyme_autodiff((void *)cube, enzyme_dup, p, dp);
  CHECK_CLOSE(dp[0], 3 * x * x, 1e-5);
  check(g, p, dp, 30 * x * x * x * x);
  check(g2, p, dp, 6 * x + 6 * x * x);
  return check_finish();
}
