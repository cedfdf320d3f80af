/*===- adjoint.c - Adjoints of memory copies ------------------------------===*
 *
 * Called by reverse-mode derivative code. Kept apart from special.c, which
 * needs libm: a program that copies memory must link without -lm.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_runtime.h"

#include <stdint.h>

/* The adjoint of a copy of n bytes of doubles from src to dst: the adjoint
   of each destination element goes back to its source element, and the
   destination's adjoint is cleared (the copy overwrote it). Called by
   reverse-mode derivative code for memcpy/memmove. */
/* For overlapping ranges (memmove) each destination adjoint must be moved
   before anything is added onto its memory as a source: walking from the
   end when the destination is below the source, from the start otherwise,
   guarantees that. */
void adcc_adjoint_copy_f64(double *dst, double *src, uint64_t bytes) {
  uint64_t n = bytes / sizeof(double);
  if (dst < src) {
    for (uint64_t i = n; i-- > 0;) {
      double d = dst[i];
      dst[i] = 0;
      src[i] += d;
    }
    return;
  }
  for (uint64_t i = 0; i < n; ++i) {
    double d = dst[i];
    dst[i] = 0;
    src[i] += d;
  }
}

void adcc_adjoint_copy_f32(float *dst, float *src, uint64_t bytes) {
  uint64_t n = bytes / sizeof(float);
  if (dst < src) {
    for (uint64_t i = n; i-- > 0;) {
      float d = dst[i];
      dst[i] = 0;
      src[i] += d;
    }
    return;
  }
  for (uint64_t i = 0; i < n; ++i) {
    float d = dst[i];
    dst[i] = 0;
    src[i] += d;
  }
}

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
