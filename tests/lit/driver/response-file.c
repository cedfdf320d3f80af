// Arguments from a response file, adcc options included.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '-DFROM_RSP=42 -O2 -fadcc-print-requests' > %t/args.rsp
// RUN: echo '%s -o %t/p' > %t/more.rsp
// RUN: %adcc @%t/args.rsp @%t/more.rsp && %t/p | FileCheck %s
// CHECK: from_rsp 42
#include <stdio.h>
int main(void) {
  printf("from_rsp %d\n", FROM_RSP);
  return 0;
}
