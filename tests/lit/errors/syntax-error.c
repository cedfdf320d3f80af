// A syntax error: clang-style diagnostics with file:line:column, exit 1,
// no object file left behind.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit 1 %adcc -c %s -o %t/out.o 2>&1 | FileCheck %s
// RUN: test ! -e %t/out.o
// CHECK: syntax-error.c:[[@LINE+2]]:28: error: expected ';' after return statement
// CHECK-NOT: Stack dump
int broken(void) { return 1 }
