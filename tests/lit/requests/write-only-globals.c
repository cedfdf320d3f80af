// Which globals without a shadow the derivatives of the module only write
// (analysis/WriteOnlyMemory.h): a log of calls whose records hold the
// pointers a wrapper is given, grown by realloc, is; a global whose pointer
// a derivative reads back and writes through (also a pointer recorded in a
// log: lg), or whose double another derivative reads, is not.
// RUN: %clang -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o - | %adcc-opt -passes=adcc-print-write-only-memory -o /dev/null | FileCheck %s
// RUN: %clang -O2 -S -emit-llvm %s -o - | %adcc-opt -passes=adcc-print-write-only-memory -o /dev/null | FileCheck %s
// CHECK-NOT: {{where|pair|lg}}: only written
// CHECK: calls: only written
// CHECK-NOT: {{where|pair|lg}}: only written
#include <stdlib.h>
double __enzyme_autodiff(void *, ...);

struct Call { const double *x; double alpha; int n; };
struct Log { struct Call *data; size_t capacity, length; } calls;

__attribute__((noinline)) static void record(struct Log *log, struct Call c) {
  if (log->length == log->capacity) {
    log->capacity = log->capacity ? 2 * log->capacity : 1;
    log->data = realloc(log->data, log->capacity * sizeof(struct Call));
  }
  log->data[log->length++] = c;
}
double scaled_sum(const double *x, double alpha, int n) {
  struct Call c = {x, alpha, n};
  record(&calls, c);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += alpha * x[i];
  return s;
}

double *where;
// (Writes the program's own data through the global.)
__attribute__((noinline)) void clear_second(void) { where[1] = 0; }
double reset(double *x) {
  where = x;
  clear_second();
  return x[0] * x[1];
}

struct Pair { double v; double *p; } pair;
double put(double *x) { pair.v = x[0] * x[0]; pair.p = x; return x[0]; }
double take(double *x) { return pair.v * x[0]; }

double g1(double *x, double *dx) { return __enzyme_autodiff((void *)scaled_sum, x, dx, 2.0, 3); }
double g2(double *x, double *dx) { return __enzyme_autodiff((void *)reset, x, dx); }
double g3(double *x, double *dx) {
  return __enzyme_autodiff((void *)put, x, dx) + __enzyme_autodiff((void *)take, x, dx);
}

// A log whose recorded pointer a derivative reads back and writes through.
struct Rec { double *x; double a; };
struct RecLog { struct Rec *data; size_t cap, len; } lg;
__attribute__((noinline)) void remember(double *x, double a) {
  if (lg.len == lg.cap) {
    lg.cap = lg.cap ? 2 * lg.cap : 1;
    lg.data = realloc(lg.data, lg.cap * sizeof(struct Rec));
  }
  struct Rec r = {x, a};
  lg.data[lg.len++] = r;
}
__attribute__((noinline)) void clear_last(void) { lg.data[lg.len - 1].x[1] = 0; }
double forget(double *x) {
  remember(x, x[0]);
  clear_last();
  return x[0] * x[1];
}
double g4(double *x, double *dx) { return __enzyme_autodiff((void *)forget, x, dx); }
