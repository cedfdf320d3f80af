/*===- null_shadows.c - Scratch shadows behind null shadow pointers -------===*
 *
 * A shadow struct the caller zeroes (`struct S ds = {0}`) leaves null
 * shadow pointers beside primal pointers to data (adcore's
 * NullableShadows.h). What a derivative call writes through such a pointer
 * and reads back must meet, as it does through a real shadow: within the
 * call (a session, entered and left around it), a null shadow read from
 * memory is replaced by the scratch shadow of its primal address, the same
 * for the same primal address wherever it is read (per lane of a batched
 * derivative). The scratch is a large
 * private anonymous mapping without backing (MAP_NORESERVE) around the
 * first primal address that needed one: untouched pages read as zero, the
 * derivative of data nobody gave a shadow. Later addresses within its
 * reach share it, so that pointer arithmetic on a scratch shadow follows
 * the primal's. Kept per thread; unmapped when the outermost session ends.
 * Outside a session (split mode, other threads) the shadow stays null and
 * accesses through it are guarded as before (nothing meets).
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef struct null_region {
  uintptr_t low, high; /* the primal addresses it covers: [low, high) */
  unsigned lane;       /* of a batched derivative: each has its own */
  char *base;          /* the shadow of `low` */
  struct null_region *next;
} null_region;

static _Thread_local null_region *regions;
static _Thread_local unsigned depth;

enum {
  null_page = 4096,
  /* The largest and smallest reach on either side of the first address:
     the first is tried first, halved while the system refuses it. */
  null_max_log2 = 36,
  null_min_log2 = 24
};

void adcc_null_shadows_enter(void) { ++depth; }

void adcc_null_shadows_leave(void) {
  if (depth == 0) {
    adcc_rt_report("null-shadow session left without being entered");
    return;
  }
  if (--depth > 0)
    return;
  while (regions) {
    null_region *r = regions;
    regions = r->next;
    munmap(r->base, r->high - r->low);
    free(r);
  }
}

static null_region *reserve(uintptr_t primal, unsigned lane) {
  null_region *r = malloc(sizeof *r);
  if (!r)
    return NULL;
  uintptr_t page = primal & ~(uintptr_t)(null_page - 1);
  for (int log2 = null_max_log2; log2 >= null_min_log2; --log2) {
    uintptr_t reach = (uintptr_t)1 << log2;
    uintptr_t low = page > reach ? page - reach : 0;
    uintptr_t high = page + reach + null_page;
    if (high < page) /* (wrapped) */
      high = UINTPTR_MAX & ~(uintptr_t)(null_page - 1);
    void *base = mmap(NULL, high - low, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
      continue;
    r->low = low;
    r->lane = lane;
    r->high = high;
    r->base = base;
    r->next = regions;
    regions = r;
    return r;
  }
  free(r);
  return NULL;
}

void *adcc_null_shadow(const void *primal, unsigned lane) {
  uintptr_t p = (uintptr_t)primal;
  if (depth == 0 || p == 0)
    return NULL;
  /* (The oldest region that covers it: the same one every time.) */
  null_region *found = NULL;
  for (null_region *r = regions; r; r = r->next)
    if (r->lane == lane && p >= r->low && p < r->high)
      found = r;
  if (!found && !(found = reserve(p, lane))) {
    adcc_rt_report("cannot reserve address space for the scratch shadow "
                   "behind a null shadow pointer (primal %p)",
                   primal);
    return NULL;
  }
  return found->base + (p - found->low);
}

void *adcc_null_shadow_strip(void *shadow) {
  uintptr_t s = (uintptr_t)shadow;
  for (null_region *r = regions; r; r = r->next)
    if (s >= (uintptr_t)r->base && s < (uintptr_t)r->base + (r->high - r->low))
      return NULL;
  return shadow;
}
