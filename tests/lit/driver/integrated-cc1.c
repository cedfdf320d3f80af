// With -fno-integrated-cc1 the compile job runs as `adcc -cc1` in a new
// process; adcc's options reach it on its command line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -fno-integrated-cc1 -O2 %s -o %t/p && %t/p | FileCheck %s
// RUN: %adcc -fno-integrated-cc1 -fadcc-print-requests -DREQUEST -c %s -o %t/r.o 2>&1 | FileCheck %s --check-prefix=REQ
// CHECK: out-of-process 1
// REQ: adcc: request: forward mode of 'sq'
#include <stdio.h>
double sq(double x) { return x * x; }
#ifdef REQUEST
double __enzyme_fwddiff(void *, ...);
double dsq(double x) { return __enzyme_fwddiff((void *)sq, x, 1.0); }
#endif
int main(void) {
  printf("out-of-process %d\n", sq(1.0) == 1.0);
  return 0;
}
