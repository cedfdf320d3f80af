// Issue 33 in C++: an object constructed by placement `new` on a block that
// a pool hands out, whose blocks are linked through `void *` in their first
// bytes (main links the pool and its shadow pool alike, on a page whose
// addresses read as large floats). The request never reads the block's
// link; at -O0 the constructor is a callee that stores the float through
// its `this`, a member of a number's declared type, so its adjoint started
// from the link's shadow (33555564 for 12 at -O0 before; the constructor
// inlined at -O1 and up was right): the caller read the block as a
// `void *`, and tells the constructor's derivative so (DerivativeKey's
// LinkedArgs, docs/reverse-mode.md, "Shadows of memory reused").
// Reverse mode against forward mode, central differences and the exact
// derivative, on the first call and over repeated ones.
#include "check.h"
#include "large_bits_page.h"

#include <cstdio>
#include <cstring>
#include <new>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

namespace {

struct Arena {
  void *free; // a free list linked through the blocks' first bytes
  alignas(8) unsigned char blocks[3 * 8];

  void link() {
    std::memset(this, 0, sizeof *this);
    for (int i = 0; i < 3; ++i)
      *reinterpret_cast<void **>(blocks + 8 * i) = blocks + 8 * ((i + 1) % 3);
    free = blocks;
  }
  void *peek() const { return free; }
};

struct Obj {
  float v;
  explicit Obj(float x) : v(x) {}
};

struct Pair {
  float a, b;
  Pair(float x, float y) : a(x), b(y) {}
};

// r = 3 x^2, dr/dx = 6x.
float placed(Arena *a, float *p) {
  Obj *o = new (a->peek()) Obj(p[0] * p[0]);
  return 3 * o->v;
}

// Two floats over the link's bytes: r = 2 x^2 + x, dr/dx = 4x + 1.
float placed_pair(Arena *a, float *p) {
  Pair *o = new (a->peek()) Pair(p[0] * p[0], p[0]);
  return 2 * o->a + o->b;
}

using ArenaFn = float (*)(Arena *, float *);

float central(ArenaFn f, float *p) {
  Arena a;
  float keep = p[0], h = 1e-2f;
  a.link();
  p[0] = keep + h;
  double up = f(&a, p);
  a.link();
  p[0] = keep - h;
  double down = f(&a, p);
  p[0] = keep;
  return static_cast<float>((up - down) / (2 * h));
}

void check(ArenaFn f, float *p, Arena *da, double exact) {
  Arena a, fa, ta;
  fa.link();
  ta.link();
  float t[1] = {1};
  float fwd = __enzyme_fwddiff(reinterpret_cast<void *>(f), enzyme_dup, &fa,
                               &ta, enzyme_dup, p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  CHECK_CLOSE(central(f, p), exact, 1e-2);
  for (int run = 0; run < 3; ++run) {
    // (An arena main linked afresh, then the arena the last call left.)
    if (run < 2) {
      a.link();
      da->link();
    }
    float dq[1] = {0};
    __enzyme_autodiff(reinterpret_cast<void *>(f), enzyme_dup, &a, da,
                      enzyme_dup, p, dq);
    CHECK_CLOSE(dq[0], exact, 1e-5);
    CHECK_CLOSE(dq[0], fwd, 1e-5);
  }
}

} // namespace

int main() {
  char *page = static_cast<char *>(large_bits_page());
  if (!page) {
    std::printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[1] = {2.0f};
  double x = p[0];
  Arena *da = new (page + 256) Arena;
  check(placed, p, da, 6 * x);
  check(placed_pair, p, da, 4 * x + 1);
  return check_finish();
}
