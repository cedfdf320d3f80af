/* checksum.c - 64-bit FNV-1a over the IEEE-754 bit patterns of doubles. */
#include "checksum.h"

#include <string.h>

enum { FNV_BYTES = 8 };
static const uint64_t fnv_offset_basis = 0xcbf29ce484222325ull;
static const uint64_t fnv_prime = 0x100000001b3ull;

void checksum_init(checksum_t *c) { c->state = fnv_offset_basis; }

void checksum_add(checksum_t *c, double value) {
  uint64_t bits;
  if (value == 0.0)
    value = 0.0; /* -0.0 and +0.0 hash alike */
  memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < FNV_BYTES; ++i) {
    c->state ^= (bits >> (8 * i)) & 0xffu;
    c->state *= fnv_prime;
  }
}

void checksum_add_array(checksum_t *c, const double *x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    checksum_add(c, x[i]);
}
