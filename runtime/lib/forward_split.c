/*===- forward_split.c - The records of split forward mode ---------------===*
 *
 * __enzyme_augmentfwd of a function whose tangents __enzyme_fwdsplit
 * computes records, in the order the primal makes them, the values the
 * tangent sweep reads back: a growable buffer on the heap, written at its
 * end and read from its start (first in, first out), tagged with the
 * function and activities it was recorded for. The handle the caller keeps
 * is the buffer's address; the tangent sweep frees it unless the request
 * says enzyme_nofree (then it may be read again).
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ADCC_FWDSPLIT_MAGIC 0x6164636366777370ULL /* "adccfwsp" */
/* Records are 8-byte aligned: the generated code reads them unaligned,
   but neighbours stay apart. */
#define ADCC_FWDSPLIT_ALIGN 8

struct adcc_fwdsplit_records {
  uint64_t magic;
  const char *tag;
  unsigned char *data;
  size_t size, capacity, cursor;
};
typedef struct adcc_fwdsplit_records records;

/* Split reverse mode's handles have the top bit set (error.c). */
#define ADCC_REVERSE_HANDLE_TAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

static size_t rounded(size_t bytes) {
  return (bytes + ADCC_FWDSPLIT_ALIGN - 1) & ~(size_t)(ADCC_FWDSPLIT_ALIGN - 1);
}

void *adcc_fwdsplit_new(const char *tag) {
  records *r = (records *)calloc(1, sizeof(records));
  if (!r) {
    adcc_rt_report("out of memory for the records of __enzyme_augmentfwd");
    return NULL;
  }
  r->magic = ADCC_FWDSPLIT_MAGIC;
  r->tag = tag;
  return r;
}

void *adcc_fwdsplit_write(void *handle, uint64_t bytes) {
  records *r = (records *)handle;
  size_t need = r->size + rounded(bytes);
  if (need > r->capacity) {
    size_t capacity = r->capacity ? 2 * r->capacity : 256;
    while (capacity < need)
      capacity *= 2;
    unsigned char *data = (unsigned char *)realloc(r->data, capacity);
    if (!data) {
      adcc_rt_report("out of memory for the records of __enzyme_augmentfwd "
                     "(%zu bytes)",
                     capacity);
      return NULL;
    }
    r->data = data;
    r->capacity = capacity;
  }
  void *at = r->data + r->size;
  r->size = need;
  return at;
}

void *adcc_fwdsplit_read(void *handle, uint64_t bytes) {
  records *r = (records *)handle;
  size_t next = r->cursor + rounded(bytes);
  if (ADCC_UNLIKELY(next > r->size)) {
    adcc_rt_report("__enzyme_fwdsplit of '%s' read past the records of its "
                   "__enzyme_augmentfwd (a tape recorded for other "
                   "arguments?)",
                   r->tag);
    return NULL;
  }
  void *at = r->data + r->cursor;
  r->cursor = next;
  return at;
}

/* The records a handle names: the handle itself, or a caller's tape buffer
   holding it (enzyme_allocated without enzyme_tape). */
static records *records_of(void *handle, const char *tag) {
  uintptr_t h = (uintptr_t)handle;
  if (!handle) {
    adcc_rt_report("__enzyme_fwdsplit of '%s' was given a null tape; pass "
                   "what __enzyme_augmentfwd returned",
                   tag);
    return NULL;
  }
  if (h & ADCC_REVERSE_HANDLE_TAG) {
    adcc_rt_report("__enzyme_fwdsplit of '%s' was given the tape of a split "
                   "reverse sweep (__enzyme_augmentfwd without "
                   "__enzyme_fwdsplit requests of the function in its file)",
                   tag);
    return NULL;
  }
  records *r = (records *)handle;
  if (r->magic != ADCC_FWDSPLIT_MAGIC) {
    void *held;
    memcpy(&held, handle, sizeof held);
    r = (records *)held;
    if (!r || ((uintptr_t)r & ADCC_REVERSE_HANDLE_TAG) ||
        r->magic != ADCC_FWDSPLIT_MAGIC) {
      adcc_rt_report("__enzyme_fwdsplit of '%s' was given a tape that no "
                     "__enzyme_augmentfwd recorded (or one already freed)",
                     tag);
      return NULL;
    }
  }
  return r;
}

void *adcc_fwdsplit_begin(void *handle, const char *tag) {
  records *r = records_of(handle, tag);
  if (!r)
    return NULL;
  if (strcmp(r->tag, tag) != 0) {
    adcc_rt_report("__enzyme_fwdsplit of '%s' was given the tape that "
                   "__enzyme_augmentfwd recorded for '%s' (function:activities"
                   ":width)",
                   tag, r->tag);
    return NULL;
  }
  r->cursor = 0;
  return r;
}

void adcc_fwdsplit_end(void *handle, int keep) {
  records *r = (records *)handle;
  if (r->cursor != r->size)
    adcc_rt_report("__enzyme_fwdsplit of '%s' read %zu of the %zu bytes its "
                   "__enzyme_augmentfwd recorded",
                   r->tag, r->cursor, r->size);
  if (keep)
    return;
  r->magic = 0;
  free(r->data);
  free(r);
}
