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

/// The tangents of two directions at once (batched forward mode, width 2)
/// against those of each direction alone: Run(X, E1, E2, T1, T2) runs the
/// batched kernel, Single(X, E, T) the width-1 one. Directions e_j and
/// e_j + e_{N-1-j} / 2 for every lane j. Prints "NAME: width 2 ok".
template <class T, int N = 32, class Batched, class Single>
int checkWarpBatched(const char *Name, Batched &&Run, Single &&One) {
  const double Tol = sizeof(T) == 8 ? 1e-12 : 1e-5;
  T X[N];
  for (int L = 0; L < N; ++L) {
    double U = 32.0 * L / N;
    X[L] = T(0.3 + 0.05 * U - 0.002 * U * U);
  }
  int Bad = 0;
  for (int J = 0; J < N; ++J) {
    T E1[N] = {}, E2[N] = {}, B1[N], B2[N], S1[N], S2[N];
    E1[J] = 1;
    E2[J] = 1;
    E2[N - 1 - J] += T(0.5);
    Run(X, E1, E2, B1, B2);
    One(X, E1, S1);
    One(X, E2, S2);
    for (int L = 0; L < N; ++L) {
      double Scale = std::fmax(1.0, std::fabs(double(S1[L])) +
                                        std::fabs(double(S2[L])));
      if (std::fabs(double(B1[L] - S1[L])) > Tol * Scale ||
          std::fabs(double(B2[L] - S2[L])) > Tol * Scale) {
        std::printf("FAIL %s width 2: lane %d, directions %d: batched %.12g "
                    "%.12g, one at a time %.12g %.12g\n",
                    Name, L, J, double(B1[L]), double(B2[L]), double(S1[L]),
                    double(S2[L]));
        ++Bad;
      }
    }
  }
  if (!Bad)
    std::printf("%s: width 2 ok\n", Name);
  return Bad;
}

/// The gradients of two weighted sums at once (batched reverse mode, width
/// 2: seeds S = 1 and S2 = w_l on lane l) against the tangents:
/// d(sum_l w_l y_l)/dx_j = sum_l w_l t_l(e_j). Run(X, S, S2, G, G2) runs the
/// batched kernel, Tangent(X, E, T) the width-1 tangent kernel. Prints
/// "NAME: reverse width 2 ok".
template <class T, int N = 32, class Batched, class Tangent>
int checkWarpBatchedReverse(const char *Name, Batched &&Run, Tangent &&Tan) {
  const double Tol = sizeof(T) == 8 ? 1e-11 : 1e-5;
  T X[N], S[N], S2[N], G[N], G2[N];
  for (int L = 0; L < N; ++L) {
    double U = 32.0 * L / N;
    X[L] = T(0.3 + 0.05 * U - 0.002 * U * U);
    S[L] = 1;
    S2[L] = T(0.5 + 0.03 * U);
  }
  Run(X, S, S2, G, G2);
  int Bad = 0;
  for (int J = 0; J < N; ++J) {
    T E[N] = {}, Out[N];
    E[J] = 1;
    Tan(X, E, Out);
    double Want = 0, Want2 = 0, Size = 1;
    for (int L = 0; L < N; ++L) {
      Want += Out[L];
      Want2 += double(S2[L]) * Out[L];
      Size += std::fabs(double(Out[L]));
    }
    if (std::fabs(G[J] - Want) > Tol * Size ||
        std::fabs(G2[J] - Want2) > Tol * Size) {
      std::printf("FAIL %s reverse width 2: dx[%d]: batched %.12g %.12g, "
                  "from tangents %.12g %.12g\n",
                  Name, J, double(G[J]), double(G2[J]), Want, Want2);
      ++Bad;
    }
  }
  if (!Bad)
    std::printf("%s: reverse width 2 ok\n", Name);
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

/// checkWarpBatched of F##_tangents2 against F##_tangents, run by LAUNCH.
#define CHECK_WARP_BATCHED_ON(LAUNCH, N, F, T)                                 \
  checkWarpBatched<T, N>(                                                      \
      #F,                                                                      \
      [](const T *X, const T *D1, const T *D2, T *T1, T *T2) {                 \
        LAUNCH([&] { F##_tangents2(X, D1, D2, T1, T2); });                     \
      },                                                                       \
      [](const T *X, const T *D, T *Out) {                                     \
        LAUNCH([&] { F##_tangents(X, D, Out); });                              \
      })

/// checkWarpBatchedReverse of F##_gradients2 against F##_tangents.
#define CHECK_WARP_BATCHED_REVERSE_ON(LAUNCH, N, F, T)                         \
  checkWarpBatchedReverse<T, N>(                                               \
      #F,                                                                      \
      [](const T *X, const T *S1, const T *S2, T *G1, T *G2) {                 \
        LAUNCH([&] { F##_gradients2(X, S1, S2, G1, G2); });                    \
      },                                                                       \
      [](const T *X, const T *D, T *Out) {                                     \
        LAUNCH([&] { F##_tangents(X, D, Out); });                              \
      })

#endif // ADCC_TESTS_WARP_CHECK_H
