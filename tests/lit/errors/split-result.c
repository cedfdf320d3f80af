// __enzyme_augmentfwd is declared to return the tape (void *), or
// {void *tape, result}, or for a pointer result {void *tape, result,
// shadow} (a large struct comes back through a hidden pointer). Any other
// declared type is an error at the call, not a tape handle read from
// memory nothing wrote.
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
// CHECK: split-result.c:[[#@LINE-2]]:10: error: __enzyme_augmentfwd returns the
// tape (void *), or {void *tape, result} (for a pointer result {void *tape,
// result, shadow}); it is declared to return struct too_big, but 'second' gives
// struct { pointer; struct { pointer; pointer; }; }
