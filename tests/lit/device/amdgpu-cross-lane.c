// A double moved between lanes as two integers by ds_bpermute (as HIP's
// __shfl_down does) has no rule: a located error with exit status 1 at
// -O0 (the bit cast through stack slots) and -O2, never a derivative that
// drops the exchanged part. (The reads the optimizer folds into reads of
// floats and doubles, a float's ds_bpermute and DPP moves have rules:
// amdgpu-cross-lane-emulated.cpp.)
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
extern double __enzyme_autodiff(void *, ...);

static double shfl_down(double v, int d) {
  long long b = __builtin_bit_cast(long long, v);
  int lo = (int)b, hi = (int)(b >> 32);
  int lane = __builtin_amdgcn_mbcnt_hi(-1, __builtin_amdgcn_mbcnt_lo(-1, 0));
  // CHECK: amdgpu-cross-lane.c:[[@LINE+1]]:8: error: cannot differentiate 'f' in device code: a warp shuffle of the bits of a floating-point value (as integers, which carry no derivative
  lo = __builtin_amdgcn_ds_bpermute((lane + d) << 2, lo);
  hi = __builtin_amdgcn_ds_bpermute((lane + d) << 2, hi);
  return __builtin_bit_cast(double, ((long long)hi << 32) | (unsigned)lo);
}

static double f(double x) { return shfl_down(x * x, 1) * x; }

__attribute__((amdgpu_kernel)) void k(const double *x, double *dx) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)f, x[t]);
}
