/*===- unaligned_adds.c - Atomic adjoint adds at misaligned addresses -----===*
 *
 * In the reverse sweep of a parallel region, an adjoint that other threads
 * may add into the same place is added atomically. A float or double field
 * of a packed struct (`struct __attribute__((packed)) { float x, y, z; int
 * type; }`) may lie at an address that is not a multiple of its size, where
 * the processor has no atomic add. The generated code tests the address:
 * aligned, it adds with an atomic instruction; misaligned, it calls these,
 * which add under one of a table of spin locks chosen by the address. An
 * address is either aligned or not, so every add into one place takes the
 * same path.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdint.h>
#include <string.h>

enum { ADCC_UNALIGNED_LOCKS = 64 };

static char unaligned_locks[ADCC_UNALIGNED_LOCKS];

static char *lock_of(const void *to) {
  char *l = &unaligned_locks[((uintptr_t)to >> 3) % ADCC_UNALIGNED_LOCKS];
  while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE))
    ;
  return l;
}

void adcc_atomic_add_unaligned_f64(void *to, double v) {
  char *l = lock_of(to);
  double d;
  memcpy(&d, to, sizeof d);
  d += v;
  memcpy(to, &d, sizeof d);
  __atomic_clear(l, __ATOMIC_RELEASE);
}

void adcc_atomic_add_unaligned_f32(void *to, float v) {
  char *l = lock_of(to);
  float d;
  memcpy(&d, to, sizeof d);
  d += v;
  memcpy(to, &d, sizeof d);
  __atomic_clear(l, __ATOMIC_RELEASE);
}
