// Issue 33, a pool allocator in the style of Box2D's b2BlockAllocator: a
// chunk from malloc is carved into blocks, each holding in its first 8
// bytes a pointer to the next free block and in the next 8 a pointer to
// the parameters it was carved for; a block handed out then holds an
// object of floats over both. The augmented sweep stores the shadow of
// each pointer into the shadow of the chunk; the reverse of a float's
// store read those bits as the float's adjoint until the stores of floats
// put back what the bytes held before (docs/reverse-mode.md, "Shadows of
// memory reused"). The shadow of the second pointer is `dp`, which main
// places at an address whose low 32 bits are a large float (2^23 and up),
// so that the stale bits show in every run; the first pointer's depend on
// the address (1e8..1e37 in about half of the runs).
// Reverse mode against forward mode, central differences and the exact
// gradient, over repeated calls.
#include "check.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

namespace {

constexpr int BlockSize = 32, Blocks = 16, Bodies = 8, Steps = 3;

struct Block {
  Block *next;
  const float *origin;
};

struct Pool {
  Block *free = nullptr;
  void *chunk = nullptr;
  ~Pool() { std::free(chunk); }
};

__attribute__((noinline)) void *allocate(Pool *pool, const float *origin) {
  if (!pool->free) {
    char *chunk = static_cast<char *>(std::malloc(BlockSize * Blocks));
    for (int i = 0; i < Blocks; ++i) {
      Block *b = reinterpret_cast<Block *>(chunk + BlockSize * i);
      b->next = i + 1 < Blocks
                    ? reinterpret_cast<Block *>(chunk + BlockSize * (i + 1))
                    : nullptr;
      b->origin = origin;
    }
    pool->chunk = chunk;
    pool->free = reinterpret_cast<Block *>(chunk);
  }
  Block *b = pool->free;
  pool->free = b->next;
  return b;
}

struct Body {
  float x, y, v, w;
};

// The sum over the bodies of x + y + w after Steps steps, body k starting
// at x = p[0] / 4, y = 1, v = (k + 1) p[0], w = p[0] / 2 (w lies over the
// block's `origin`): x_n = x_0 + n v / 2, y_n = 1 + n x_0 + v n (n + 1) / 4.
// (The first store of x is of a value with a derivative: a store of a
// constant clears the shadow in its reverse.)
float simulate(const float *p) {
  Pool pool;
  Body *bodies[Bodies];
  for (int k = 0; k < Bodies; ++k) {
    Body *b = new (allocate(&pool, p)) Body;
    b->x = 0.25f * p[0];
    b->y = 1;
    b->v = (k + 1) * p[0];
    b->w = 0.5f * p[0];
    bodies[k] = b;
  }
  float sum = 0;
  for (int k = 0; k < Bodies; ++k) {
    Body *b = bodies[k];
    for (int i = 0; i < Steps; ++i) {
      b->x += 0.5f * b->v;
      b->y += b->x;
    }
    sum += b->x + b->y + b->w;
  }
  return sum;
}

// A page at an address whose low 32 bits, read as a float, are 2^23 or
// more: a shadow pointer to it, read as an adjoint, is an error no
// tolerance hides. Null where none of them is free.
float *largeBitsPage() {
  for (std::uintptr_t A = 0x4b000000; A <= 0x4e000000; A += 0x01000000) {
    void *P = mmap(reinterpret_cast<void *>(A), 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (P == reinterpret_cast<void *>(A))
      return static_cast<float *>(P);
    if (P != MAP_FAILED)
      munmap(P, 4096);
  }
  return nullptr;
}

} // namespace

int main() {
  float *dp = largeBitsPage();
  if (!dp) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[1] = {3.0f}, t[1] = {1.0f};
  double n = Steps, exact = 0;
  for (int k = 0; k < Bodies; ++k)
    exact += 0.25 * (1 + n) + (k + 1) * (n / 2 + n * (n + 1) / 4) + 0.5;
  float fwd = __enzyme_fwddiff((void *)simulate, enzyme_dup, p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  float h = 1e-2f, keep = p[0];
  p[0] = keep + h;
  double up = simulate(p);
  p[0] = keep - h;
  double down = simulate(p);
  p[0] = keep;
  CHECK_CLOSE((up - down) / (2 * h), exact, 1e-3);
  // (Again and again: each call's chunk is a new block.)
  for (int Run = 0; Run < 4; ++Run) {
    dp[0] = 0;
    __enzyme_autodiff((void *)simulate, enzyme_dup, p, dp);
    CHECK_CLOSE(dp[0], exact, 1e-5);
    CHECK_CLOSE(dp[0], fwd, 1e-5);
  }
  return check_finish();
}
