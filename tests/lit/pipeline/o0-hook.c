// The AD pass runs at -O0 too (where clang marks functions optnone), and
// before the output is written for -S -emit-llvm; requests that are not
// implemented yet are reported there.
// RUN: %adcc -O0 -S -emit-llvm %s -fadcc-print-requests -o - 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.err
// RUN: not %adcc -O0 -S -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK: adcc: request: reverse mode of 'cube'
// IR: define internal {{.*}} @augmented_cube(
// IR: define internal double @diffe_cube(double
// ERR: error: split forward mode of 'cube' is not implemented yet
double cube(double x) { return x * x * x; }
double __enzyme_autodiff(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double grad(double x) { return __enzyme_autodiff((void *)cube, x); }
#ifdef SPLIT
double split(double x) { return __enzyme_fwdsplit((void *)cube, x, 1.0, 0); }
#endif
