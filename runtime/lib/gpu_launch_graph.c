/*===- gpu_launch_graph.c - The null shadows of a launch's pointers -------===*
 *
 * Before the derivative kernels of a launch run (CUDA's and HIP's own
 * launches, gpu_launch.c; <adcc/kernels.hpp>'s launches on adcc::cuda and
 * adcc::hip, kernels_gpu_rules.hpp), the launch walks its arguments' data
 * along the kernel's pointer graph, as the device compile describes it
 * (adcore's device/LaunchPointers.h): the pointers the kernel reads from
 * the data of its pointer arguments at constant offsets (`c->a`), at
 * offsets known only at run time (`rows[j]`: every word of the data's
 * allocation where such a read may land), and from the data of those (`c->
 * inner->a`), with the shadows the caller's shadow data holds at the same
 * places. The derivative kernels read zero tangents through a null shadow
 * and drop what they would write through it (device code has no scratch
 * shadow), so where a pointer whose shadow is null while it is not is
 * written through and read back, or written through while another pointer
 * into the same data is read through (or the other way), the derivative
 * would be wrong without a word: the launch stops with a message instead.
 * Where the walk cannot tell (data whose allocation the runtime cannot
 * find, pointers read deeper than the graph goes, too many pointers), it
 * stops too, saying so.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_launch_internal.h"

enum { ToHost = 2 }; /* cudaMemcpyKind, hipMemcpyKind */

/* Where a device allocation begins and ends, where the runtime can tell:
   the driver's cuMemGetAddressRange (through cudaGetDriverEntryPoint),
   HIP's hipMemGetAddressRange. */
#define WEAK __attribute__((weak))
WEAK int cudaGetDriverEntryPoint(const char *, void **, unsigned long long,
                                 int *);
WEAK int hipMemGetAddressRange(void **, size_t *, void *);
typedef int (*range_fn)(unsigned long long *, size_t *, unsigned long long);

static int allocation_of(const adcc_gpu_kernel *k, const void *p,
                         uintptr_t *base, size_t *size) {
  if (!p)
    return 0;
  if (k->hip) {
    void *b = NULL;
    if (!hipMemGetAddressRange || hipMemGetAddressRange(&b, size, (void *)p))
      return 0;
    *base = (uintptr_t)b;
    return 1;
  }
  static range_fn range;
  static int asked;
  if (!asked) {
    asked = 1;
    void *fn = NULL;
    if (cudaGetDriverEntryPoint &&
        !cudaGetDriverEntryPoint("cuMemGetAddressRange", &fn, 0, NULL))
      range = (range_fn)fn;
  }
  unsigned long long b = 0;
  if (!range || range(&b, size, (unsigned long long)(uintptr_t)p))
    return 0;
  *base = (uintptr_t)b;
  return 1;
}

/* What the kernel reads pointers from: an argument, a pointer of a struct
   by value, or a node of its pointer graph (the pointers read from the
   data of its parent at byte offset, or at offset + k step for any k). */
typedef struct {
  enum { Argument, Member, Node } where;
  unsigned param; /* an argument: its number, from 0 */
  int parent;     /* a node: the description of its parent */
  long long offset;
  unsigned step;
  int written, read, deeper;
} place;

/* One pointer the kernel may use, with its shadow. (A struct by value
   is one too, whose value and shadow are its bytes in the host's copies
   of the arguments and their shadows: host.) */
typedef struct {
  const void *value;
  const void *shadow;
  int host;
  size_t host_size;
  unsigned place;
  int parent;                /* the pointer whose data held it, or -1 */
  unsigned long long at;     /* the byte of that data it was read at */
  int ranged;                /* 0 not asked, 1 known, -1 unknown */
  uintptr_t base;
  size_t size;
} pointer;

typedef struct {
  adcc_gpu_kernel *k;
  const place *places;
  unsigned nplaces;
  pointer *all;
  size_t count, capacity;
} graph;

/* The most pointers a launch's walk keeps, and the most bytes of one
   allocation it reads to find pointers at run-time offsets. */
enum { MostPointers = 1 << 20 };
static const size_t MostBytes = (size_t)256 << 20;

static void range_of(graph *g, pointer *p) {
  if (!p->ranged)
    p->ranged = allocation_of(g->k, p->value, &p->base, &p->size) ? 1 : -1;
}

