// Location tracking for AD diagnostics emits no debug info into objects:
// without -g an adcc object has no .debug_info section, as with clang.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -c %s -o %t/a.o && llvm-readelf -S %t/a.o | FileCheck %s
// RUN: %adcc -O2 -g -c %s -o %t/g.o && llvm-readelf -S %t/g.o | FileCheck %s --check-prefix=G
// CHECK-NOT: .debug_info
// G: .debug_info
double f(double x) { return x * 2; }
