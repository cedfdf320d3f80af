/*===- shadow_records.c - Shadows of tape records ------------------------===*
 *
 * Reverse mode over a reverse sweep (second derivatives by nesting
 * gradients): the sweep being differentiated stores values into tape records
 * and reads them back; the outer derivative gives each record a zeroed
 * shadow block, where the adjoints of those values meet. The block outlives
 * the record (the outer reverse sweep reaches the push long after the inner
 * sweep popped the record and reused its bytes), so it is heap memory,
 * freed with free() by the outer reverse sweep. Its address is pushed on
 * the record's own tape right after the record, so the pop of the record
 * finds it first (the tape is LIFO) with no bookkeeping of its own.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdlib.h>
#include <string.h>

void *adcc_tape_push_shadow(adcc_tape *tape, size_t bytes, size_t align) {
  if (align < sizeof(void *))
    align = sizeof(void *);
  if (align > ADCC_TAPE_MAX_ALIGN || (align & (align - 1))) {
    adcc_rt_report("shadow record alignment %zu is not a power of two up to "
                   "%d",
                   align, ADCC_TAPE_MAX_ALIGN);
    return NULL;
  }
  /* (aligned_alloc wants a multiple of the alignment; a zero-byte record
     still gets a block of its own.) */
  size_t size = bytes ? bytes : 1;
  if (size > SIZE_MAX - align) {
    adcc_rt_report("shadow record of %zu bytes is too large", bytes);
    return NULL;
  }
  size = (size + align - 1) / align * align;
  void *block = aligned_alloc(align, size);
  if (!block) {
    adcc_rt_report("out of memory for a shadow record of %zu bytes", bytes);
    return NULL;
  }
  memset(block, 0, size);
  /* (Freed by the reverse sweep of the request that pushes it: the pointer
     shadows it ends with are not put back there, pointer_marks.c.) */
  adcc_rt_marks_own(block, size);
  adcc_tape_push_ptr(tape, block);
  return block;
}

void *adcc_tape_pop_shadow(adcc_tape *tape) { return adcc_tape_pop_ptr(tape); }
