// A kernel whose work-items run loops of run-time trip count (a tape of
// unknown size in device code) launched on adcc::cuda: each item's records
// go to its slot of the launch's buffer, with the slot's end checked. The
// gradient and the tangent of a host function that launches it, on the GPU
// (or the grid emulation) against adcc::cpu, reverse against forward, and
// against central differences; then, in a child process, the same launch
// with trip counts whose records do not fit in the slots stops with the
// launch's message (exit status 1), before any reverse kernel runs.
// Skipped (exit 77, with the reason) where no CUDA device is present.
// Compiled with -x hip the GPU backend is adcc::hip (cuda_device.h): the
// grid emulation runs it so for AMDGPU.
#include <adcc/kernels.hpp>

#include "check.h"
#include "cuda_device.h"

#include <cstring>
#include <string>
#include <sys/wait.h>

constexpr int M = 256, WG = 64;

/// y_i = sum_{k < n_i} prod_{j <= k} (1 + x_i exp(-j (1 + x_{i+1}^2) / 20) / 2),
/// n_i = Base + i % 5: a product whose factors the reverse sweep needs.
struct Series {
  __host__ __device__ void operator()(const adcc::index &Ix, int Base,
                                      const double *X, double *Y) const {
    std::size_t I = Ix.global_id();
    int N = Base + int(I % 5);
    double P = 1, S = 0;
    const double Next = X[(I + 1) % M];
    for (int K = 0; K < N; ++K) {
      P *= 1 + 0.5 * X[I] * exp(-0.05 * K * (1 + Next * Next));
      S += P;
    }
    Y[I] = S;
  }
};

/// The sum of the squares of the items' results, on the GPU or the CPU.
template <bool Gpu> double loss(int Base, const double *X, double *Y) {
  if constexpr (Gpu)
    adcc::launch(adcc_test::gpu, Series{}, adcc::range(M), adcc::range(WG),
                 adcc::Const(Base), X, Y);
  else
    adcc::launch(adcc::cpu, Series{}, adcc::range(M), adcc::range(WG),
                 adcc::Const(Base), X, Y);
  double L = 0;
  for (int I = 0; I < M; ++I)
    L += Y[I] * Y[I];
  return L;
}

/// The gradient in \p DX, returns the tangent along \p V.
template <bool Gpu>
double derivatives(int Base, const double *X, const double *V, double *Y,
                   double *DY, double *DX) {
  for (int I = 0; I < M; ++I)
    DX[I] = DY[I] = 0;
  adcc::gradient(loss<Gpu>, adcc::Const(Base),
                 adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Y, DY));
  return adcc::forward(loss<Gpu>, adcc::Const(Base),
                       adcc::Dual<const double *>(X, V),
                       adcc::Dual<double *>(Y, DY));
}

/// The gradient with trip counts too large for the slots: the launch stops.
int overflow(double *X, double *Y, double *DY, double *DX) {
  derivatives<true>(4000, X, X, Y, DY, DX);
  std::printf("the launch did not stop\n");
  return 0;
}

int main(int Argc, char **Argv) {
  requireCudaDevice();
  // (x, v, y, dy, the gradients on the GPU and on the CPU: one block)
  double *Memory;
  cudaMallocManaged(&Memory, 6 * M * sizeof(double));
  double *X = Memory, *V = X + M, *Y = V + M, *DY = Y + M, *DXGpu = DY + M,
         *DXCpu = DXGpu + M;
  for (int I = 0; I < M; ++I) {
    X[I] = 0.3 * sin(0.7 * I);
    V[I] = cos(0.37 * I);
  }
  if (Argc > 1 && !std::strcmp(Argv[1], "overflow"))
    return overflow(X, Y, DY, DXGpu);
  const int Base = 20;
  double TGpu = derivatives<true>(Base, X, V, Y, DY, DXGpu);
  double TCpu = derivatives<false>(Base, X, V, Y, DY, DXCpu);
  CHECK_CLOSE(TGpu, TCpu, 1e-10);
  double Dot = 0;
  for (int I = 0; I < M; ++I) {
    CHECK_CLOSE(DXGpu[I], DXCpu[I], 1e-10);
    Dot += DXGpu[I] * V[I];
  }
  CHECK_CLOSE(Dot, TGpu, 1e-9);
  const double H = 1e-6;
  for (int I : {0, 1, 77, M - 1}) {
    const double Keep = X[I];
    X[I] = Keep + H;
    double Up = loss<true>(Base, X, Y);
    X[I] = Keep - H;
    double Down = loss<true>(Base, X, Y);
    X[I] = Keep;
    CHECK_CLOSE((Up - Down) / (2 * H), DXGpu[I], 1e-6);
  }
  // Records that do not fit: the child's launch stops with a message.
  std::string Command = std::string(Argv[0]) + " overflow 2>&1";
  FILE *Child = popen(Command.c_str(), "r");
  std::string Output;
  char Buffer[512];
  while (Child && fgets(Buffer, sizeof Buffer, Child))
    Output += Buffer;
  int Status = Child ? pclose(Child) : -1;
  CHECK_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 1);
  CHECK_TRUE(Output.find("adcc: kernel launch: the tape of a work-item of the "
                    "augmented kernel takes") != std::string::npos);
  CHECK_TRUE(Output.find("-DADCC_DEVICE_TAPE_BYTES=") != std::string::npos);
  cudaFree(Memory);
  return check_finish();
}
