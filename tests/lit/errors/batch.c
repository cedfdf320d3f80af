// Batched derivatives: the width must be a constant from 1 to 64; batched
// split mode takes one seed per lane. The interleaved form (primals, then
// enzyme_interleave, then their shadows) must give every shadow. (The width of
// ADCC_FORWARD_BATCH is checked in attribute-misuse.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
extern int enzyme_width, enzyme_interleave;

double f(double x, double y) { return x * y; }

// CHECK: batch.c:[[@LINE+1]]:29: error: enzyme_width must be followed by a constant between 1 and 64
double a(double x) { return __enzyme_fwddiff((void *)f, enzyme_width, 0, x, 1.0, 2.0, 0.0); }
// CHECK: batch.c:[[@LINE+1]]:29: error: enzyme_width must be followed by a constant between 1 and 64
double b(double x) { return __enzyme_fwddiff((void *)f, enzyme_width, 65, x, 1.0, 2.0, 0.0); }
// CHECK: batch.c:[[@LINE+1]]:36: error: enzyme_width must be followed by a constant between 1 and 64
double c(double x, int n) { return __enzyme_fwddiff((void *)f, enzyme_width, n, x, 1.0, 2.0, 0.0); }
typedef struct { double d[2]; } two;
two __enzyme_reverse(void *, ...);
// (A seed for lane 0 only: the tape is taken for lane 1's.)
// CHECK: batch.c:[[@LINE+1]]:38: error: the adjoint of the result in lane 1 of 'f' has type pointer, but the function expects double
two d(double x, void *tape) { return __enzyme_reverse((void *)f, enzyme_width, 2, x, 2.0, 1.0, tape); }
// CHECK: batch.c:[[@LINE+1]]:29: error: too few arguments to __enzyme_fwddiff for 'f': missing the shadow of argument 2 after enzyme_interleave
double e(double x) { return __enzyme_fwddiff((void *)f, x, 2.0, enzyme_interleave, 1.0); }
// CHECK: batch.c:[[@LINE+1]]:30: error: too many arguments before enzyme_interleave for 'f': it takes 2 parameters
double e2(double x) { return __enzyme_fwddiff((void *)f, x, 2.0, 3.0, enzyme_interleave, 1.0, 0.0); }
// CHECK: batch.c:[[@LINE+1]]:30: error: too few arguments to __enzyme_fwddiff for 'f': missing the value of argument 2 before enzyme_interleave
double e3(double x) { return __enzyme_fwddiff((void *)f, x, enzyme_interleave, 1.0, 0.0); }
// CHECK: batch.c:[[@LINE+1]]:30: error: enzyme_width must come before the arguments
double e4(double x) { return __enzyme_fwddiff((void *)f, x, 2.0, enzyme_interleave, 1.0, 0.0, enzyme_width, 2); }
// CHECK: batch.c:[[@LINE+1]]:30: error: enzyme_interleave may appear only once in a call
double e5(double x) { return __enzyme_fwddiff((void *)f, x, 2.0, enzyme_interleave, 1.0, 0.0, enzyme_interleave); }
// A wide constant is not read modulo 2^64.
// CHECK: batch.c:[[@LINE+1]]:29: error: enzyme_width must be followed by a constant between 1 and 64
double w(double x) { return __enzyme_fwddiff((void *)f, enzyme_width, ((__int128)1 << 64) + 2, x, 1.0, 2.0, 0.0); }
