// <adcc/kernels.hpp> on a GPU backend with a struct of arrays passed by
// pointer (`const Ctx *C`, its arrays the fields), some fields with null
// shadows in the shadow struct: the launch's derivative reads the fields
// and their shadows before the derivative kernels run (the device compile
// says which fields the work-item uses and how: device/LaunchPointers.h).
// Without -D: two fields given one array and one shadow array (written
// through A, read through B), a table of coefficients with a null shadow
// (only read), a scratch array with a null shadow (written, never read, in
// an allocation of its own): the gradient on the GPU against the CPU
// backend, central differences and the analytic value, the tangent against
// the gradient. With -DALIASED (A and B one array, null shadows: issue 35,
// the gradient was 0 without a word) and -DREADBACK (A with a null shadow
// written and read back) the launch stops with the runtime's message.
// Skipped (exit 77) where no CUDA device is present; the grid emulation
// runs it without one (e2e.kernels_cuda_fields_emulated, ..._hip_...).
#include <adcc/kernels.hpp>

#include "check.h"
#include "cuda_device.h"

constexpr int M = 256, WG = 64, K = 5;

struct Ctx {
  const double *Coef;
  double *A, *B;
  double *Tmp;
};

struct Fields {
  __host__ __device__ void operator()(const adcc::index &Ix, const Ctx *C,
                                      const double *X, double *Out) const {
    int I = int(Ix.global_id(0));
    double *A = C->A;
    A[I] = X[I] * X[I];
    C->Tmp[I] = 2 * X[I];
#ifdef READBACK
    Out[I] = (C->Coef[I % K] + X[I]) * C->A[I];
#else
    Out[I] = (C->Coef[I % K] + X[I]) * C->B[I];
#endif
  }
};

/// sum_i (1 + i % 3) (coef[i % K] + x_i) x_i^2, on the GPU or on the CPU.
template <bool Gpu> double loss(const Ctx *C, const double *X, double *Out) {
  if constexpr (Gpu)
    adcc::launch(adcc_test::gpu, Fields{}, adcc::range(M), adcc::range(WG), C,
                 X, Out);
  else
    adcc::launch(adcc::cpu, Fields{}, adcc::range(M), adcc::range(WG), C, X,
                 Out);
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
void gradient(const Ctx *C, Ctx *DC, const double *X, double *DX, double *Out,
              double *DOut, double *DBuf) {
  for (int I = 0; I < M; ++I)
    DX[I] = DOut[I] = DBuf[I] = 0;
  adcc::gradient(loss<Gpu>, adcc::Duplicated<const Ctx>(C, DC),
                 adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Out, DOut));
}

int main() {
  requireCudaDevice();
  double *Coef = managed<double>(K), *Buf = managed<double>(M),
         *DBuf = managed<double>(M), *Tmp = managed<double>(M);
  double *X = managed<double>(M), *DX = managed<double>(M),
         *DXCpu = managed<double>(M), *Out = managed<double>(M),
         *DOut = managed<double>(M), *V = managed<double>(M);
  for (int J = 0; J < K; ++J)
    Coef[J] = 0.5 + 0.2 * J;
  for (int I = 0; I < M; ++I) {
    X[I] = 0.2 + 0.5 * sin(0.31 * I);
    V[I] = cos(0.1 * I);
  }
  Ctx *C = managed<Ctx>(1), *DC = managed<Ctx>(1);
  *C = {Coef, Buf, Buf, Tmp};
  // (Coef and Tmp: null shadows)
  *DC = {nullptr, DBuf, DBuf, nullptr};
#if defined(ALIASED)
  DC->A = DC->B = nullptr;
#elif defined(READBACK)
  C->B = managed<double>(M);
  DC->A = DC->B = nullptr;
#endif
  gradient<true>(C, DC, X, DX, Out, DOut, DBuf);
  gradient<false>(C, DC, X, DXCpu, Out, DOut, DBuf);
  const double H = 1e-6;
  for (int I : {0, 1, 7, 63, 64, 200, 255}) {
    double Keep = X[I];
    X[I] = Keep + H;
    double Up = loss<true>(C, X, Out);
    X[I] = Keep - H;
    double Down = loss<true>(C, X, Out);
    X[I] = Keep;
    CHECK_CLOSE(DX[I], (Up - Down) / (2 * H), 1e-6);
    CHECK_CLOSE(DX[I], (1 + I % 3) * (2 * Coef[I % K] * X[I] + 3 * X[I] * X[I]),
                1e-12);
    CHECK_CLOSE(DX[I], DXCpu[I], 1e-12);
  }
  double Want = 0;
  for (int I = 0; I < M; ++I) {
    Want += V[I] * DX[I];
    DOut[I] = DBuf[I] = 0;
  }
  double Tangent = adcc::forward(loss<true>, adcc::Dual<const Ctx *>(C, DC),
                                 adcc::Dual<const double *>(X, V),
                                 adcc::Dual<double *>(Out, DOut));
  CHECK_CLOSE(Tangent, Want, 1e-10);
  return check_finish();
}
