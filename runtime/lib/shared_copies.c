/*===- shared_copies.c - Adjoints of copies from shared memory -----------===*
 *
 * In the reverse sweep of a parallel region, the adjoint of a copy
 * (memcpy, a struct assignment at -O0) from memory other threads may copy
 * too, `struct atom q = atoms[i % 4]`, adds the destination's adjoints into
 * the source's: other threads may add into the same places at the same
 * time, so each element is added atomically (a compare-and-swap loop, or
 * the lock of unaligned_adds.c at an address that is not a multiple of the
 * element's size: a field of a packed struct). The destination, the
 * thread's own copy, is cleared with plain stores. As adjoint.c's copies,
 * whole ranges and one field of an array of structs; and one element, for
 * a copy made of integer loads and stores (IntegerCopies.cpp).
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_runtime.h"

#include <stdint.h>
#include <string.h>

void adcc_atomic_add_unaligned_f64(void *to, double v);
void adcc_atomic_add_unaligned_f32(void *to, float v);

/* One element (the reverse of an integer load of floating-point bits in a
   region: IntegerCopies.cpp). */
void adcc_shared_add_f64(double *to, double v);
void adcc_shared_add_f32(float *to, float v);

static void add_f64(double *to, double v) {
  if (v == 0)
    return;
  if ((uintptr_t)to % sizeof(double)) {
    adcc_atomic_add_unaligned_f64(to, v);
    return;
  }
  uint64_t *bits = (uint64_t *)to;
  uint64_t old = __atomic_load_n(bits, __ATOMIC_RELAXED), sum;
  do {
    double d;
    memcpy(&d, &old, sizeof d);
    d += v;
    memcpy(&sum, &d, sizeof d);
  } while (!__atomic_compare_exchange_n(bits, &old, sum, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
}

static void add_f32(float *to, float v) {
  if (v == 0)
    return;
  if ((uintptr_t)to % sizeof(float)) {
    adcc_atomic_add_unaligned_f32(to, v);
    return;
  }
  uint32_t *bits = (uint32_t *)to;
  uint32_t old = __atomic_load_n(bits, __ATOMIC_RELAXED), sum;
  do {
    float f;
    memcpy(&f, &old, sizeof f);
    f += v;
    memcpy(&sum, &f, sizeof f);
  } while (!__atomic_compare_exchange_n(bits, &old, sum, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
}

void adcc_shared_add_f64(double *to, double v) { add_f64(to, v); }
void adcc_shared_add_f32(float *to, float v) { add_f32(to, v); }

/* (Destination and source do not overlap: the destination is the
   thread's, the source shared. Elements are read and written through
   memcpy: a packed struct's may be misaligned.) */
#define ADCC_SHARED_COPY(NAME, T, ADD)                                         \
  void NAME(T *dst, T *src, uint64_t bytes) {                                  \
    uint64_t n = bytes / sizeof(T);                                            \
    for (uint64_t i = 0; i < n; ++i) {                                         \
      T d, zero = 0;                                                           \
      memcpy(&d, dst + i, sizeof d);                                           \
      memcpy(dst + i, &zero, sizeof zero);                                     \
      if (src)                                                                 \
        ADD(src + i, d);                                                       \
    }                                                                          \
  }

ADCC_SHARED_COPY(adcc_adjoint_copy_shared_f64, double, add_f64)
ADCC_SHARED_COPY(adcc_adjoint_copy_shared_f32, float, add_f32)

#define ADCC_SHARED_COPY_STRIDED(NAME, T, ADD)                                 \
  void NAME(T *dst, T *src, uint64_t count, uint64_t stride) {                 \
    char *d = (char *)dst, *s = (char *)src;                                   \
    for (uint64_t i = 0; i < count; ++i) {                                     \
      T v, zero = 0;                                                           \
      memcpy(&v, d + i * stride, sizeof v);                                    \
      memcpy(d + i * stride, &zero, sizeof zero);                              \
      if (s)                                                                   \
        ADD((T *)(s + i * stride), v);                                         \
    }                                                                          \
  }

ADCC_SHARED_COPY_STRIDED(adcc_adjoint_copy_strided_shared_f64, double, add_f64)
ADCC_SHARED_COPY_STRIDED(adcc_adjoint_copy_strided_shared_f32, float, add_f32)
