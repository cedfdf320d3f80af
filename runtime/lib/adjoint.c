/*===- adjoint.c - Adjoints of memory copies ------------------------------===*
 *
 * Called by reverse-mode derivative code. Kept apart from special.c, which
 * needs libm: a program that copies memory must link without -lm.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_runtime.h"

#include <stdint.h>
#include <string.h>

/* 16-byte vectors (every x86-64 and AArch64 has them), loaded and stored
   unaligned through memcpy. */
typedef uint64_t adcc_u64x2 __attribute__((vector_size(16)));
typedef double adcc_f64x2 __attribute__((vector_size(16)));
typedef float adcc_f32x4 __attribute__((vector_size(16)));

/* The adjoint of a copy of n bytes of floating-point values from src to
   dst: the adjoint of each destination element goes back to its source
   element, and the destination's adjoint is cleared (the copy overwrote
   it). Called by reverse-mode derivative code for memcpy/memmove.

   Ranges apart (memcpy, and most memmoves) are walked one cache line at a
   time, and a line of the destination whose adjoints are all zero bits is
   left alone: adding +0.0 changes nothing but the sign of a -0.0, and its
   clearing would only dirty the line. Such lines are common: the shadow of
   an array that the derivative's reverse sweep has already cleared (a
   state overwritten in every step of a time loop, copied from the input
   before the loop) is then read, never written back.

   For overlapping ranges each destination adjoint must be moved before
   anything is added onto its memory as a source: walking from the end
   when the destination is below the source, from the start otherwise,
   guarantees that. */
#define ADCC_ADJOINT_COPY(NAME, T, VT)                                         \
  static void NAME##_apart(T *restrict dst, T *restrict src, uint64_t n) {     \
    enum { LANES = 16 / sizeof(T), LINE = 64 / sizeof(T) };                    \
    const VT zero = {0};                                                       \
    uint64_t i = 0;                                                            \
    for (; i + LINE <= n; i += LINE) {                                         \
      VT d[4];                                                                 \
      memcpy(d, dst + i, sizeof d);                                            \
      adcc_u64x2 any = (adcc_u64x2)d[0] | (adcc_u64x2)d[1] |                   \
                       (adcc_u64x2)d[2] | (adcc_u64x2)d[3];                    \
      if (!(any[0] | any[1]))                                                  \
        continue;                                                              \
      for (unsigned k = 0; k < 4; ++k) {                                       \
        VT s;                                                                  \
        memcpy(&s, src + i + k * LANES, sizeof s);                             \
        s += d[k];                                                             \
        memcpy(src + i + k * LANES, &s, sizeof s);                             \
        memcpy(dst + i + k * LANES, &zero, sizeof zero);                       \
      }                                                                        \
    }                                                                          \
    for (; i < n; ++i) {                                                       \
      src[i] += dst[i];                                                        \
      dst[i] = 0;                                                              \
    }                                                                          \
  }                                                                            \
  void NAME(T *dst, T *src, uint64_t bytes) {                                  \
    uint64_t n = bytes / sizeof(T);                                            \
    if (dst + n <= src || src + n <= dst) {                                    \
      NAME##_apart(dst, src, n);                                               \
      return;                                                                  \
    }                                                                          \
    if (dst < src) {                                                           \
      for (uint64_t i = n; i-- > 0;) {                                         \
        T d = dst[i];                                                          \
        dst[i] = 0;                                                            \
        src[i] += d;                                                           \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    for (uint64_t i = 0; i < n; ++i) {                                         \
      T d = dst[i];                                                            \
      dst[i] = 0;                                                              \
      src[i] += d;                                                             \
    }                                                                          \
  }

ADCC_ADJOINT_COPY(adcc_adjoint_copy_f64, double, adcc_f64x2)
ADCC_ADJOINT_COPY(adcc_adjoint_copy_f32, float, adcc_f32x4)

/* One floating-point field of a copy of `count` structs of `stride` bytes
   (an array of structs whose elements mix floating-point and other
   fields): dst and src point to the field in the first element. Walks in
   the order that is right for overlapping ranges, as above. A null src
   only clears the destination's adjoints (forward mode over a reverse
   sweep, where the source carries no tangent). */
#define ADCC_ADJOINT_COPY_STRIDED(NAME, T)                                     \
  void NAME(T *dst, T *src, uint64_t count, uint64_t stride) {                 \
    char *d = (char *)dst, *s = (char *)src;                                   \
    int from_end = src && dst < src;                                           \
    for (uint64_t k = 0; k < count; ++k) {                                     \
      uint64_t i = from_end ? count - 1 - k : k;                               \
      T *to = (T *)(d + i * stride);                                           \
      T v = *to;                                                               \
      *to = 0;                                                                 \
      if (s)                                                                   \
        *(T *)(s + i * stride) += v;                                           \
    }                                                                          \
  }

ADCC_ADJOINT_COPY_STRIDED(adcc_adjoint_copy_strided_f64, double)
ADCC_ADJOINT_COPY_STRIDED(adcc_adjoint_copy_strided_f32, float)

void adcc_shadow_copy_strided_ptr(void **dst, void **src, uint64_t count,
                                  uint64_t stride) {
  char *d = (char *)dst, *s = (char *)src;
  int from_end = src && dst > src;
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t i = from_end ? count - 1 - k : k;
    *(void **)(d + i * stride) = s ? *(void **)(s + i * stride) : NULL;
  }
}
