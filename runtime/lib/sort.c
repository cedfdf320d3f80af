/*===- sort.c - The order of a sort, for differentiated qsort calls ------===*
 *
 * A qsort call in differentiated code becomes: compute the order (here),
 * then move the elements into it with copies that the derivative follows
 * (adcore/lib/prepare/SortCalls.cpp). The order comes from a stable
 * bottom-up merge sort of the indices, which calls the program's
 * comparator on the elements in place; the elements themselves do not
 * move here.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_runtime.h"
#include "tape_internal.h"

#include <stdlib.h>

typedef struct {
  const char *base;
  size_t size;
  int (*cmp)(const void *, const void *);
  int (*cmp_r)(const void *, const void *, void *);
  void *arg;
} sort_order;

static int compare(const sort_order *o, long long a, long long b) {
  const void *pa = o->base + (size_t)a * o->size;
  const void *pb = o->base + (size_t)b * o->size;
  return o->cmp ? o->cmp(pa, pb) : o->cmp_r(pa, pb, o->arg);
}

static long long *permutation(const sort_order *o, size_t n) {
  if (n == 0)
    return NULL;
  long long *perm = malloc(n * sizeof *perm);
  long long *other = malloc(n * sizeof *other);
  if (!perm || !other)
    adcc_rt_report("qsort in differentiated code: out of memory for the "
                  "order of %zu elements", n);
  for (size_t i = 0; i < n; ++i)
    perm[i] = (long long)i;
  /* Runs of width w are merged pairwise from perm into other, then the
     two swap roles. */
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        other[k++] = compare(o, perm[j], perm[i]) < 0 ? perm[j++] : perm[i++];
      while (i < mid)
        other[k++] = perm[i++];
      while (j < hi)
        other[k++] = perm[j++];
    }
    long long *t = perm;
    perm = other;
    other = t;
  }
  free(other);
  return perm;
}

long long *adcc_sort_permutation(const void *base, size_t n, size_t size,
                                 int (*cmp)(const void *, const void *)) {
  sort_order o = {base, size, cmp, NULL, NULL};
  return permutation(&o, n);
}

long long *adcc_sort_permutation_r(const void *base, size_t n, size_t size,
                                   int (*cmp)(const void *, const void *,
                                              void *),
                                   void *arg) {
  sort_order o = {base, size, NULL, cmp, arg};
  return permutation(&o, n);
}

void adcc_sort_release(long long *perm) { free(perm); }

long long adcc_search_offset(const void *key, const void *base, size_t n,
                             size_t size,
                             int (*cmp)(const void *, const void *)) {
  const char *found = bsearch(key, base, n, size, cmp);
  return found ? (long long)(found - (const char *)base) : -1;
}
