// Kernel launches (<adcc/kernels.hpp>, CPU backend): an elementwise kernel
// (saxpy with a nonlinear term) in one and two dimensions, differentiated
// through the host function that launches it: gradient against analytic
// values and central differences, forward against reverse; a kernel
// argument given as adcc::Const; a pointer argument that carries no
// derivative in the host function (its data is constant there) passed to
// the kernel as it is; two launches in a row; the same
// derivatives through __enzyme_autodiff / __enzyme_fwddiff and the
// ADCC_REVERSE / ADCC_FORWARD attributes; split mode (__enzyme_augmentfwd,
// then __enzyme_reverse after the caller changed the input).
#include "kernels_check.h"

#include <adcc/kernels.hpp>
#include <cmath>

template <typename R> R __enzyme_augmentfwd(void *, ...);
template <typename R> R __enzyme_reverse(void *, ...);

namespace {

constexpr int N = 48;

// y[i] = a * x[i] + sin(y[i]) * x[i], then the loss sum(w[i] * y[i]^2).
ADCC_REVERSE(d_saxpyLoss, Active, Duplicated, Duplicated, Const, Active)
ADCC_FORWARD(t_saxpyLoss, Dual, Dual, Dual, Const, DualOnly)
double saxpyLoss(double A, const double *X, double *Y, const double *W);
double saxpyLoss(double A, const double *X, double *Y, const double *W) {
  auto Kernel = [](const adcc::index &Ix, double A, const double *X, double *Y) {
    std::size_t I = Ix.global_id();
    Y[I] = A * X[I] + std::sin(Y[I]) * X[I];
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(16), A, X, Y);
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += W[I] * Y[I] * Y[I];
  return S;
}

// Two dimensions (6 x 8 in groups of 3 x 4): z[j][i] = c * x[j][i]^2 with a
// constant c, applied twice (the second launch reads the first's result).
double twiceLoss(const double *X, double *Z, double C) {
  auto Kernel = [](const adcc::index &Ix, const double *X, double *Z,
                   double C) {
    std::size_t I = Ix.global_id(0) + 6 * Ix.global_id(1);
    Z[I] = C * X[I] * X[I];
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(6, 8), adcc::range(3, 4), X, Z,
               adcc::Const(C));
  adcc::launch(adcc::cpu, Kernel, adcc::range(6, 8), adcc::range(3, 4),
               static_cast<const double *>(Z), Z, adcc::Const(C));
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Z[I] * (1 + 0.01 * I);
  return S;
}

// w is constant in the gradient below (adcc::Const in the host call), but
// the kernel gets it unwrapped: its shadow in the derivative kernels reads
// as zeros and takes no adjoints, w stays as it is.
double weightedLoss(const double *X, const double *W, double *Y) {
  auto Kernel = [](const adcc::index &Ix, const double *X, const double *W,
                   double *Y) {
    std::size_t I = Ix.global_id();
    Y[I] = X[I] * W[I] * W[I];
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(8), X, W, Y);
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Y[I] * Y[I];
  return S;
}

void checkInactivePointer() {
  std::vector<double> X(N), W(N), Y(N, 0.0), DX(N, 0.0), DY(N, 0.0);
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I - 1;
    W[I] = 1 + 0.05 * I;
  }
  const std::vector<double> W0 = W;
  adcc::gradient(weightedLoss, adcc::Duplicated<const double>(X.data(), DX.data()),
                 adcc::Const<const double *>(W.data()),
                 adcc::Duplicated(Y.data(), DY.data()));
  for (int I = 0; I < N; ++I) {
    CHECK_CLOSE(DX[I], 2 * X[I] * std::pow(W[I], 4), 1e-13);
    CHECK_TRUE(W[I] == W0[I]);
  }
  std::vector<double> V = direction(N), TY(N, 0.0);
  double T = adcc::forward(weightedLoss, adcc::Dual<const double *>(X.data(), V.data()),
                           adcc::Const<const double *>(W.data()),
                           adcc::Dual(Y.data(), TY.data()));
  CHECK_CLOSE(T, dot(DX, V), 1e-12);
  for (int I = 0; I < N; ++I)
    CHECK_TRUE(W[I] == W0[I]);
}

// y[i] = x[i]^2, in split mode.
void squares(const double *X, double *Y) {
  auto Kernel = [](const adcc::index &Ix, const double *X, double *Y) {
    std::size_t I = Ix.global_id();
    Y[I] = X[I] * X[I];
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(4), X, Y);
}