/* Whether a and b may point into the same data: the same address, or one
   inside the other's allocation. Where the runtime cannot tell where
   either's allocation ends (memory not from cudaMalloc or hipMalloc, a
   runtime without the query), only the same address. */
static int same_data(graph *g, pointer *a, pointer *b) {
  if (a->value == b->value)
    return 1;
  range_of(g, a);
  if (a->ranged > 0)
    return (uintptr_t)b->value - a->base < a->size;
  range_of(g, b);
  if (b->ranged > 0)
    return (uintptr_t)a->value - b->base < b->size;
  return 0;
}

static void describe(const graph *g, const pointer *p, char *out, size_t n) {
  const place *at = &g->places[p->place];
  if (at->where == Argument) {
    snprintf(out, n,
             p->host ? "its argument %u (a struct by value)"
                     : "its pointer argument %u",
             at->param + 1);
    return;
  }
  if (at->where == Member) {
    snprintf(out, n, "the pointer at byte %lld of its arguments", at->offset);
    return;
  }
  char of[512] = "?";
  if (p->parent >= 0)
    describe(g, &g->all[p->parent], of, sizeof of);
  snprintf(out, n, "the pointer at byte %llu%s of %s%s", p->at,
           at->step ? " (an offset the kernel computes at run time)" : "",
           p->parent >= 0 && g->all[p->parent].host ? "" : "the data of ",
           of);
}

static void stop_pointer(graph *g, const pointer *a, const pointer *b) {
  char first[512], second[512], message[1400];
  describe(g, a, first, sizeof first);
  const place *pa = &g->places[a->place];
  if (!b) {
    snprintf(message, sizeof message,
             "%s has a null shadow (the shadow data the caller gave holds "
             "null there), and the kernel writes through it and reads it "
             "back%s: device code has nowhere to keep that derivative; give "
             "it a shadow in device memory in the shadow data",
             first,
             pa->step ? " (or through another pointer read at a run-time "
                        "offset there)"
                      : "");
  } else {
    const place *pb = &g->places[b->place];
    describe(g, b, second, sizeof second);
    const int writes = pa->written && pb->read;
    snprintf(message, sizeof message,
             "%s has a null shadow (the shadow data the caller gave holds "
             "null there) and points into the same data as %s; the kernel "
             "%s through one and %s through the other, and the derivative "
             "kernels cannot carry that derivative through a null shadow; "
             "give it a shadow in device memory in the shadow data",
             first, second, writes ? "writes" : "reads",
             writes ? "reads" : "writes");
  }
  adcc_rt_gpu_stop(g->k, message, 0);
}

static void stop_unknown(graph *g, const pointer *p, const char *why) {
  char what[512], message[1024];
  describe(g, p, what, sizeof what);
  snprintf(message, sizeof message,
           "the kernel reads pointers from the data of %s, %s; the launch's "
           "derivative cannot check their shadows (docs/gpu.md, \"Fields "
           "with null shadows\")",
           what, why);
  adcc_rt_gpu_stop(g->k, message, 0);
}

static void add(graph *g, pointer p) {
  if (g->count == MostPointers)
    adcc_rt_gpu_stop(g->k,
                     "the kernel reads more pointers from the data of its "
                     "pointer arguments than the launch's derivative can "
                     "check",
                     0);
  if (g->count == g->capacity) {
    size_t more = g->capacity ? 2 * g->capacity : 64;
    pointer *all = realloc(g->all, more * sizeof *all);
    if (!all)
      adcc_rt_gpu_stop(g->k, "out of host memory", 0);
    g->all = all;
    g->capacity = more;
  }
  g->all[g->count++] = p;
}

/* Reads the 8 bytes at address at into *out: inside the allocation of the
   pointer from, where the runtime can tell it (1; outside it, *out null:
   the kernel reads no pointer there, 2), or, where it cannot, at an
   argument's data (trusted: the kernel reads it); 0 where it cannot tell. */
static int read_word(graph *g, pointer *from, int trusted, uintptr_t at,
                     const void **out) {
  *out = NULL;
  range_of(g, from);
  if (from->ranged > 0 && (at < from->base ||
                           at + sizeof *out > from->base + from->size))
    return 2;
  if (from->ranged < 0 && !trusted)
    return 0;
  adcc_rt_gpu_copy(g->k, out, (const void *)at, sizeof *out, ToHost);
  return 1;
}

