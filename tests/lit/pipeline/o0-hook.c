// The AD pass runs at -O0 too (where clang marks functions optnone), and
// before the output is written for -S -emit-llvm.
// RUN: not %adcc -O0 -S -emit-llvm %s -fadcc-print-requests -o /dev/null 2>&1 | FileCheck %s
// RUN: not %adcc -O0 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK: adcc: request: reverse mode of 'cube'
// ERR: error: reverse mode of 'cube' is not implemented yet
double cube(double x) { return x * x * x; }
double __enzyme_autodiff(void *, ...);
double grad(double x) { return __enzyme_autodiff((void *)cube, x); }
