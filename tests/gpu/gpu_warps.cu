// Warp shuffles and a __shared__ array in reverse mode, differentiated in
// device code and run on a GPU: the functions of warp_functions.h (also
// run on a host model of a warp by tests/lit/device/warp-emulated.cu),
// each gradient against central differences and tangents computed on the
// GPU (warp_check.h). Exits 77, saying why, without a GPU.
#include "warp_check.h"
#include "warp_functions.h"

#include <cstdio>

template <class T> struct DeviceArrays {
  T *X, *Dir, *Out;
  DeviceArrays() {
    cudaMalloc(&X, 32 * sizeof(T));
    cudaMalloc(&Dir, 32 * sizeof(T));
    cudaMalloc(&Out, 32 * sizeof(T));
  }
  ~DeviceArrays() {
    cudaFree(X);
    cudaFree(Dir);
    cudaFree(Out);
  }
};

static bool LaunchFailed = false;

template <class T, class Launch>
void runOnGpu(const T *X, const T *Dir, T *Out, Launch &&L) {
  static DeviceArrays<T> D;
  cudaMemcpy(D.X, X, 32 * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(D.Dir, Dir, 32 * sizeof(T), cudaMemcpyHostToDevice);
  L(D.X, D.Dir, D.Out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    LaunchFailed = true;
  cudaMemcpy(Out, D.Out, 32 * sizeof(T), cudaMemcpyDeviceToHost);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  int Failures = 0;
#define CHECK(F, T, E)                                                         \
  Failures += checkWarpFunction<T>(                                            \
      #F, [](int Kind, const T *X, const T *Dir, T *Out) {                     \
        runOnGpu<T>(X, Dir, Out, [&](T *DX, T *DDir, T *DOut) {                \
          if (Kind == 0)                                                       \
            F##_values<<<1, 32>>>(DX, DOut);                                   \
          else if (Kind == 1)                                                  \
            F##_tangents<<<1, 32>>>(DX, DDir, DOut);                           \
          else                                                                 \
            F##_gradients<<<1, 32>>>(DX, DOut);                                \
        });                                                                    \
      });
  WARP_FUNCTIONS(CHECK)
  if (LaunchFailed) {
    puts("FAIL: kernel launch");
    return 1;
  }
  if (Failures) {
    printf("%d check(s) failed\n", Failures);
    return 1;
  }
  puts("ok");
  return 0;
}
