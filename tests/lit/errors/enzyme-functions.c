// Calls of Enzyme's functions that adcc does not implement are errors at
// the call, naming the function and what it does, never calls left for the
// linker to miss (or to find in the program by that name).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
void *__enzyme_virtualreverse(void *, int);
void *__enzyme_truncate_op_func(void *, int, int, int);
void *__enzyme_truncate_mem_func(void *, int, int);
double __enzyme_sample(void *, ...);
double __enzyme_unheard_of(void *, ...);
void __enzyme_double(void *, unsigned long);

double f(double x) { return x * x; }

// (A shadow table: one pointer in, the same out; e2e virtual_shadow.cpp.)
// CHECK-DAG: enzyme-functions.c:[[@LINE+1]]:27: error: '__enzyme_virtualreverse' (a shadow virtual table, which takes and returns one pointer) is not supported yet by adcc
void *c(void *v) { return __enzyme_virtualreverse(v, 1); }
// Truncation of operations to float or half works (e2e
// compat_truncate_ops.c); not to a format only MPFR could emulate, nor of
// memory.
// CHECK-DAG: enzyme-functions.c:[[@LINE+1]]:28: error: '__enzyme_truncate_op_func' (floating-point truncation of operations: done for a function named at the call and constant widths, to float or half (64, 32 or 16 bits; or 8/23, 5/10 exponent and significand bits), not to other formats (which Enzyme emulates with MPFR)) is not supported yet by adcc
void *d(double x) { return __enzyme_truncate_op_func((void *)f, 64, 8, 10); }
// CHECK-DAG: enzyme-functions.c:[[@LINE+1]]:29: error: '__enzyme_truncate_mem_func' (floating-point truncation of memory (values stored in a narrower format)) is not supported yet by adcc
void *d2(double x) { return __enzyme_truncate_mem_func((void *)f, 64, 32); }
// CHECK-DAG: enzyme-functions.c:[[@LINE+1]]:29: error: '__enzyme_sample' (probabilistic programming) is not supported yet by adcc
double e(double x) { return __enzyme_sample((void *)f, x); }
// CHECK-DAG: enzyme-functions.c:[[@LINE+1]]:29: error: '__enzyme_unheard_of' (a function of Enzyme's that adcc does not know) is not supported yet by adcc
double g(double x) { return __enzyme_unheard_of((void *)f, x); }
// Type hints are accepted (and removed).
// CHECK-NOT: __enzyme_double
double h(double *x) {
  __enzyme_double(x, sizeof(double));
  return *x;
}
