/*===- shadow_blocks.c - Shadows of heap blocks, kept between calls ------===*
 *
 * In reverse mode the shadow of a block that differentiated code gets from
 * malloc or calloc is allocated in the augmented sweep and freed at the
 * reverse of the allocation, inside the derivative call. A gradient called
 * again and again (an optimizer's loop, a time loop's steps) would get
 * fresh large blocks every time: glibc hands large blocks out as new
 * mappings, or returns the top of its heap to the system when they are
 * freed, and every page of the new block then faults on its first touch
 * (twice, for a shadow read before it is written: `du[k] += ...`). Those
 * faults cost more than the reverse sweep's arithmetic on such a block.
 *
 * adcc_shadow_alloc keeps the large shadow blocks it frees (at least
 * shadow_cache_min bytes; at most shadow_cache_blocks of them and
 * shadow_cache_bytes in all, the oldest freed first when more come) and
 * hands one back, cleared with memset, to a later request that it fits
 * closely. The blocks are plain malloc blocks: free and realloc accept
 * them, and adcc_shadow_free accepts any malloc block.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "tape_internal.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
  shadow_cache_blocks = 8,
  shadow_cache_min = 64 << 10,
};
static const size_t shadow_cache_bytes = (size_t)256 << 20;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *cached[shadow_cache_blocks]; /* oldest first */
static size_t cached_size[shadow_cache_blocks];
static unsigned cached_count;
static size_t cached_total;

static void take(unsigned i) {
  cached_total -= cached_size[i];
  for (unsigned k = i + 1; k < cached_count; ++k) {
    cached[k - 1] = cached[k];
    cached_size[k - 1] = cached_size[k];
  }
  --cached_count;
}

void *adcc_shadow_alloc(size_t bytes) {
  if (bytes >= shadow_cache_min) {
    void *found = NULL;
    pthread_mutex_lock(&lock);
    /* (The newest block that fits within a quarter more than asked.) */
    for (unsigned i = cached_count; i-- > 0;)
      if (cached_size[i] >= bytes && cached_size[i] - bytes <= bytes / 4) {
        found = cached[i];
        take(i);
        break;
      }
    pthread_mutex_unlock(&lock);
    if (found) {
      adcc_rt_marks_own(found, bytes);
      return memset(found, 0, bytes);
    }
  }
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p)
    adcc_rt_report("out of memory allocating a shadow of %zu bytes", bytes);
  adcc_rt_marks_own(p, bytes ? bytes : 1);
  return p;
}

void adcc_shadow_free(void *p) {
  if (!p)
    return;
  size_t size = malloc_usable_size(p);
  if (size < shadow_cache_min || size > shadow_cache_bytes) {
    free(p);
    return;
  }
  void *evicted[shadow_cache_blocks];
  unsigned n = 0;
  pthread_mutex_lock(&lock);
  while (cached_count &&
         (cached_count == shadow_cache_blocks ||
          cached_total + size > shadow_cache_bytes)) {
    evicted[n++] = cached[0];
    take(0);
  }
  cached[cached_count] = p;
  cached_size[cached_count++] = size;
  cached_total += size;
  pthread_mutex_unlock(&lock);
  while (n)
    free(evicted[--n]);
}