/* The pointers of node place n read from the data of the pointer at
   index from, at a constant offset. */
static void read_at(graph *g, unsigned n, size_t from) {
  const place *node = &g->places[n];
  pointer *p = &g->all[from];
  if (p->host) {
    /* (A member of a struct by value: in the host's copies.) */
    if (node->offset < 0 ||
        (size_t)node->offset + sizeof(void *) > p->host_size)
      return;
    pointer child = {0};
    child.place = n;
    child.parent = (int)from;
    child.at = (unsigned long long)node->offset;
    memcpy(&child.value, (const char *)p->value + node->offset,
           sizeof child.value);
    memcpy(&child.shadow, (const char *)p->shadow + node->offset,
           sizeof child.shadow);
    add(g, child);
    return;
  }
  const int trusted = g->places[p->place].where == Argument;
  const uintptr_t at = (uintptr_t)p->value + (uintptr_t)node->offset;
  pointer child = {0};
  child.place = n;
  child.parent = (int)from;
  child.at = (unsigned long long)node->offset;
  const int read = read_word(g, p, trusted, at, &child.value);
  if (!read)
    stop_unknown(g, p, "and the runtime cannot tell where that data ends "
                       "(memory not from cudaMalloc or hipMalloc)");
  if (read == 2)
    return;
  if (p->shadow) {
    pointer shadow = {0};
    shadow.value = p->shadow;
    if (!read_word(g, &shadow, trusted,
                   (uintptr_t)p->shadow + (uintptr_t)node->offset,
                   &child.shadow))
      stop_unknown(g, p, "and the runtime cannot tell where its shadow "
                         "data ends");
  }
  add(g, child);
}

/* The same at every offset offset + k step of the data's allocation. */
static void read_every(graph *g, unsigned n, size_t from) {
  const place *node = &g->places[n];
  pointer *p = &g->all[from];
  if (p->host) {
    /* (An array of pointers in a struct by value: its words.) */
    const unsigned long long step = node->step;
    long long first = node->offset % (long long)step;
    if (first < 0)
      first += (long long)step;
    for (unsigned long long i = (unsigned long long)first;
         i + sizeof(void *) <= p->host_size; i += step) {
      if (i % sizeof(void *))
        continue;
      pointer child = {0};
      child.place = n;
      child.parent = (int)from;
      child.at = i;
      memcpy(&child.value, (const char *)p->value + i, sizeof child.value);
      memcpy(&child.shadow, (const char *)p->shadow + i, sizeof child.shadow);
      if (child.value)
        add(g, child);
    }
    return;
  }
  range_of(g, p);
  if (p->ranged < 0)
    stop_unknown(g, p, "at offsets known only at run time, and the runtime "
                       "cannot tell where that data's allocation ends "
                       "(memory not from cudaMalloc or hipMalloc)");
  const uintptr_t base = p->base, v = (uintptr_t)p->value;
  const size_t size = p->size;
  if (size > MostBytes)
    stop_unknown(g, p, "at offsets known only at run time, in an allocation "
                       "larger than the launch's derivative reads");
  const void *shadow_of = p->shadow;
  uintptr_t shadow_base = 0;
  size_t shadow_size = 0;
  if (shadow_of) {
    /* (The shadow data's bytes beside the data's: inside the shadow's
       allocation.) */
    pointer s = {0};
    s.value = shadow_of;
    range_of(g, &s);
    if (s.ranged < 0)
      stop_unknown(g, p, "at offsets known only at run time, and the "
                         "runtime cannot tell where its shadow data's "
                         "allocation ends");
    shadow_base = s.base;
    shadow_size = s.size;
  }
  unsigned char *bytes = malloc(size ? size : 1);
  unsigned char *shadows = shadow_of ? calloc(size ? size : 1, 1) : NULL;
  if (!bytes || (shadow_of && !shadows))
    adcc_rt_gpu_stop(g->k, "out of host memory", 0);
  adcc_rt_gpu_copy(g->k, bytes, (const void *)base, size, ToHost);
  /* The shadow of byte base + i is at shadow + (base + i - v). */
  const intptr_t shift = (intptr_t)((uintptr_t)shadow_of - v);
  if (shadow_of) {
    uintptr_t lo = base + shift, hi = base + size + shift;
    if (lo < shadow_base)
      lo = shadow_base;
    if (hi > shadow_base + shadow_size)
      hi = shadow_base + shadow_size;
    if (lo < hi)
      adcc_rt_gpu_copy(g->k, shadows + (lo - shift - base), (const void *)lo,
                       hi - lo, ToHost);
  }
  const unsigned long long step = node->step;
  /* The first address at offset + k step, inside the allocation. */
  const long long start = (long long)(v - base) + node->offset;
  long long first = start % (long long)step;
  if (first < 0)
    first += (long long)step;
  for (unsigned long long i = (unsigned long long)first;
       i + sizeof(void *) <= size; i += step) {
    /* (Pointers in device memory are 8-byte aligned.) */
    if ((base + i) % sizeof(void *))
      continue;
    pointer child = {0};
    child.place = n;
    child.parent = (int)from;
    child.at = (unsigned long long)(base + i - v);
    memcpy(&child.value, bytes + i, sizeof child.value);
    if (shadows)
      memcpy(&child.shadow, shadows + i, sizeof child.shadow);
    if (child.value)
      add(g, child);
  }
  free(bytes);
  free(shadows);
}

