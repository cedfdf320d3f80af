// Issue 33, the order a float and then a pointer: bytes that held a float
// with a derivative get a pointer stored over them (a pool's free list
// linking a freed object's first bytes, a buffer reused). The augmented
// sweep stores the pointer's shadow there; the reverse of the float's
// loads and store read those bits as its adjoint until the reverse of the
// pointer's store put back the bytes from before it (docs/reverse-mode.md,
// "Shadows of memory reused"). The shadows of the stored pointers lie on a
// page at an address whose low 32 bits, read as a float, are 2^23 or more:
// the stale bits show in every run. The caller's memory keeps the shadows
// of the pointers it ends the call with (a pool's free list used by the
// next call). Also the first order, a pointer and then a float, through
// loops over an argument array (`y[i]`). Reverse mode against forward
// mode, central differences and the exact derivative, over repeated calls.
#include "check.h"
#include "large_bits_page.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

// 1. A heap object whose first bytes get a link after its floats were
// used, by a function not inlined, then freed:
// s = (x^2 + 2x x^2) x, ds/dx = 3x^2 + 8x^3.
struct particle {
  float pos, vel;
  float pad[14];
};

__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}

static float heap_object(float *p) {
  struct particle *q = malloc(sizeof *q);
  q->pos = p[0] * p[0];
  q->vel = 2 * p[0];
  float r = q->pos + q->vel * q->pos;
  link_block(q, p);
  float s = r * p[0];
  free(q);
  return s;
}

// 2. A local buffer: a float put, read back, then a pointer put over it,
// each by a function not inlined: (3x)^2, 18x.
__attribute__((noinline)) static void put_float(void *buf, float v) {
  memcpy(buf, &v, sizeof v);
}
__attribute__((noinline)) static float get_float(const void *buf) {
  float v;
  memcpy(&v, buf, sizeof v);
  return v;
}
__attribute__((noinline)) static void put_pointer(void *buf, const void *p) {
  *(const void **)buf = p;
}

static float local_buffer(float *p) {
  void *buf[2];
  put_float(buf, 3 * p[0]);
  float r = get_float(buf);
  put_pointer(buf, p);
  return r * r;
}

// 3. A pool in the caller's memory, whose free list the function sets up:
// blocks handed out hold a float, then go back to the list (the link over
// the float), twice. The caller's shadow pool ends with the links'
// shadows: r = sum_j (j + 1) sum_k (k + 1) x^2 (x + k),
// dr = 3 sum_k (k + 1)(3x^2 + 2kx).
enum { Blocks = 4, Taken = 3, Rounds = 2 };
struct block {
  union {
    float value;
    struct block *next;
  };
  float weight;
};
struct pool {
  struct block *free;
  struct block blocks[Blocks];
};

__attribute__((noinline)) static void init_pool(struct pool *pl) {
  for (int k = 0; k < Blocks; ++k)
    pl->blocks[k].next = k + 1 < Blocks ? &pl->blocks[k + 1] : NULL;
  pl->free = &pl->blocks[0];
}
__attribute__((noinline)) static struct block *take(struct pool *pl) {
  struct block *b = pl->free;
  pl->free = b->next;
  return b;
}
__attribute__((noinline)) static void give_back(struct pool *pl,
                                                struct block *b) {
  b->next = pl->free;
  pl->free = b;
}

static float pool_rounds(struct pool *pl, float *p) {
  init_pool(pl);
  float r = 0;
  for (int j = 0; j < Rounds; ++j) {
    struct block *taken[Taken];
    for (int k = 0; k < Taken; ++k) {
      taken[k] = take(pl);
      taken[k]->value = (j + 1) * p[0] * p[0];
      taken[k]->weight = p[0] + k;
    }
    for (int k = 0; k < Taken; ++k)
      r += (k + 1) * taken[k]->value * taken[k]->weight;
    for (int k = Taken; k-- > 0;)
      give_back(pl, taken[k]);
  }
  return r;
}

// Whether the shadow pool's links mirror the pool's.
static int mirrors(const struct pool *pl, const struct pool *dpl) {
  const char *b = (const char *)pl, *db = (const char *)dpl;
  if ((const char *)dpl->free - db != (const char *)pl->free - b)
    return 0;
  for (const struct block *x = pl->free; x; x = x->next) {
    const struct block *dx =
        (const struct block *)(db + ((const char *)x - b));
    if (x->next && (const char *)dx->next - db != (const char *)x->next - b)
      return 0;
  }
  return 1;
}

