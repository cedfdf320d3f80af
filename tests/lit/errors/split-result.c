// __enzyme_augmentfwd is declared to return the tape (void *), or
// {void *tape, result}, or for a pointer result {void *tape, result,
// shadow} (a large struct comes back through a hidden pointer), without the
// tape when enzyme_tape gives a buffer for it. Any other declared type is
// an error at the call, not a tape handle read from memory nothing wrote.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef struct {
  void *tape;
  double *result;
  double *shadow;
  double *extra;
} too_big;
too_big __enzyme_augmentfwd(void *, ...);

static double *second(double *x) {
  x[1] *= x[0];
  return x + 1;
}

too_big augment(double *x, double *dx) {
  return __enzyme_augmentfwd((void *)second, x, dx);
}
// CHECK: split-result.c:[[#@LINE-2]]:10: error: __enzyme_augmentfwd returns {void *tape, result, shadow}, each field where it exists
// CHECK-SAME: it is declared to return struct too_big, but 'second' gives struct { pointer; struct { pointer; pointer; }; }

extern int enzyme_tape;
typedef struct {
  void *tape;
  double result;
} with_tape;
with_tape __enzyme_augmentfwd_t(void *, ...);
static double square(const double *x) { return x[0] * x[0]; }
// With enzyme_tape the tape goes into the buffer: the result comes alone.
with_tape augment_buffer(double *x, double *dx, void *buf) {
  return __enzyme_augmentfwd_t((void *)square, x, dx, enzyme_tape, buf);
}
// CHECK: split-result.c:[[#@LINE-2]]:10: error: __enzyme_augmentfwd returns
// CHECK-SAME: it is declared to return struct { pointer; double; }, but 'square' gives double

extern int enzyme_allocated;
void __enzyme_augmentfwd_v(void *, ...);
// A tape buffer too small for the handle (Enzyme's "need N bytes").
void augment_small(double *x, double *dx, void *buf) {
  __enzyme_augmentfwd_v((void *)square, x, dx, enzyme_allocated, 1,
                        enzyme_tape, buf);
}
// CHECK: split-result.c:[[#@LINE-3]]:3: error: the tape buffer of enzyme_allocated has 1 bytes; adcc needs 8 (what __enzyme_augmentsize returns)
