// The reverse sweep has the compile's function attributes (target,
// floating-point options, frame pointer), as the primal and the forward
// sweep do (support/CallSites.cpp, prepareReverseSweep). Before, it had
// none: it was compiled for the default target, and inlined into the
// function that asked for the gradient it turned that function's
// floating-point options off (the inliner keeps "no-nans-fp-math" only
// where both functions have it), so a -ffast-math caller compared for NaNs
// again (jne + jnp for s == 0).
// RUN: %adcc -O2 -ffast-math -S -emit-llvm %s -o - | FileCheck %s
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

static double f(const double *x) {
  double s = x[0] * x[1];
  return s == 0 ? x[2] : s / (1 + x[2] * x[2]);
}

// CHECK: define {{.*}}void @grad({{.*}}){{.*}} #[[GRAD:[0-9]+]] {
void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}

// CHECK: attributes #[[GRAD]] = { {{.*}}"no-infs-fp-math"="true"
// CHECK-SAME: "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true"
