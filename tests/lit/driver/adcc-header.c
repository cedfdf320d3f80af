// <adcc.h> is found without -I, __ADCC__ is defined, and the runtime is
// linked without flags. clang-22 alone finds neither.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 %s -o %t/p && %t/p | FileCheck %s
// RUN: not %clang -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=CLANG
// RUN: not %adcc -fno-adcc-runtime %s -o %t/q 2>&1 | FileCheck %s --check-prefix=NORT
// CHECK: adcc 0 pushed 8 popped 2.5
// CLANG: 'adcc.h' file not found
// NORT: undefined reference to `adcc_tape_
#include <adcc.h>
#include <stdio.h>

int main(void) {
  adcc_tape *tape = adcc_tape_create();
  adcc_tape_push_f64(tape, 2.5);
  adcc_tape_stats stats;
  adcc_tape_get_stats(tape, &stats);
  double back = adcc_tape_pop_f64(tape);
  printf("adcc %d pushed %zu popped %g\n", ADCC_VERSION_MAJOR,
         stats.live_bytes, back);
  adcc_tape_destroy(tape);
  return 0;
}