// 4. The caller's memory ends the call holding another pointer than it
// began with: its shadow must hold the new pointer's shadow.
struct holder {
  float *cur;
};

static float advance(struct holder *h, float *p) {
  h->cur = p + 1;
  return h->cur[0] * p[0];
}

// 5. The first order through loops over an array a pointer argument
// points to (`y[i]`, whose check runs once before the loop): pointers
// stored, then numbers over them, then read back; the count from a global,
// so that no loop is unrolled: sum_{i<8} ((i + 1) x)^2, 408x. And a loop
// that reads each pointer and then stores a number over it (its stores
// keep their own checks): sum_{i<4} (2 x0 x)^2 with x0 = x, 64x^3.
int Count = 4;

__attribute__((noinline)) static void fill_pointers(float **y, float *p,
                                                    int n) {
  for (int i = 0; i < n; ++i)
    y[i] = p;
}
__attribute__((noinline)) static void fill_numbers(float *y, const float *p,
                                                   int n) {
  for (int i = 0; i < n; ++i)
    y[i] = (i + 1) * p[0];
}
__attribute__((noinline)) static void numbers_in_place(float *y, float x,
                                                       int n) {
  for (int i = 0; i < n; ++i) {
    float *q = ((float **)y)[i];
    y[2 * i] = 2 * q[0] * x;
  }
}

static float array_sweeps(float *p) {
  int n = Count;
  float *buf[8];
  fill_pointers(buf, p, n);
  fill_numbers((float *)buf, p, 2 * n);
  float s = 0;
  for (int i = 0; i < 2 * n; ++i)
    s += ((float *)buf)[i] * ((float *)buf)[i];
  fill_pointers(buf, p, n);
  numbers_in_place((float *)buf, p[0], n);
  for (int i = 0; i < n; ++i)
    s += ((float *)buf)[2 * i] * ((float *)buf)[2 * i];
  return s;
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

static void check_scalar(float (*f)(float *), float *p, float *dp,
                         double exact) {
  float t[1] = {1};
  float fwd = __enzyme_fwddiff((void *)f, enzyme_dup, p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  CHECK_CLOSE(central(f, p), exact, 1e-2);
  for (int run = 0; run < 3; ++run) {
    dp[0] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
    CHECK_CLOSE(dp[0], exact, 1e-5);
    CHECK_CLOSE(dp[0], fwd, 1e-5);
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
  check_scalar(heap_object, p, dp, 3 * x * x + 8 * x * x * x);
  check_scalar(local_buffer, p, dp, 18 * x);
  check_scalar(array_sweeps, p, dp, 408 * x + 64 * x * x * x);

  // The pool: its shadow on the page, so that the links' shadows are
  // large floats.
  struct pool pl, fpl, tpl, cp;
  struct pool *dpl = (struct pool *)(page + 256);
  double exact = 0;
  for (int k = 0; k < Taken; ++k)
    exact += 3 * (k + 1) * (3 * x * x + 2 * k * x);
  memset(&tpl, 0, sizeof tpl);
  float t[1] = {1};
  float fwd = __enzyme_fwddiff((void *)pool_rounds, enzyme_dup, &fpl, &tpl,
                               enzyme_dup, p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  {
    float h = 1e-2f, q[1] = {p[0] + h};
    double up = pool_rounds(&cp, q);
    q[0] = p[0] - h;
    double down = pool_rounds(&cp, q);
    CHECK_CLOSE((up - down) / (2 * h), exact, 1e-2);
  }
  memset(dpl, 0, sizeof *dpl);
  for (int run = 0; run < 3; ++run) {
    float dq[1] = {0};
    __enzyme_autodiff((void *)pool_rounds, enzyme_dup, &pl, dpl, enzyme_dup,
                      p, dq);
    CHECK_CLOSE(dq[0], exact, 1e-5);
    CHECK_CLOSE(dq[0], fwd, 1e-5);
    CHECK_TRUE(mirrors(&pl, dpl));
  }

  // The holder: its shadow ends holding dp + 1.
  struct holder hold = {p}, dhold = {dp};
  for (int run = 0; run < 2; ++run) {
    dp[0] = dp[1] = 0;
    hold.cur = p;
    dhold.cur = dp;
    __enzyme_autodiff((void *)advance, enzyme_dup, &hold, &dhold, enzyme_dup,
                      p, dp);
    CHECK_TRUE(dhold.cur == dp + 1);
    CHECK_CLOSE(dp[0], p[1], 1e-6);
    CHECK_CLOSE(dp[1], p[0], 1e-6);
  }
  return check_finish();
}
