// Float bits moved through integers keep their derivative; a sign
// operation on them (fabs by a mask) is read as what it computes; float
// bits changed by other integer operations are an error, never a wrong
// derivative.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 -DMOVED %s -o %t/moved && %t/moved | FileCheck %s --check-prefix=MOVED
// RUN: %adcc -O2 -DMOVED %s -o %t/moved2 && %t/moved2 | FileCheck %s --check-prefix=MOVED
// RUN: %adcc -O0 %s -o %t/abs && %t/abs | FileCheck %s --check-prefix=ABS
// RUN: not %adcc -O0 -DBUMP -c %s -o %t/x.o 2>&1 | FileCheck %s --check-prefix=BITS
// MOVED: moved 6
// ABS: -1
// BITS: float-bits.c:[[@LINE+16]]:{{[0-9]+}}: error: cannot differentiate 'bump' in forward mode: the bits of a floating-point value are changed by the integer operation 'add'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
double __enzyme_fwddiff(void *, ...);
double myabs(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  b &= ~(1ull << 63);
  double r;
  memcpy(&r, &b, 8);
  return r;
}
double bump(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  b += 1;
  double r;
  memcpy(&r, &b, 8);
  return r;
}
double moved(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  double r;
  memcpy(&r, &b, 8);
  return r * x;
}
int main(void) {
#ifdef MOVED
  printf("moved %g\n", __enzyme_fwddiff((void *)moved, 3.0, 1.0));
#elif defined(BUMP)
  printf("%g\n", __enzyme_fwddiff((void *)bump, -2.0, 1.0));
#else
  printf("%g\n", __enzyme_fwddiff((void *)myabs, -2.0, 1.0));
#endif
  return 0;
}