/* The pointers of every node, parents first. */
static void walk(graph *g) {
  for (unsigned n = 0; n < g->nplaces; ++n) {
    const place *node = &g->places[n];
    if (node->where != Node)
      continue;
    const size_t known = g->count;
    for (size_t i = 0; i < known; ++i) {
      if (g->all[i].place != (unsigned)node->parent || !g->all[i].value)
        continue;
      if (node->step)
        read_every(g, n, i);
      else
        read_at(g, n, i);
    }
    if (!node->deeper)
      continue;
    for (size_t i = known; i < g->count; ++i)
      if (g->all[i].value)
        stop_unknown(g, &g->all[i],
                     "more levels down than the launch's derivative "
                     "follows");
  }
}

/* Stops where a pointer whose shadow is null while it is not would lose a
   derivative: written through and read back (a pointer read from data),
   or written through one pointer and read through another into the same
   data. */
static void check(graph *g) {
  for (size_t a = 0; a < g->count; ++a) {
    pointer *pa = &g->all[a];
    const place *la = &g->places[pa->place];
    if (pa->shadow || !pa->value || !(la->written || la->read))
      continue;
    if (la->where == Node && la->written && la->read)
      stop_pointer(g, pa, NULL);
    for (size_t b = 0; b < g->count; ++b) {
      pointer *pb = &g->all[b];
      const place *lb = &g->places[pb->place];
      if (b == a || !pb->value ||
          !((la->written && lb->read) || (la->read && lb->written)))
        continue;
      if (same_data(g, pa, pb))
        stop_pointer(g, pa, pb);
    }
  }
}

/* A node's description from its word (device/LaunchPointers.h): the
   parent in bits 56-61, Deeper (50), read (49), written (48), the step in
   bits 40-47, the offset in bits 0-39. */
static place node_of(unsigned long long word, int parent) {
  place p = {0};
  p.where = Node;
  p.parent = parent;
  p.deeper = word >> 50 & 1;
  p.read = word >> 49 & 1;
  p.written = word >> 48 & 1;
  p.step = (unsigned)(word >> 40 & 255);
  long long offset = (long long)(word & ((1ull << 40) - 1));
  if (offset >> 39)
    offset -= 1ll << 40;
  p.offset = offset;
  return p;
}

static void run(graph *g) {
  walk(g);
  check(g);
  free(g->all);
}

static void too_many(adcc_gpu_kernel *k) {
  adcc_rt_gpu_stop(k,
                   "the kernel reads more pointers from the data of its "
                   "pointer arguments than the launch's derivative can "
                   "check",
                   0);
}

