// Malformed __enzyme_batch calls (Enzyme's batched primal): an error at the
// call naming what is wrong, at every level.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef struct {
  double a, b;
} two;
typedef struct {
  double a, b, c;
} three;
two __enzyme_batch(void *, ...);
three __enzyme_batch3(void *, ...);
extern int enzyme_width, enzyme_scalar, enzyme_buffer, enzyme_dup;
double f(double x, double y) { return x * y; }
double g(double *p) { return *p; }

// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:32: error: __enzyme_batch of 'f': missing the value of argument 2 for lane 1
two missing(double x) { return __enzyme_batch((void *)f, enzyme_width, 2, x, x, 1.0); }
// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:30: error: __enzyme_batch of 'f': too many arguments: the function takes 2 parameters, at width 2
two extra(double x) { return __enzyme_batch((void *)f, enzyme_width, 2, x, x, enzyme_scalar, 1.0, 3.0); }
// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:29: error: __enzyme_batch of 'f': marker 'enzyme_dup' is not valid in __enzyme_batch
two mark(double x) { return __enzyme_batch((void *)f, enzyme_width, 2, enzyme_dup, x, x, enzyme_scalar, 1.0); }
// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:31: error: __enzyme_batch of 'f': __enzyme_batch is declared to return struct three, but 2 results of 'f' are double[2]
three size(double x) { return __enzyme_batch3((void *)f, enzyme_width, 2, x, x, enzyme_scalar, 1.0); }
// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:32: error: __enzyme_batch of 'f': enzyme_buffer is for pointer arguments (argument 1)
two buffer(double *p) { return __enzyme_batch((void *)f, enzyme_width, 2, enzyme_buffer, 8, p, enzyme_scalar, 1.0); }
// CHECK-DAG: enzyme-batch.c:[[@LINE+1]]:37: error: __enzyme_batch of 'f': enzyme_width must be followed by a constant between 1 and 64
two width(int n, double x) { return __enzyme_batch((void *)f, enzyme_width, n, x, x, x, x); }
