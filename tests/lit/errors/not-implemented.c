// Entry points adcc recognises but does not implement yet: an error at the
// call, never a wrong derivative. (ADCC_REVERSE: attribute-reverse.c;
// enzyme_width in reverse mode: batch.c; unsupported
// registrations: registration-malformed.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_fwdsplit(void *, ...);
double f(double x) { return x * x; }

// CHECK: not-implemented.c:[[@LINE+1]]:29: error: split forward mode of 'f' is not implemented yet in this version of adcc (the tangents from the records of __enzyme_augmentfwd); use __enzyme_fwddiff, which runs the primal with the tangents
double a(double x) { return __enzyme_fwdsplit((void *)f, x, 1.0); }
// (__enzyme_batch is implemented: its misuse is in enzyme-batch.c.)
