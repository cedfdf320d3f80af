// Several inputs in one call: compile each, or compile and link them all.
// RUN: rm -rf %t && split-file %s %t
// RUN: %adcc -O2 %t/main.c %t/lib.c -o %t/prog && %t/prog | FileCheck %s
// RUN: cd %t && %adcc -c main.c lib.c && %adcc main.o lib.o -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc++ %t/main.c %t/lib.c %t/extra.cpp -o %t/prog3 && %t/prog3 | FileCheck %s
// CHECK: twice 42

//--- main.c
#include <stdio.h>
int twice(int);
int main(void) {
  printf("twice %d\n", twice(21));
  return 0;
}
//--- lib.c
int twice(int x) { return 2 * x; }
//--- extra.cpp
#include <vector>
static std::vector<int> unused_vector(3);
