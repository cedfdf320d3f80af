// A barrier inside a function of its own (a program's sync() helper, not
// inlined at -O0) is mirrored in the reverse sweep: the helper is inlined
// into the function to differentiate first, so the gradient waits at two
// barriers (the primal's and its mirror), at -O0 and -O2. Without the
// mirror the adjoints other threads add into s race with their reads (the
// grid emulation's tests/gpu/hip_launches.cpp gave wrong gradients).
// RUN: %adcc++ -O0 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc++ -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
extern "C" __attribute__((device)) double __enzyme_autodiff(void *, ...);

__attribute__((device)) void sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

__attribute__((device)) double exchange(double *s, double x) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  s[t] = x * x;
  sync();
  return s[(t + 1) % 64] * x;
}

__attribute__((global)) void grads(double *s, double *ds, const double *x,
                                   double *dx) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)exchange, s, ds, x[t]);
}

// CHECK-LABEL: define {{.*}}amdgpu_kernel void @_Z5gradsPdS_PKdS_(
// CHECK: call void @llvm.amdgcn.s.barrier()
// CHECK: call void @llvm.amdgcn.s.barrier()
// CHECK: ret void
