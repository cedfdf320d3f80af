// KNOWN BUG (docs/status.md, "Known bugs"): not registered in
// CMakeLists.txt until fixed; it fails at -O0..-O3.
//
// A pool allocator in the style of Box2D's b2BlockAllocator: a chunk from
// malloc is carved into blocks, each holding in its first 8 bytes a pointer
// to the next free block; a block handed out then holds an object whose
// first field is a float. The augmented sweep stores the shadow of each
// `next` pointer into the shadow of the chunk, and nothing clears those
// bytes when the block becomes a float: the reverse of the float's store
// adds the pointer's low 32 bits, read as a float, to the derivative (a
// number that depends on the address: 1e8..1e37 in about half of the
// runs, tiny in the others).
// Reverse mode against forward mode, central differences and the exact
// gradient.
#include "check.h"

#include <cstdlib>
#include <new>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

namespace {

constexpr int BlockSize = 32, Blocks = 16, Bodies = 8, Steps = 3;

struct Block {
  Block *next;
};

struct Pool {
  Block *free = nullptr;
  void *chunk = nullptr;
  ~Pool() { std::free(chunk); }
};

__attribute__((noinline)) void *allocate(Pool *pool) {
  if (!pool->free) {
    char *chunk = static_cast<char *>(std::malloc(BlockSize * Blocks));
    for (int i = 0; i + 1 < Blocks; ++i)
      reinterpret_cast<Block *>(chunk + BlockSize * i)->next =
          reinterpret_cast<Block *>(chunk + BlockSize * (i + 1));
    reinterpret_cast<Block *>(chunk + BlockSize * (Blocks - 1))->next =
        nullptr;
    pool->chunk = chunk;
    pool->free = reinterpret_cast<Block *>(chunk);
  }
  Block *b = pool->free;
  pool->free = b->next;
  return b;
}

struct Body {
  float x, y, v;
};

// The sum over the bodies of x + y after Steps steps, body k starting at
// x = p[0] / 4, y = 1, v = (k + 1) p[0]: x_n = x_0 + n v / 2,
// y_n = 1 + n x_0 + v n (n + 1) / 4. (The first store of x is of a value
// with a derivative: a store of a constant clears the shadow.)
float simulate(const float *p) {
  Pool pool;
  Body *bodies[Bodies];
  for (int k = 0; k < Bodies; ++k) {
    Body *b = new (allocate(&pool)) Body;
    b->x = 0.25f * p[0];
    b->y = 1;
    b->v = (k + 1) * p[0];
    bodies[k] = b;
  }
  float sum = 0;
  for (int k = 0; k < Bodies; ++k) {
    Body *b = bodies[k];
    for (int i = 0; i < Steps; ++i) {
      b->x += 0.5f * b->v;
      b->y += b->x;
    }
    sum += b->x + b->y;
  }
  return sum;
}

} // namespace

int main() {
  float p[1] = {3.0f}, dp[1] = {0.0f}, t[1] = {1.0f};
  __enzyme_autodiff((void *)simulate, enzyme_dup, p, dp);
  float fwd = __enzyme_fwddiff((void *)simulate, enzyme_dup, p, t);
  double n = Steps, exact = 0;
  for (int k = 0; k < Bodies; ++k)
    exact += 0.25 * (1 + n) + (k + 1) * (n / 2 + n * (n + 1) / 4);
  float h = 1e-2f, keep = p[0];
  p[0] = keep + h;
  double up = simulate(p);
  p[0] = keep - h;
  double down = simulate(p);
  p[0] = keep;
  CHECK_CLOSE(fwd, exact, 1e-5);
  CHECK_CLOSE((up - down) / (2 * h), exact, 1e-3);
  CHECK_CLOSE(dp[0], exact, 1e-5);
  CHECK_CLOSE(dp[0], fwd, 1e-5);
  return check_finish();
}
