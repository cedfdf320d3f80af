// A launched kernel that writes into its struct parameter by value (its
// own copy on a GPU) gets no derivative kernels: they read the struct from
// the one copy of the arguments that all threads share and would race on
// it (at -O0 the threads multiplied the shared `a` again and again: wrong
// values, then libdevice's slow path of sin). A warning at the kernel; the
// derivative of its launch stops the program with a message. At -O2 the
// store is gone (the copy is dead after the kernel) and the kernel has
// its derivative kernels.
// REQUIRES: cuda
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o %t0.ll -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=NONE < %t0.ll
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=MADE

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct Params {
  double a;
  double *y;
  int n;
};

// WARN: cuda-launch-struct-written.cu:[[@LINE+1]]:1: warning: the kernel 'scale(Params)', launched with <<<...>>> in a file that asks for derivatives, has no derivative kernels: it writes into its parameter 1, a struct passed by value, which its derivative kernels share among all threads; copy the members it changes into local variables; a derivative of its launch stops the program with a message
__global__ void scale(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.a *= 1.5;
  if (i < p.n)
    p.y[i] *= p.a;
}

double loss(const Params *p) {
  scale<<<1, 32>>>(*p);
  return p->y[0];
}

void grad(const Params *p, Params *dp) {
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp);
}

// NONE-NOT: @__adcc_rev__Z5scale6Params
// MADE-NOT: warning:
// MADE: define {{.*}}void @__adcc_rev__Z5scale6Params(
