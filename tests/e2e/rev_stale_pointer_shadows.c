/* Issue 33's class beyond pools: bytes that hold a pointer with a shadow
 * and then a float with a derivative. The augmented sweep stores the
 * pointer's shadow in the shadow of those bytes; a store (or a copy) of the
 * float puts back what they held before (docs/reverse-mode.md, "Shadows of
 * memory reused"): zero in the derivative's own memory, and the seed a
 * caller put in its output memory, which the function used for a pointer
 * first. The pointers stored are `p`, whose shadow main places at an
 * address whose low 32 bits are a large float (2^23 and up), so that a
 * stale shadow read as an adjoint shows in every run.
 * Reverse mode against forward mode, central differences and exact values.
 */
#define _GNU_SOURCE
#include "check.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff_out(void *, ...) __asm__("__enzyme_autodiff");

/* Each helper out of line, as a pool's or a buffer's are in real code. */
__attribute__((noinline)) void put_pointer(char *buf, const float *q) {
  *(const float **)buf = q;
}
__attribute__((noinline)) void put_float(char *buf, float v) {
  *(float *)buf = v;
}
__attribute__((noinline)) float get_float(const char *buf) {
  return *(const float *)buf;
}
__attribute__((noinline)) void copy_bytes(char *to, const void *from,
                                          size_t n) {
  memcpy(to, from, n);
}

/* A local buffer: a pointer, then a float. 2 p0^2. */
float local_buffer(const float *p) {
  _Alignas(16) char buf[16];
  put_pointer(buf, p);
  put_pointer(buf + 8, p);
  put_float(buf, p[0] * p[0]);
  return 2 * get_float(buf);
}

/* The same bytes, a pointer then two floats copied in by memcpy.
   p0^2 + 3 p0. */
float copied_floats(const float *p) {
  _Alignas(16) char buf[16];
  float two[2] = {p[0] * p[0], 3 * p[0]};
  put_pointer(buf, p);
  copy_bytes(buf, two, sizeof two);
  float got[2];
  memcpy(got, buf, sizeof got);
  return got[0] + got[1];
}

/* A free list in a block of the heap: each free slot links the next and
   names its owner; slots handed out hold three floats over both. */
struct slot {
  struct slot *next;
  const float *owner;
};
struct particle {
  float pos, vel, mass;
};
enum { slot_bytes = 16, slots = 6 };

__attribute__((noinline)) struct slot *carve(char *block, const float *owner) {
  for (int i = 0; i < slots; ++i) {
    struct slot *s = (struct slot *)(block + slot_bytes * i);
    s->next = i + 1 < slots ? (struct slot *)(block + slot_bytes * (i + 1))
                            : NULL;
    s->owner = owner;
  }
  return (struct slot *)block;
}

__attribute__((noinline)) void *take(struct slot **free_list) {
  struct slot *s = *free_list;
  *free_list = s->next;
  return s;
}

/* Particles k = 0..slots-1: pos = p0, vel = (k + 1) p1, mass = p0 p1;
   one step pos += vel, then the sum of mass * pos.
   sum_k p0 p1 (p0 + (k + 1) p1). */
float free_list(const float *p) {
  char *block = malloc(slot_bytes * slots);
  struct slot *free_slots = carve(block, p);
  float sum = 0;
  for (int k = 0; k < slots; ++k) {
    struct particle *q = take(&free_slots);
    q->pos = p[0];
    q->vel = (k + 1) * p[1];
    q->mass = p[0] * p[1];
    q->pos += q->vel;
    sum += q->mass * q->pos;
  }
  free(block);
  return sum;
}

/* Output memory the function uses for a pointer first, then for its
   result: the seed the caller put there stays the result's.
   out[0] = p0 p1. */
void scratch_output(const float *p, float *out) {
  put_pointer((char *)out, p);
  out[0] = p[0] * p[1];
}

/* A page at an address whose low 32 bits, read as a float, are 2^23 or
   more. NULL where none of them is free. */
static float *large_bits_page(void) {
  for (uintptr_t a = 0x4b000000; a <= 0x4e000000; a += 0x01000000) {
    void *got = mmap((void *)a, 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == (void *)a)
      return got;
    if (got != MAP_FAILED)
      munmap(got, 4096);
  }
  return NULL;
}

typedef float (*scalar_fn)(const float *);

/* Reverse (several calls) against forward mode, central differences and
   the exact gradient. */
static void check_gradient(scalar_fn f, float *p, float *dp, int n,
                           const double *exact) {
  for (int i = 0; i < n; ++i) {
    float t[2] = {0, 0};
    t[i] = 1;
    float fwd = __enzyme_fwddiff((void *)f, enzyme_dup, p, t);
    CHECK_CLOSE(fwd, exact[i], 1e-5);
    float h = 1e-2f, keep = p[i];
    p[i] = keep + h;
    double up = f(p);
    p[i] = keep - h;
    double down = f(p);
    p[i] = keep;
    CHECK_CLOSE((up - down) / (2 * h), exact[i], 2e-3);
  }
  for (int run = 0; run < 3; ++run) {
    dp[0] = dp[1] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(dp[i], exact[i], 1e-5);
  }
}

int main(void) {
  float *dp = large_bits_page();
  if (!dp) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[2] = {1.5f, 0.75f};
  double x = p[0], y = p[1];

  double local[1] = {4 * x};
  check_gradient(local_buffer, p, dp, 1, local);
  double copied[1] = {2 * x + 3};
  check_gradient(copied_floats, p, dp, 1, copied);
  double list[2] = {0, 0};
  for (int k = 0; k < slots; ++k) {
    list[0] += 2 * x * y + (k + 1) * y * y;
    list[1] += x * x + 2 * (k + 1) * x * y;
  }
  check_gradient(free_list, p, dp, 2, list);

  /* The seed 1 in the shadow of out[0], over two calls. */
  for (int run = 0; run < 2; ++run) {
    float out[2] = {0, 0}, dout[2] = {1, 0};
    dp[0] = dp[1] = 0;
    __enzyme_autodiff_out((void *)scratch_output, enzyme_dup, p, dp,
                          enzyme_dup, out, dout);
    CHECK_CLOSE(out[0], x * y, 1e-6);
    CHECK_CLOSE(dp[0], y, 1e-6);
    CHECK_CLOSE(dp[1], x, 1e-6);
  }
  return check_finish();
}
