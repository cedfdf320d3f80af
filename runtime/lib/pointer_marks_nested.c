/*===- pointer_marks_nested.c - A nested request's links, outer shadows ---===*
 *
 * Reverse over reverse: a request nested in differentiated code (the
 * inner one, whose sweeps the outer request's augmented sweep runs) puts
 * back at its end the pointer shadows its caller's shadow memory held when
 * its augmented sweep ended (a pool's links in the shadow pool). Those
 * writes are the runtime's, which the outer request does not see: the
 * outer shadows of those bytes (the adjoint pool of the shadow pool) keep
 * what the outer request's clears left there, the adjoints of the numbers
 * the inner reverse sweep stored over the links, and the outer request's
 * end put back no link there.
 *
 * So the outer augmented sweep tells the runtime, after each of the inner
 * request's marks of a stored pointer's shadow, where the outer shadow of
 * those bytes lies (adcc_shadow_marks_pair). Where the inner reverse
 * sweep keeps a final of such a granule, the outer bytes are kept with it:
 * the outer shadow of the link's shadow, stored there by the outer
 * augmented sweep at the inner store. Just before the inner request's end
 * the outer augmented sweep opens a batch of records in the outer request
 * (adcc_shadow_marks_nest); where that end puts its final back, the outer
 * bytes get theirs back too, marked and recorded as a pointer's shadow the
 * outer request stores: a second inner request in the same outer one
 * walks the links of both pools, and a number stored there later drops
 * the record's final as it does any other. The outer reverse sweep, where
 * it passes the inner end (adcc_shadow_marks_unnest), undoes the batch:
 * the bytes get back the adjoints it reads there next, and the records
 * that were the granules' last give the outer request's end the links to
 * put back.
 *
 *===----------------------------------------------------------------------===*/

#include "pointer_marks_internal.h"

#include <stdlib.h>
#include <string.h>

enum { granule_bytes = 8, min_capacity = 16 };

static size_t slot_of(uintptr_t granule, size_t capacity) {
  uint64_t h = (uint64_t)granule * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 17) & (capacity - 1);
}

static pair *find_pair(const pair_table *t, uintptr_t granule) {
  if (!t->capacity)
    return NULL;
  for (size_t i = slot_of(granule, t->capacity);;
       i = (i + 1) & (t->capacity - 1)) {
    pair *p = &t->slots[i];
    if (p->granule == granule)
      return p;
    if (!p->granule)
      return NULL;
  }
}

static void grow_pairs(pair_table *t) {
  pair *old = t->slots;
  size_t old_capacity = t->capacity;
  size_t capacity = old_capacity ? 2 * old_capacity : min_capacity;
  t->slots = calloc(capacity, sizeof(pair));
  if (!t->slots)
    adcc_rt_report("out of memory marking the shadows of pointers");
  t->capacity = capacity;
  for (size_t i = 0; i < old_capacity; ++i) {
    if (!old[i].granule)
      continue;
    for (size_t k = slot_of(old[i].granule, capacity);;
         k = (k + 1) & (capacity - 1))
      if (!t->slots[k].granule) {
        t->slots[k] = old[i];
        break;
      }
  }
  free(old);
}

static pair *insert_pair(pair_table *t, uintptr_t granule) {
  pair *p = find_pair(t, granule);
  if (p)
    return p;
  if (2 * (t->used + 1) > t->capacity)
    grow_pairs(t);
  for (size_t i = slot_of(granule, t->capacity);;
       i = (i + 1) & (t->capacity - 1))
    if (!t->slots[i].granule) {
      t->slots[i].granule = granule;
      ++t->used;
      return &t->slots[i];
    }
}

void adcc_shadow_marks_pair(const void *shadow, const void *outer,
                            uint64_t bytes, unsigned level,
                            unsigned outer_level) {
  if (!shadow || !outer || !bytes || shadow == outer ||
      level >= ADCC_TAPE_LEVELS || outer_level >= ADCC_TAPE_LEVELS ||
      level == outer_level)
    return;
  /* (The inner request marked those bytes just before: its state exists.
     A task's or a worker's records are not paired.) */
  level_state *L = *adcc_rt_marks_slot(level);
  if (!L || L->request.active != began || L->root)
    return;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  intptr_t delta = (intptr_t)((uintptr_t)outer - first);
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    pair *p = insert_pair(&L->pairs, g);
    p->delta = delta;
    p->level = outer_level;
  }
}

void adcc_rt_marks_forget_nested(level_state *L) {
  if (L->pairs.used)
    memset(L->pairs.slots, 0, L->pairs.capacity * sizeof(pair));
  L->pairs.used = 0;
  L->request.outer_count = 0;
  L->nest_level = 0;
  L->batch_count = 0;
  L->batch_open = 0;
}

