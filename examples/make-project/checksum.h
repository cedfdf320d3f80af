/* checksum.h - a running checksum over the bit patterns of doubles.
 *
 * Part of the adcc make-project example. */
#ifndef CHECKSUM_H
#define CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* 64-bit FNV-1a state */
typedef struct {
  uint64_t state;
} checksum_t;

void checksum_init(checksum_t *c);
void checksum_add(checksum_t *c, double value);
void checksum_add_array(checksum_t *c, const double *x, size_t n);

#endif /* CHECKSUM_H */
