// The AD pass runs at -O0 too (where clang marks functions optnone), and
// before the output is written for -S -emit-llvm, split forward mode's
// sweeps included.
// RUN: %adcc -O0 -S -emit-llvm %s -fadcc-print-requests -o - 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.err
// RUN: %adcc -O0 -S -emit-llvm -DSPLIT %s -o - | FileCheck %s --check-prefix=SPLIT
// CHECK: adcc: request: reverse mode of 'cube'
// IR: define internal {{.*}} @augmented_cube(
// IR: define internal double @diffe_cube(double
// SPLIT: define internal {{.*}} @fwdsplit_cube(double {{.*}}, double {{.*}}, ptr
// SPLIT: define internal double @fwdsplit_record_cube(double {{.*}}, ptr
double cube(double x) { return x * x * x; }
double __enzyme_autodiff(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double grad(double x) { return __enzyme_autodiff((void *)cube, x); }
#ifdef SPLIT
double split(double x) { return __enzyme_fwdsplit((void *)cube, x, 1.0, (void *)0); }
#endif
