// <adcc/kernels.hpp> on a GPU backend with pointers the work-item reads
// from its arguments' data beyond the fields one level down: rows at an
// offset known only at run time (Rows[J], J = I % 2, Rows[0] == Rows[1])
// and two levels down (C->In->A == C->In->B). The launch's derivative walks
// the arguments' data along the item's pointer graph (the device compile
// describes it: device/LaunchPointers.h) before the derivative kernels run.
// Without -D: shadow rows and a shadow inner struct: the gradient on the
// GPU against the CPU backend, central differences and the analytic value,
// the tangent against the gradient. With -DROWS (null shadow rows) and
// -DINNER (null shadows in the inner shadow struct) the launch stops with
// the runtime's message (issue 35: the gradient was 0 without a word).
// Skipped (exit 77) where no CUDA device is present; the grid emulation
// runs it without one (e2e.kernels_cuda_graph_emulated, ..._hip_...).
#include <adcc/kernels.hpp>

#include "check.h"
#include "cuda_device.h"

constexpr int M = 256, WG = 64;

struct Inner {
  double *A, *B;
};

struct Ctx {
  Inner *In;
};

struct Graph {
  __host__ __device__ void operator()(const adcc::index &Ix,
                                      double *const *Rows, const Ctx *C,
                                      const double *X, double *Out) const {
    int I = int(Ix.global_id(0));
    int J = I % 2;
    Rows[J][I] = X[I] * X[I];
    C->In->A[I] = X[I] * X[I] * X[I];
    Out[I] = 2 * Rows[1 - J][I] + 3 * C->In->B[I];
  }
};

/// sum_i (1 + i % 3) (2 x_i^2 + 3 x_i^3), on the GPU or on the CPU.
template <bool Gpu>
double loss(double *const *Rows, const Ctx *C, const double *X, double *Out) {
  if constexpr (Gpu)
    adcc::launch(adcc_test::gpu, Graph{}, adcc::range(M), adcc::range(WG),
                 Rows, C, X, Out);
  else
    adcc::launch(adcc::cpu, Graph{}, adcc::range(M), adcc::range(WG), Rows,
                 C, X, Out);
  double L = 0;
  for (int I = 0; I < M; ++I)
    L += (1 + I % 3) * Out[I];
  return L;
}

template <typename T> T *managed(int N) {
  T *P = nullptr;
  if (cudaMallocManaged(&P, N * sizeof(T)) != cudaSuccess) {
    std::printf("FAIL: cudaMallocManaged\n");
    std::exit(1);
  }
  for (int I = 0; I < N; ++I)
    P[I] = T();
  return P;
}

/// The gradient of loss<Gpu> with respect to X into DX.
template <bool Gpu>
void gradient(double *const *Rows, double **DRows, const Ctx *C,
              Ctx *DC, const double *X, double *DX, double *Out, double *DOut,
              double *DBuf, double *DCube) {
  for (int I = 0; I < M; ++I)
    DX[I] = DOut[I] = DBuf[I] = DCube[I] = 0;
  adcc::gradient(loss<Gpu>, adcc::Duplicated<double *const>(Rows, DRows),
                 adcc::Duplicated<const Ctx>(C, DC),
                 adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Out, DOut));
}

int main() {
  requireCudaDevice();
  double *Buf = managed<double>(M), *DBuf = managed<double>(M),
         *Cube = managed<double>(M), *DCube = managed<double>(M);
  double *X = managed<double>(M), *DX = managed<double>(M),
         *DXCpu = managed<double>(M), *Out = managed<double>(M),
         *DOut = managed<double>(M), *V = managed<double>(M);
  for (int I = 0; I < M; ++I) {
    X[I] = 0.2 + 0.5 * sin(0.31 * I);
    V[I] = cos(0.1 * I);
  }
  double **Rows = managed<double *>(2), **DRows = managed<double *>(2);
  Rows[0] = Rows[1] = Buf;
  DRows[0] = DRows[1] = DBuf;
  Inner *In = managed<Inner>(1), *DIn = managed<Inner>(1);
  *In = {Cube, Cube};
  *DIn = {DCube, DCube};
  Ctx *C = managed<Ctx>(1), *DC = managed<Ctx>(1);
  C->In = In;
  DC->In = DIn;
#if defined(ROWS)
  DRows[0] = DRows[1] = nullptr;
#elif defined(INNER)
  DIn->A = DIn->B = nullptr;
#endif
  gradient<true>(Rows, DRows, C, DC, X, DX, Out, DOut, DBuf, DCube);
  gradient<false>(Rows, DRows, C, DC, X, DXCpu, Out, DOut, DBuf, DCube);
  const double H = 1e-6;
  for (int I : {0, 1, 7, 63, 64, 200, 255}) {
    double Keep = X[I];
    X[I] = Keep + H;
    double Up = loss<true>(Rows, C, X, Out);
    X[I] = Keep - H;
    double Down = loss<true>(Rows, C, X, Out);
    X[I] = Keep;
    CHECK_CLOSE(DX[I], (Up - Down) / (2 * H), 1e-6);
    CHECK_CLOSE(DX[I], (1 + I % 3) * (4 * X[I] + 9 * X[I] * X[I]), 1e-12);
    CHECK_CLOSE(DX[I], DXCpu[I], 1e-12);
  }
  double Want = 0;
  for (int I = 0; I < M; ++I) {
    Want += V[I] * DX[I];
    DOut[I] = DBuf[I] = DCube[I] = 0;
  }
  double Tangent = adcc::forward(
      loss<true>, adcc::Dual<double *const *>(Rows, DRows),
      adcc::Dual<const Ctx *>(C, DC), adcc::Dual<const double *>(X, V),
      adcc::Dual<double *>(Out, DOut));
  CHECK_CLOSE(Tangent, Want, 1e-10);
  return check_finish();
}
