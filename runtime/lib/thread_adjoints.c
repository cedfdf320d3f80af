/*===- thread_adjoints.c - Per-thread adjoints of a parallel region -------===*
 *
 * In the reverse sweep of an OpenMP region, memory that every iteration
 * reads at the same places (a model's parameters) would get an atomic add
 * per read from every thread. Instead each thread adds those adjoints into
 * a private copy of the shadow, a window [lo, lo + count * element) of it
 * that grows as addresses arrive, and adds the copy into the shadow once,
 * when it leaves the reverse region (adcc_thread_adjoints_add_up).
 *
 * The generated code adds into the copy itself when an address is inside
 * the window (its offset from lo, rotated right by log2(element), is below
 * count: a whole number of elements, inside); otherwise it calls
 * adcc_thread_adjoints_add, which grows the window and adds there. A
 * window would pass ADCC_THREAD_ADJOINTS_MAX bytes, or an address that is
 * not a whole number of elements from lo: that adjoint is added atomically
 * into the shadow instead, which is always right (the region never reads
 * these shadows; docs/parallel.md).
 *
 * The copy has ADCC_THREAD_ADJOINTS_PAD bytes more than the window, so an
 * access of up to that many bytes that starts inside stays in the copy;
 * the sum adds every element of the copy that is not zero.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  ADCC_THREAD_ADJOINTS_PAD = 64,
  ADCC_THREAD_ADJOINTS_MAX = 1 << 20,
};

/* *to += *from for one element of type T, by compare-and-swap on its
   bits (of the unsigned type U, as wide). */
#define ADCC_ATOMIC_ADD(name, T, U)                                           \
  static void name(char *to, const char *from) {                              \
    T v;                                                                       \
    memcpy(&v, from, sizeof v);                                                \
    U old = __atomic_load_n((U *)(void *)to, __ATOMIC_RELAXED);                \
    for (;;) {                                                                 \
      T d;                                                                     \
      memcpy(&d, &old, sizeof d);                                              \
      d += v;                                                                  \
      U now;                                                                   \
      memcpy(&now, &d, sizeof now);                                            \
      if (__atomic_compare_exchange_n((U *)(void *)to, &old, now, 1,           \
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))     \
        return;                                                                \
    }                                                                          \
  }
ADCC_ATOMIC_ADD(atomic_add_f64, double, uint64_t)
ADCC_ATOMIC_ADD(atomic_add_f32, float, uint32_t)

/* Adds the elements of `from` (bytes of them) into `to`, atomically or
   not. */
static void add_elements(char *to, const char *from, uint64_t bytes,
                         uint64_t element, int atomic) {
  for (uint64_t k = 0; k + element <= bytes; k += element) {
    if (atomic) {
      if (element == 8)
        atomic_add_f64(to + k, from + k);
      else
        atomic_add_f32(to + k, from + k);
      continue;
    }
    if (element == 8) {
      double a, b;
      memcpy(&a, to + k, 8);
      memcpy(&b, from + k, 8);
      a += b;
      memcpy(to + k, &a, 8);
    } else {
      float a, b;
      memcpy(&a, to + k, 4);
      memcpy(&b, from + k, 4);
      a += b;
      memcpy(to + k, &a, 4);
    }
  }
}

/* Makes the window cover [a, a + bytes): returns 0 where it cannot. */
static int cover(adcc_thread_adjoints *w, uintptr_t a, uint64_t bytes) {
  uint64_t e = w->element;
  if ((e != 4 && e != 8) || a % e || bytes > ADCC_THREAD_ADJOINTS_PAD)
    return 0;
  uintptr_t lo = (uintptr_t)w->lo, span = w->count * e;
  uintptr_t new_lo, new_hi;
  if (!w->copy) {
    new_lo = a & ~(uintptr_t)63;
    new_hi = a + bytes;
  } else {
    if ((a - lo) % e)
      return 0;
    new_lo = a < lo ? a & ~(uintptr_t)63 : lo;
    new_hi = a + bytes > lo + span ? a + bytes : lo + span;
    /* (Grows by at least the window's size, so that n addresses take
       log(n) copies.) */
    if (new_lo < lo)
      new_lo = (lo > span && lo - span < new_lo ? lo - span : new_lo) &
               ~(uintptr_t)63;
    if (new_hi > lo + span && new_hi < lo + 2 * span)
      new_hi = lo + 2 * span;
  }
  new_hi = (new_hi + 63) & ~(uintptr_t)63;
  if (new_hi - new_lo > ADCC_THREAD_ADJOINTS_MAX) {
    if (!w->copy)
      return 0;
    /* (Without the slack.) */
    new_lo = (a < lo ? a : lo) & ~(uintptr_t)63;
    new_hi = ((a + bytes > lo + span ? a + bytes : lo + span) + 63) &
             ~(uintptr_t)63;
    if (new_hi - new_lo > ADCC_THREAD_ADJOINTS_MAX)
      return 0;
  }
  size_t size = new_hi - new_lo + ADCC_THREAD_ADJOINTS_PAD;
  char *copy = aligned_alloc(64, size);
  if (!copy)
    return 0;
  memset(copy, 0, size);
  if (w->copy) {
    memcpy(copy + (lo - new_lo), w->copy, span + ADCC_THREAD_ADJOINTS_PAD);
    free(w->copy);
  }
  w->lo = (char *)new_lo;
  w->copy = copy;
  w->count = (new_hi - new_lo) / e;
  return 1;
}

