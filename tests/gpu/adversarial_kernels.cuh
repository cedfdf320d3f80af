// Kernels defined in a header (templates over the element type, and an
// inline device function) for gpu_adversarial.cu and
// tests/lit/device/Inputs/adversarial-other.cu, which both include it:
// each file's device code gets its own copy, and its own derivative
// kernels of it (weak with -fgpu-rdc, as the template kernels are: lit
// device/adversarial-kernels.cu links both).
#ifndef ADCC_TESTS_ADVERSARIAL_KERNELS_CUH
#define ADCC_TESTS_ADVERSARIAL_KERNELS_CUH

// y[i] = x[i]^2 x[i+1] + sin(x[i-1]) (neighbours clamped): the thread next
// door reads x[i] too, so its adjoint updates are atomic.
template <typename T> __global__ void header_stencil(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T left = x[i > 0 ? i - 1 : 0], right = x[i + 1 < n ? i + 1 : n - 1];
  y[i] = x[i] * x[i] * right + sin(left);
}

// y[i] = y[i]^2 x[i] + sin(y[i]), in place: the augmented kernel keeps
// the old y[i] the write overwrites.
template <typename T> __global__ void header_inplace(T *y, const T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = y[i];
  y[i] = v * v * x[i] + sin(v);
}

// A pair of pointers into one array, x and x + 1, through a header's
// device function: thread i + 1's u[i] is thread i's v[i + 1].
inline __device__ void header_pair(const double *u, const double *v,
                                   double *t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[i] = u[i] * v[i] * v[i];
}

#endif
