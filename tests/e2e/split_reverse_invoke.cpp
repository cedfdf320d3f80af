// Split mode (__enzyme_augmentfwd, then __enzyme_reverse of a void
// function) called from a function whose locals have destructors: the
// calls are invokes there, and the reverse sweep's must stay one (before,
// the block lost its terminator: "the module is malformed after
// differentiation").
#include "check.h"

#include <vector>

extern int enzyme_dup;
template <typename R> R __enzyme_augmentfwd(void *, ...);
template <typename R> R __enzyme_reverse(void *, ...);

static void squares(const double *X, double *Y, int N) {
  for (int I = 0; I < N; ++I)
    Y[I] = X[I] * X[I];
}

int main() {
  const int N = 8;
  std::vector<double> X(N), Y(N), DX(N, 0.0), DY(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = 0.5 * I;
  void *Tape = __enzyme_augmentfwd<void *>(
      reinterpret_cast<void *>(squares), enzyme_dup, X.data(), DX.data(),
      enzyme_dup, Y.data(), DY.data(), N);
  for (int I = 0; I < N; ++I)
    DY[I] = 1.0 + I;
  __enzyme_reverse<void>(reinterpret_cast<void *>(squares), enzyme_dup,
                         X.data(), DX.data(), enzyme_dup, Y.data(), DY.data(),
                         N, Tape);
  for (int I = 0; I < N; ++I)
    CHECK_CLOSE(DX[I], 2 * 0.5 * I * (1.0 + I), 1e-15);
  return check_finish();
}