void adcc_rt_gpu_check_graph(adcc_gpu_kernel *k, const void *values,
                             const void *shadows) {
  adcc_rt_gpu_ask_size(k);
  const unsigned long long *w = k->pointers;
  const unsigned long long own_written = w[1], own_read = w[2], n = w[3];
  if (n == ~0ull)
    too_many(k);
  unsigned members = 0;
  while (k->members[members] != ~0u)
    ++members;
  /* The places: the parameters, the members, the nodes. */
  const unsigned nodes = n < 59 ? (unsigned)n : 59;
  place *places = calloc(k->params + members + nodes + 1, sizeof *places);
  if (!places)
    adcc_rt_gpu_stop(k, "out of host memory", 0);
  graph g = {k, places, k->params + members + nodes, NULL, 0, 0};
  for (unsigned i = 0; i < k->params; ++i) {
    places[i].where = Argument;
    places[i].param = i;
    places[i].written = i < 63 && (own_written >> i & 1);
    places[i].read = i < 63 && (own_read >> i & 1);
    if (k->kinds[i] == 4) {
      /* (A struct by value: the pointers the kernel reads from it are the
         nodes below it, read from the host's copies.) */
      places[i].written = places[i].read = 0;
      pointer p = {0};
      p.place = i;
      p.parent = -1;
      p.host = 1;
      p.host_size = (i + 1 < k->params ? k->offsets[i + 1] : k->bytes) -
                    k->offsets[i];
      p.value = (const char *)values + k->offsets[i];
      p.shadow = (const char *)shadows + k->offsets[i];
      add(&g, p);
      continue;
    }
    if (k->kinds[i] != 3)
      continue;
    pointer p = {0};
    p.place = i;
    p.parent = -1;
    memcpy(&p.value, (const char *)values + k->offsets[i], sizeof p.value);
    memcpy(&p.shadow, (const char *)shadows + k->offsets[i], sizeof p.shadow);
    add(&g, p);
  }
  for (unsigned m = 0; m < members; ++m) {
    place *at = &places[k->params + m];
    at->where = Member;
    at->offset = k->members[m];
    at->written = at->read = 1;
    pointer p = {0};
    p.place = k->params + m;
    p.parent = -1;
    memcpy(&p.value, (const char *)values + k->members[m], sizeof p.value);
    /* (A member needs a shadow, checked apart: gpu_launch.c.) */
    p.shadow = p.value;
    add(&g, p);
  }
  for (unsigned f = 0; f < nodes; ++f) {
    const unsigned long long word = w[4 + f];
    const unsigned parent = (unsigned)(word >> 56 & 63);
    const int of_param = word >> 62 & 1;
    if (of_param ? parent >= k->params ||
                       (k->kinds[parent] != 3 && k->kinds[parent] != 4)
                 : parent >= f)
      too_many(k);
    places[k->params + members + f] =
        node_of(word, (int)(of_param ? parent : k->params + members + parent));
  }
  run(&g);
  free(places);
}

/* The same for a launch of <adcc/kernels.hpp> on adcc::cuda or adcc::hip
   (kernels_gpu_rules.hpp): words as its query kernel gives them (the
   count, then per pointer of the argument tuple its offset there and what
   the work-item does through it, and the nodes below them, bit 63 set,
   whose parents are earlier words), the argument tuple and its shadows in
   host memory, and where each of the n elements of the tuple is (offsets)
   and which argument of the launch it is (positions, from 0). */
void adcc_gpu_check_item_pointers(const char *name, int hip,
                                  const unsigned long long *words,
                                  const void *actives, const void *shadows,
                                  const unsigned *offsets,
                                  const unsigned *positions, unsigned n) {
  adcc_gpu_kernel k = {0};
  k.name = name;
  k.hip = (unsigned)hip;
  if (words[0] == ~0ull)
    too_many(&k);
  const unsigned count = words[0] < 59 ? (unsigned)words[0] : 59;
  place places[59 + 1];
  graph g = {&k, places, count, NULL, 0, 0};
  for (unsigned i = 0; i < count; ++i) {
    const unsigned long long word = words[1 + i];
    if (word >> 63) {
      const unsigned parent = (unsigned)(word >> 56 & 63);
      if (parent >= i)
        too_many(&k);
      places[i] = node_of(word, (int)parent);
      continue;
    }
    place *at = &places[i];
    memset(at, 0, sizeof *at);
    const unsigned offset = (unsigned)(word & ((1ull << 40) - 1));
    at->where = Argument;
    for (unsigned j = 0; j < n; ++j)
      if (offsets[j] == offset)
        at->param = positions[j];
    at->written = word >> 48 & 1;
    at->read = word >> 49 & 1;
    pointer p = {0};
    p.place = i;
    p.parent = -1;
    memcpy(&p.value, (const char *)actives + offset, sizeof p.value);
    memcpy(&p.shadow, (const char *)shadows + offset, sizeof p.shadow);
    add(&g, p);
  }
  run(&g);
}