void adcc_rt_marks_keep_outer(level_state *L, uintptr_t g, uint8_t mask) {
  const pair *p = find_pair(&L->pairs, g);
  request_state *request = &L->request;
  if (!p || !request->final_count)
    return;
  if (request->outer_count == request->outer_capacity) {
    size_t capacity =
        request->outer_capacity ? 2 * request->outer_capacity : 64;
    outer_final *outers =
        realloc(request->outers, capacity * sizeof(outer_final));
    if (!outers)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request->outers = outers;
    request->outer_capacity = capacity;
  }
  outer_final *o = &request->outers[request->outer_count++];
  o->final_index = request->final_count - 1;
  o->outer = (uintptr_t)((intptr_t)g + p->delta);
  o->level = p->level;
  o->mask = mask;
  memset(o->bytes, 0, sizeof o->bytes);
  for (unsigned b = 0; b < granule_bytes; ++b)
    if (mask & (1u << b))
      o->bytes[b] = ((const unsigned char *)o->outer)[b];
}

/* The outer shadow bytes of `o` get the outer shadow of the pointer's
   shadow back, stored as a pointer's shadow of the outer request, in the
   records of the nested request's end. */
static void hand(const outer_final *o) {
  level_state *O = *adcc_rt_marks_slot(o->level);
  if (!O || O->request.active != began || !O->batch_open)
    return;
  for (unsigned lo = 0; lo < granule_bytes;) {
    if (!(o->mask & (1u << lo))) {
      ++lo;
      continue;
    }
    unsigned hi = lo;
    while (hi < granule_bytes && (o->mask & (1u << hi)))
      ++hi;
    unsigned char *at = (unsigned char *)o->outer + lo;
    adcc_shadow_mark_stored_pointer(at, hi - lo, o->level);
    memcpy(at, o->bytes + lo, hi - lo);
    lo = hi;
  }
  O->batches[2 * O->batch_count - 1] = O->request.count;
}

void adcc_rt_marks_hand_outer(level_state *L, size_t index, size_t *next) {
  const request_state *request = &L->request;
  /* (Kept in the order of the finals.) */
  size_t i = *next;
  for (; i < request->outer_count && request->outers[i].final_index <= index;
       ++i)
    if (request->outers[i].final_index == index &&
        request->outers[i].level + 1 == L->nest_level)
      hand(&request->outers[i]);
  *next = i;
}

void adcc_shadow_marks_nest(unsigned level, unsigned outer_level) {
  if (level >= ADCC_TAPE_LEVELS || outer_level >= ADCC_TAPE_LEVELS ||
      level == outer_level)
    return;
  level_state *O = *adcc_rt_marks_slot(outer_level);
  if (!O || O->request.active != began)
    return;
  if (O->batch_count == O->batch_capacity) {
    size_t capacity = O->batch_capacity ? 2 * O->batch_capacity : 16;
    size_t *batches = realloc(O->batches, 2 * capacity * sizeof(size_t));
    if (!batches)
      adcc_rt_report("out of memory recording the shadows of pointers");
    O->batches = batches;
    O->batch_capacity = capacity;
  }
  O->batches[2 * O->batch_count] = O->batches[2 * O->batch_count + 1] =
      O->request.count;
  ++O->batch_count;
  O->batch_open = 1;
  level_state *L = *adcc_rt_marks_slot(level);
  if (L)
    L->nest_level = outer_level + 1;
}

void adcc_rt_marks_close_nest(level_state *L) {
  if (!L->nest_level)
    return;
  level_state *O = *adcc_rt_marks_slot(L->nest_level - 1);
  if (O)
    O->batch_open = 0;
  L->nest_level = 0;
}

void adcc_shadow_marks_unnest(unsigned outer_level) {
  level_state *O =
      outer_level < ADCC_TAPE_LEVELS ? *adcc_rt_marks_slot(outer_level) : NULL;
  if (!O || O->request.active != began || !O->batch_count)
    return;
  --O->batch_count;
  size_t start = O->batches[2 * O->batch_count];
  size_t end = O->batches[2 * O->batch_count + 1];
  /* (The latest first, as the reverse sweep undoes its own stores; those
     after them in the log are undone by now.) */
  for (size_t i = end; i-- > start;) {
    request_state *request = &O->request;
    if (i >= request->count || !request->log[i].granule)
      continue;
    adcc_shadow_unmark_pointer((void *)request->log[i].granule, granule_bytes,
                               outer_level);
  }
}
