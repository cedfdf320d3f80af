/*===- scratch_shadows.c - Shadows of constant memory within one call -----===*
 *
 * A derivative call whose function overwrites memory passed `enzyme_const`
 * with values that have derivatives, and reads them back, gets a scratch
 * shadow for that memory (adcore's ScratchShadows.h). Its extent is not
 * known, so the shadow is a large private anonymous mapping, reserved
 * without backing (MAP_NORESERVE): untouched pages cost nothing and read as
 * zero, the derivative of constant contents. The argument's address sits in
 * its middle, at the same offset within a page, so that the shadow of every
 * access keeps the access's alignment. Reservations are kept per thread, in
 * the order they are made; each is unmapped when its call returns.
 *
 * With enzyme_runtime_activity, a duplicated pointer argument whose shadow
 * is its primal is inactive (Enzyme's convention): it gets a scratch
 * shadow instead, so the derivative neither reads its primal values as
 * derivatives nor adds adjoints into them.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef struct scratch_region {
  void *base;
  size_t bytes;
  void *shadow;
  struct scratch_region *next;
} scratch_region;

static _Thread_local scratch_region *regions;

enum {
  scratch_page = 4096,
  /* The largest and smallest reach on either side of the argument: the
     first is tried first, halved while the system refuses it. */
  scratch_max_log2 = 36,
  scratch_min_log2 = 24
};

void *adcc_scratch_shadow_begin(const void *primal) {
  scratch_region *r = malloc(sizeof *r);
  if (!r) {
    adcc_rt_report("out of memory for a scratch shadow");
    return NULL;
  }
  uintptr_t in_page = (uintptr_t)primal & (scratch_page - 1);
  for (int log2 = scratch_max_log2; log2 >= scratch_min_log2; --log2) {
    size_t reach = (size_t)1 << log2;
    size_t bytes = 2 * reach + scratch_page;
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
      continue;
    r->base = base;
    r->bytes = bytes;
    r->shadow = (char *)base + reach + in_page;
    r->next = regions;
    regions = r;
    return r->shadow;
  }
  free(r);
  adcc_rt_report("cannot reserve address space for the scratch shadow of "
                 "memory passed enzyme_const (at %p)",
                 primal);
  return NULL;
}

void adcc_scratch_shadow_end(void *shadow) {
  scratch_region **at = &regions;
  while (*at && (*at)->shadow != shadow)
    at = &(*at)->next;
  scratch_region *r = *at;
  if (!r) {
    adcc_rt_report("scratch shadow %p released twice or never reserved",
                   shadow);
    return;
  }
  *at = r->next;
  munmap(r->base, r->bytes);
  free(r);
}

void *adcc_runtime_activity_begin(const void *primal, void *shadow) {
  return shadow == primal ? adcc_scratch_shadow_begin(primal) : shadow;
}

void adcc_runtime_activity_end(const void *primal, void *given, void *passed) {
  if (given == primal && passed)
    adcc_scratch_shadow_end(passed);
}
