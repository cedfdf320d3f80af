// Split mode with a tape slot of a function that calls a recursive one:
// the recursion's sweeps push in the augmented kernel and pop in the
// reverse kernel, whose frames do not outlive them, and a slot does not
// take them yet: a located error with exit status 1 at -O0 and -O2, never
// records lost between the kernels. (The combined gradient of a recursion
// keeps them in its frame: cuda-recursion-tape.cu.)
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// CHECK: split-slots-recursion.cu:{{1[0-9]|2[0-9]}}:{{[0-9]+}}: error: tape of unknown size in device code: the two sweeps do not run in one function here
extern __device__ void __enzyme_augmentfwd(void *, ...);
extern __device__ void __enzyme_reverse(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_tape;

__device__ double r(double x, int n) {
  if (n <= 0)
    return x;
  return sin(r(x, n - 1)) * x;
}

__device__ void f(const double *x, double *y, int n) {
  y[threadIdx.x] = r(x[threadIdx.x], n);
}

__global__ void aug(const double *x, double *dx, double *y, double *dy, int n,
                    char *tape, unsigned long bytes) {
  __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, n, enzyme_tape, tape + threadIdx.x * bytes);
}

__global__ void rev(const double *x, double *dx, double *y, double *dy, int n,
                    char *tape, unsigned long bytes) {
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n, tape + threadIdx.x * bytes);
}
