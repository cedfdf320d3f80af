// Enzyme's functions declared in C++ without `extern "C"` (as Enzyme's own
// Truncate programs do) have mangled names; adcc reads the identifier, so
// a call to one it does not implement is an error at the call, as in C
// (enzyme-functions.c), not an undefined reference at link time.
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_truncate_op_func_2(...);
double __enzyme_unheard_of(void *, double);

double f(double x) { return x * x; }

// (Widths that are not constants.)
// CHECK-DAG: enzyme-functions-cxx.cpp:[[@LINE+1]]:29: error: '__enzyme_truncate_op_func_2(...)' (floating-point truncation of operations: done for a function named at the call and constant widths, to float or half (64, 32 or 16 bits; or 8/23, 5/10 exponent and significand bits), not to other formats (which Enzyme emulates with MPFR)) is not supported yet by adcc
double d(double x) { return __enzyme_truncate_op_func_2((void *)f, 64, 32, x); }
// CHECK-DAG: enzyme-functions-cxx.cpp:[[@LINE+1]]:29: error: '__enzyme_unheard_of(void*, double)' (a function of Enzyme's that adcc does not know) is not supported yet by adcc
double g(double x) { return __enzyme_unheard_of((void *)f, x); }
// A function of the program's own whose mangled name holds the words
// elsewhere is no Enzyme function.
// CHECK-NOT: my__enzyme_helper
double my__enzyme_helper(double x);
double h(double x) { return my__enzyme_helper(x); }
