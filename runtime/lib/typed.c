/*===- typed.c - Typed push and pop helpers ------------------------------===*
 *
 * The functions generated code calls most. Each record takes one granule,
 * so the fast path is a bounds check and a bump of `top`; everything else
 * (moving between chunks, errors) is in the slow paths of tape.c.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <string.h>

_Static_assert(ADCC_TAPE_GRANULE == 8, "typed helpers use 8-byte slots");
_Static_assert(sizeof(void *) <= ADCC_TAPE_GRANULE, "pointers fit a slot");

static inline void push_slot(adcc_tape *t, const void *value, size_t size) {
  unsigned char *p = t->top;
  if (ADCC_LIKELY((size_t)(t->limit - p) >= ADCC_TAPE_GRANULE)) {
    t->top = p + ADCC_TAPE_GRANULE;
  } else {
    p = adcc_rt_push_slow(t, ADCC_TAPE_GRANULE, size);
    if (!p)
      return;
  }
  t->push_count++;
  memcpy(p, value, size);
}

/* Returns the popped slot, or NULL after a reported failure. */
static inline const unsigned char *pop_slot(adcc_tape *t, size_t size) {
  unsigned char *p = t->top;
  if (ADCC_UNLIKELY((size_t)(p - t->base) < ADCC_TAPE_GRANULE))
    return adcc_rt_pop_slow(t, ADCC_TAPE_GRANULE, size);
  /* The peak is reached just before a pop (or is the current top), so this
     one compare per pop is all the peak statistics cost. */
  if (p > t->peak_top)
    t->peak_top = p;
  p -= ADCC_TAPE_GRANULE;
  t->top = p;
  return p;
}

#define ADCC_TYPED(NAME, TYPE)                                                 \
  void adcc_tape_push_##NAME(adcc_tape *t, TYPE value) {                       \
    push_slot(t, &value, sizeof(TYPE));                                        \
  }                                                                            \
  TYPE adcc_tape_pop_##NAME(adcc_tape *t) {                                    \
    const unsigned char *p = pop_slot(t, sizeof(TYPE));                        \
    TYPE value = 0;                                                            \
    if (ADCC_LIKELY(p != NULL))                                                \
      memcpy(&value, p, sizeof(TYPE));                                         \
    return value;                                                              \
  }

ADCC_TYPED(f64, double)
ADCC_TYPED(f32, float)
ADCC_TYPED(i64, int64_t)
ADCC_TYPED(i32, int32_t)
ADCC_TYPED(i8, int8_t)
ADCC_TYPED(ptr, void *)