void checkSplit() {
  std::vector<double> X(N), Y(N, 0.0), DX(N, 0.0), DY(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = 0.5 + 0.1 * I;
  const std::vector<double> X0 = X;
  void *Tape = __enzyme_augmentfwd<void *>(
      reinterpret_cast<void *>(squares), enzyme_dup, X.data(), DX.data(),
      enzyme_dup, Y.data(), DY.data());
  for (int I = 0; I < N; ++I) {
    CHECK_CLOSE(Y[I], X0[I] * X0[I], 1e-15);
    DY[I] = 1.0 + I;
    X[I] = -7; // the reverse sweep uses what the augmented one recorded
  }
  __enzyme_reverse<void>(reinterpret_cast<void *>(squares), enzyme_dup,
                         X.data(), DX.data(), enzyme_dup, Y.data(), DY.data(),
                         Tape);
  for (int I = 0; I < N; ++I)
    CHECK_CLOSE(DX[I], 2 * X0[I] * (1.0 + I), 1e-14);
}

void checkSaxpy() {
  std::vector<double> X(N), Y0(N), W(N);
  for (int I = 0; I < N; ++I) {
    X[I] = 0.2 + 0.03 * I;
    Y0[I] = 1.0 - 0.02 * I;
    W[I] = 1.0 + 0.1 * (I % 4);
  }
  const double A = 1.7;
  std::vector<double> Y = Y0, DX(N, 0.0), DY(N, 0.0);
  auto [DA] = adcc::gradient(saxpyLoss, adcc::Active(A),
                             adcc::Duplicated<const double>(X.data(), DX.data()),
                             adcc::Duplicated(Y.data(), DY.data()),
                             adcc::Const<const double *>(W.data()));
  // Analytic: y1 = a x + sin(y0) x, dL/da = sum 2 w y1 x,
  // dL/dx = 2 w y1 (a + sin y0), dL/dy0 = 2 w y1 cos(y0) x.
  double WantA = 0;
  for (int I = 0; I < N; ++I) {
    double Y1 = A * X[I] + std::sin(Y0[I]) * X[I];
    WantA += 2 * W[I] * Y1 * X[I];
    CHECK_CLOSE(DX[I], 2 * W[I] * Y1 * (A + std::sin(Y0[I])), 1e-12);
    CHECK_CLOSE(DY[I], 2 * W[I] * Y1 * std::cos(Y0[I]) * X[I], 1e-12);
    CHECK_CLOSE(Y[I], Y1, 1e-15);
  }
  CHECK_CLOSE(DA, WantA, 1e-12);
  // Central differences in x.
  checkCentral(
      [&](const std::vector<double> &Xs) {
        std::vector<double> Ys = Y0;
        return saxpyLoss(A, Xs.data(), Ys.data(), W.data());
      },
      X, DX, 1e-6);
  // Forward along (da, dx, dy0) against the gradient.
  std::vector<double> VX = direction(N), VY = direction(N + 3);
  VY.resize(N);
  const double VA = 0.3;
  std::vector<double> Ys = Y0, TX = VX, TY = VY;
  double T = adcc::forward(saxpyLoss, adcc::Dual(A, VA),
                           adcc::Dual<const double *>(X.data(), TX.data()),
                           adcc::Dual(Ys.data(), TY.data()),
                           adcc::Const<const double *>(W.data()));
  CHECK_CLOSE(T, DA * VA + dot(DX, VX) + dot(DY, VY), 1e-10);

  // The Enzyme-compatible calls and the attributes give the same numbers.
  std::vector<double> Y2 = Y0, DX2(N, 0.0), DY2(N, 0.0);
  double DA2 = __enzyme_autodiff<double>(
      reinterpret_cast<void *>(saxpyLoss), A, enzyme_dup, X.data(), DX2.data(),
      enzyme_dup, Y2.data(), DY2.data(), enzyme_const, W.data());
  CHECK_CLOSE(DA2, DA, 1e-14);
  std::vector<double> Y3 = Y0, DX3(N, 0.0), DY3(N, 0.0);
  auto R3 = d_saxpyLoss(A, X.data(), DX3.data(), Y3.data(), DY3.data(),
                        W.data(), 1.0);
  CHECK_CLOSE(R3.d_A, DA, 1e-14);
  for (int I = 0; I < N; ++I) {
    CHECK_CLOSE(DX2[I], DX[I], 1e-14);
    CHECK_CLOSE(DY2[I], DY[I], 1e-14);
    CHECK_CLOSE(DX3[I], DX[I], 1e-14);
    CHECK_CLOSE(DY3[I], DY[I], 1e-14);
  }
  std::vector<double> Y4 = Y0, TX4 = VX, TY4 = VY;
  double T4 = __enzyme_fwddiff<double>(
      reinterpret_cast<void *>(saxpyLoss), A, VA, enzyme_dup, X.data(),
      TX4.data(), enzyme_dup, Y4.data(), TY4.data(), enzyme_const, W.data());
  CHECK_CLOSE(T4, T, 1e-14);
  std::vector<double> Y5 = Y0, TY5 = VY;
  double T5 = t_saxpyLoss(A, VA, X.data(), VX.data(), Y5.data(), TY5.data(),
                          W.data());
  CHECK_CLOSE(T5, T, 1e-14);
}

void checkTwice() {
  const double C = 0.8;
  std::vector<double> X(N), Z(N, 0.0), DX(N, 0.0), DZ(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = 0.5 + 0.01 * I;
  adcc::gradient(twiceLoss, adcc::Duplicated<const double>(X.data(), DX.data()),
                 adcc::Duplicated(Z.data(), DZ.data()), adcc::Const(C));
  // z = c (c x^2)^2 = c^3 x^4: dL/dx = (1 + 0.01 i) 4 c^3 x^3.
  for (int I = 0; I < N; ++I)
    CHECK_CLOSE(DX[I], (1 + 0.01 * I) * 4 * C * C * C * std::pow(X[I], 3),
                1e-12);
  checkCentral(
      [&](const std::vector<double> &Xs) {
        std::vector<double> Zs(N, 0.0);
        return twiceLoss(Xs.data(), Zs.data(), C);
      },
      X, DX, 1e-6);
  std::vector<double> V = direction(N), Zs(N, 0.0), TZ(N, 0.0);
  double T = adcc::forward(twiceLoss, adcc::Dual<const double *>(X.data(), V.data()),
                           adcc::Dual(Zs.data(), TZ.data()), adcc::Const(C));
  CHECK_CLOSE(T, dot(DX, V), 1e-10);
}

} // namespace

int main() {
  checkSaxpy();
  checkTwice();
  checkInactivePointer();
  checkSplit();
  return check_finish();
}