void adcc_thread_adjoints_add(adcc_thread_adjoints *w, char *to,
                              const void *value, uint64_t bytes) {
  if (!cover(w, (uintptr_t)to, bytes)) {
    add_elements(to, value, bytes, w->element == 4 ? 4 : 8, 1);
    return;
  }
  add_elements(w->copy + (to - w->lo), value, bytes, w->element, 0);
}

void adcc_thread_adjoints_add_up(adcc_thread_adjoints *w) {
  if (!w->copy)
    return;
  uint64_t e = w->element,
           bytes = w->count * e + ADCC_THREAD_ADJOINTS_PAD;
  static const char zero[8];
  for (uint64_t k = 0; k < bytes; k += e)
    if (memcmp(w->copy + k, zero, e))
      add_elements(w->lo + k, w->copy + k, e, e, 1);
  free(w->copy);
  w->copy = NULL;
  w->lo = NULL;
  w->count = 0;
}

/* Forward mode over the reverse sweep (a Hessian-vector product): the
   tangents of a window's copy are a copy of their own, `dw`, laid out as
   `w`'s (the same count, the copy at the same offsets) and added into the
   tangent of the shadow (at dw->lo, the tangent of lo). The generated code
   reaches dw->copy as it reaches w->copy; the runtime keeps the two
   windows alike: each call below runs after its primal call. dw->element
   0: the adjoint's memory has no tangent (it is dropped); a null dvalue:
   the adjoint is constant (its tangent 0). */

/* Whether the primal add put `to` into w's copy: inside the window, a
   whole number of elements from lo. */
static int in_window(const adcc_thread_adjoints *w, uintptr_t a) {
  uintptr_t lo = (uintptr_t)w->lo;
  return w->copy && a >= lo && a - lo < w->count * w->element &&
         (a - lo) % w->element == 0;
}

void adcc_thread_adjoints_add_tangent(const adcc_thread_adjoints *w,
                                      adcc_thread_adjoints *dw, char *to,
                                      char *dto, const void *dvalue,
                                      uint64_t bytes) {
  uint64_t e = w->element == 4 ? 4 : 8;
  if (!in_window(w, (uintptr_t)to)) {
    if (dto && dvalue)
      add_elements(dto, dvalue, bytes, e, 1);
    return;
  }
  /* (The tangent memory of one object lies at one distance from it.) */
  intptr_t delta = dto ? (intptr_t)((uintptr_t)dto - (uintptr_t)to) : 0;
  char *dlo = dto ? (char *)((uintptr_t)w->lo + delta) : NULL;
  if (!dw->copy || dw->count != w->count || dw->lo != dlo) {
    size_t size = w->count * e + ADCC_THREAD_ADJOINTS_PAD;
    char *copy = aligned_alloc(64, size);
    if (!copy) {
      adcc_rt_report("out of memory for the tangents of per-thread adjoints");
      return;
    }
    memset(copy, 0, size);
    if (dw->copy) {
      /* (The window only grows: the old one lies inside the new.) */
      uintptr_t old_lo = (uintptr_t)dw->lo - delta;
      memcpy(copy + (old_lo - (uintptr_t)w->lo), dw->copy,
             dw->count * e + ADCC_THREAD_ADJOINTS_PAD);
      free(dw->copy);
    }
    dw->copy = copy;
    dw->count = w->count;
    dw->lo = dlo;
  }
  dw->element = dto ? e : 0;
  if (dvalue)
    add_elements(dw->copy + (to - w->lo), dvalue, bytes, e, 0);
}

void adcc_thread_adjoints_add_up_tangent(adcc_thread_adjoints *dw) {
  if (!dw->copy)
    return;
  uint64_t e = dw->element;
  if (e == 4 || e == 8) {
    uint64_t bytes = dw->count * e + ADCC_THREAD_ADJOINTS_PAD;
    static const char zero[8];
    for (uint64_t k = 0; k < bytes; k += e)
      if (memcmp(dw->copy + k, zero, e))
        add_elements(dw->lo + k, dw->copy + k, e, e, 1);
  }
  free(dw->copy);
  dw->copy = NULL;
  dw->lo = NULL;
  dw->count = 0;
}
