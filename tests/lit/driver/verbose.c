// -v names adcc and shows clang's job lines.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -v -c %s -o %t/v.o 2>&1 | FileCheck %s
// CHECK: adcc version
// CHECK: clang version 22
// CHECK: adcc" -cc1 -triple
int v(void) { return 1; }
