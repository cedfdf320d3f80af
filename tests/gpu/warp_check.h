// The check of one function of warp_functions.h, wherever its kernels run:
// Run(Kind, X, E, Out) runs one kernel over the N lanes (32: a CUDA warp,
// 64: an AMDGPU wavefront; Kind 0: values of X into Out; 1: tangents at X
// in the direction E; 2: gradients at X).
// The gradient dL/dx_j is compared with central differences of L and with
// the sum over the lanes of the tangents in the direction e_j. Prints
// "NAME: ok" or a FAIL line per wrong component; returns the failures.
#ifndef ADCC_TESTS_WARP_CHECK_H
#define ADCC_TESTS_WARP_CHECK_H

#include <cmath>
#include <cstdio>

template <class T, int N = 32, class Runner>
int checkWarpFunction(const char *Name, Runner &&Run) {
  const double Tol = sizeof(T) == 8 ? 1e-7 : 2e-3;
  const T H = sizeof(T) == 8 ? T(1e-6) : T(1e-2);
  T X[N], G[N];
  for (int L = 0; L < N; ++L) {
    double U = 32.0 * L / N; // (the lane, scaled to a warp of 32)
    X[L] = T(0.3 + 0.05 * U - 0.002 * U * U);
  }
  Run(2, X, X, G);
  auto Total = [&](const T *At) {
    T Y[N];
    Run(0, At, At, Y);
    double S = 0;
    for (T V : Y)
      S += V;
    return S;
  };
  int Bad = 0;
  for (int J = 0; J < N; ++J) {
    T Plus[N], Minus[N], E[N] = {}, Tan[N];
    for (int L = 0; L < N; ++L)
      Plus[L] = Minus[L] = X[L];
    Plus[J] += H;
    Minus[J] -= H;
    double Fd = (Total(Plus) - Total(Minus)) / (2 * double(H));
    E[J] = 1;
    Run(1, X, E, Tan);
    double Fwd = 0;
    for (T V : Tan)
      Fwd += V;
    double Scale = std::fmax(1.0, std::fabs(Fd));
    if (std::fabs(G[J] - Fd) > Tol * Scale ||
        std::fabs(G[J] - Fwd) > Tol * Scale) {
      std::printf("FAIL %s: dL/dx[%d]: reverse %.12g, central differences "
                  "%.12g, forward %.12g\n",
                  Name, J, double(G[J]), Fd, Fwd);
      ++Bad;
    }
  }
  if (!Bad)
    std::printf("%s: ok\n", Name);
  return Bad;
}

/// checkWarpFunction of the function family F (F##_values, F##_tangents,
/// F##_gradients) of element type T, each run on N lanes by LAUNCH (a
/// model's launch: warp_emulation::launch, wave_emulation::launch).
#define CHECK_WARP_FUNCTION_ON(LAUNCH, N, F, T)                                \
  checkWarpFunction<T, N>(                                                     \
      #F, [](int Kind, const T *X, const T *Dir, T *Out) {                     \
        LAUNCH([&] {                                                           \
          if (Kind == 0)                                                       \
            F##_values(X, Out);                                                \
          else if (Kind == 1)                                                  \
            F##_tangents(X, Dir, Out);                                         \
          else                                                                 \
            F##_gradients(X, Out);                                             \
        });                                                                    \
      })

#endif // ADCC_TESTS_WARP_CHECK_H
