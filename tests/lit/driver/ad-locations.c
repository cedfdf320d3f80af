// A file that asks for derivatives is compiled with location tracking, so
// that AD errors point at their source line even without -g; the locations
// are dropped after the AD pass (no debug info in the output, nothing for
// the later passes to maintain) unless -g or optimization remarks need them.
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PLAIN
// RUN: %adcc -O2 -g -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEBUG
// RUN: %adcc -O2 -S -emit-llvm %s -o - -Rpass=loop-vectorize 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=DEBUG
// RUN: not %adcc -O2 -fno-adcc-cross-tu -c %s -o /dev/null -DBAD 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERROR
// (By default the derivative of ext is made when adcc links, and the error
// comes from there, at the same place.)
// RUN: not %adcc -O2 -shared %s -o %t.so -DBAD 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERROR
double __enzyme_autodiff(void *, ...);
double ext(double);

static double sq(double x) {
#ifdef BAD
  return ext(x) * x;
#else
  return x * x;
#endif
}
double grad(double x) { return __enzyme_autodiff((void *)sq, x); }

// PLAIN-NOT: !dbg
// PLAIN-NOT: !DILocation
// DEBUG: !DILocation
// ERROR: ad-locations.c:[[#@LINE-10]]:10: error: {{.*}}'ext'
