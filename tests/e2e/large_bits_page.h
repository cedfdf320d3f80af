/* A page of memory at an address whose low 32 bits read as a large float
 * (0x4b000000 and up: 2^23 and more), for the tests of shadows of memory
 * reused: a pointer's shadow left where a float's adjoint is read then
 * reads as a large number instead of a small one, so the wrong gradient
 * cannot pass by chance. Above 2^40, where a program built as PIE has its
 * heap and mappings (the run-time test of unread links clears a shadow
 * word only there: support/UnreadLinkClears.h). Null where no such page
 * can be mapped. */
#ifndef ADCC_E2E_LARGE_BITS_PAGE_H
#define ADCC_E2E_LARGE_BITS_PAGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

static void *large_bits_page(void) {
  for (uintptr_t high = (uintptr_t)1 << 44; high >= (uintptr_t)1 << 41;
       high >>= 1)
    for (uintptr_t a = high | 0x4b000000; a <= (high | 0x4e000000);
         a += 0x01000000) {
      void *p = mmap((void *)a, 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (p == (void *)a)
        return p;
      if (p != MAP_FAILED)
        munmap(p, 4096);
    }
  return NULL;
}

#endif
