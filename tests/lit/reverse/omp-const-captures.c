// An OpenMP region whose local array goes to a function that only reads it
// (readonly captures(none): GMM's main_term given to log_sum_exp), and
// that reads a constant array captured through the forking function's
// stack slot (x, passed enzyme_const). Before, each store into the local
// array checked the request's pointer marks, a call that took a lock
// shared by the team's threads (9 calls in the region, one per element
// and one for out[i]), and x got a scratch shadow behind its null shadow
// (a reservation of address space per gradient) with an atomic adjoint
// add per read (9 atomic adds). Now the local array needs no check
// (analysis/PrivateBlocks.h) and x is constant in the region, as it would
// be in a call (ActivityAnalysis::callKeepsSlotClean follows the fork).
// RUN: %adcc -fopenmp -O2 -Rpass=adcc -S -emit-llvm %s -o - 2>%t.rem | FileCheck %s
// RUN: FileCheck %s --check-prefix=REM < %t.rem
double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;
enum { K = 8 };

__attribute__((noinline)) static double lse(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += __builtin_exp(v[i]);
  return __builtin_log(s);
}

// Only out[i]'s store is checked (an argument's memory).
// CHECK-LABEL: define internal void @augmented_region.omp_outlined(
// CHECK-COUNT-1: call void @adcc_shadow_clear_pointers(
// CHECK-NOT: call void @adcc_shadow_clear_pointers(
// CHECK: {{^}}}{{$}}
// The adjoints of a[k] only: none for x.
// REM: reverse mode of the OpenMP region in 'region': adjoint updates of memory: 8 atomic adds
double region(const double *a, const double *x, double *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t[K];
    for (int k = 0; k < K; k++)
      t[k] = a[k] * x[i];
    out[i] = lse(t, K);
  }
  return 0;
}

void grad(const double *a, double *da, const double *x, double *out,
          double *dout, int n) {
  __enzyme_autodiff((void *)region, enzyme_dup, a, da, enzyme_const, x,
                    enzyme_dup, out, dout, enzyme_const, n);
}
