// Derivatives through mherb/kalman (github.com/mherb/kalman, a header-only
// C++ library of Kalman filters on Eigen 3, unchanged, with its example
// Robot1's system and measurement models, also unchanged): a planar robot
// (x, y, theta) driven by a velocity and a turn rate, an orientation
// sensor, and the distances to two landmarks.
//
// The objective is a fixed linear function of the filter's final state
// estimate plus half the trace of its covariance after a number of
// predict/update steps, as a function of the initial estimate, the two
// landmarks' positions, every measurement and the system noise's variance:
// the filter and the models are built inside the differentiated function
// (Eigen's fixed-size matrices and expression templates, the models'
// Jacobians, templates over the covariance's representation). Filters:
// the extended filter (S.inverse()), the unscented filter (sigma points
// from Eigen's LLT), and the square-root versions of both (Eigen's
// HouseholderQR of an augmented matrix, LLT rank updates and downdates).
// Checked for each: the gradient by reverse mode against central
// differences, and forward mode along a direction against it. Run by
// kalman.sh; the filter by name (ekf, ukf, srekf, srukf) as an argument.
// KALMAN_NO_EKF, KALMAN_NO_UKF, KALMAN_NO_SREKF and KALMAN_NO_SRUKF leave a
// filter out of the build (an Eigen compile takes minutes a filter).
#include <cmath>
#include <cstdio>
#include <cstring>

// (The example's order: the state is defined in SystemModel.hpp.)
#include "SystemModel.hpp"
#include "OrientationMeasurementModel.hpp"
#include "PositionMeasurementModel.hpp"

#include <kalman/ExtendedKalmanFilter.hpp>
#include <kalman/SquareRootExtendedKalmanFilter.hpp>
#include <kalman/SquareRootUnscentedKalmanFilter.hpp>
#include <kalman/UnscentedKalmanFilter.hpp>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

namespace {

using namespace KalmanExamples;
typedef double T;
typedef Robot1::State<T> State;
typedef Robot1::Control<T> Control;
typedef Robot1::PositionMeasurement<T> PositionMeasurement;
typedef Robot1::OrientationMeasurement<T> OrientationMeasurement;

constexpr int Steps = 12;
// The inputs: initial estimate (3), landmarks (4), system noise variance
// (1), then per step the orientation and the two distances.
constexpr int First = 8;
constexpr int NumInputs = First + 3 * Steps;

Control control(int i) {
  Control u;
  u.v() = 1. + std::sin(T(2) * T(M_PI) / T(Steps));
  u.dtheta() = std::sin(T(2) * T(M_PI) / T(Steps)) * (1 - 2 * (i > Steps / 2));
  return u;
}

template <class Filter, template <class> class CovarianceBase>
double track(const double *p) {
  Robot1::SystemModel<T, CovarianceBase> sys;
  Robot1::PositionMeasurementModel<T, CovarianceBase> pm(p[3], p[4], p[5],
                                                         p[6]);
  Robot1::OrientationMeasurementModel<T, CovarianceBase> om;
  Kalman::Covariance<State> Q;
  Q.setIdentity();
  Q *= p[7];
  sys.setCovariance(Q);
  Filter filter;
  State x0;
  x0 << p[0], p[1], p[2];
  filter.init(x0);
  for (int i = 0; i < Steps; ++i) {
    filter.predict(sys, control(i + 1));
    OrientationMeasurement orientation;
    orientation.theta() = p[First + 3 * i];
    filter.update(om, orientation);
    PositionMeasurement position;
    position.d1() = p[First + 3 * i + 1];
    position.d2() = p[First + 3 * i + 2];
    filter.update(pm, position);
  }
  const State &x = filter.getState();
  Kalman::Covariance<State> P = filter.getCovariance();
  return 0.7 * x.x() - 0.4 * x.y() + 1.3 * x.theta() + 0.5 * P.trace();
}

int failures = 0, checks = 0;

void check(const char *what, int i, double got, double want, double tol,
           double scale) {
  bool ok = std::fabs(got - want) <= tol * (std::fabs(want) + scale) &&
            std::isfinite(got);
  ++checks;
  if (!ok) {
    std::printf("%s [%d]: %.12g, expected %.12g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

// The measurements of a simulated robot, with deterministic noise.
void simulate(double *p) {
  p[0] = 0.1;
  p[1] = -0.2;
  p[2] = 0.05;
  p[3] = -10;
  p[4] = -10;
  p[5] = 30;
  p[6] = 75;
  p[7] = 0.01;
  Robot1::SystemModel<T> sys;
  Robot1::PositionMeasurementModel<T> pm(p[3], p[4], p[5], p[6]);
  Robot1::OrientationMeasurementModel<T> om;
  State x;
  x.setZero();
  for (int i = 0; i < Steps; ++i) {
    x = sys.f(x, control(i + 1));
    x.x() += 0.1 * std::sin(1.7 * i + 0.3);
    x.y() += 0.1 * std::cos(2.3 * i);
    x.theta() += 0.05 * std::sin(0.9 * i + 1);
    p[First + 3 * i] = om.h(x).theta() + 0.025 * std::sin(3.1 * i);
    PositionMeasurement z = pm.h(x);
    p[First + 3 * i + 1] = z.d1() + 0.25 * std::cos(1.3 * i + 0.5);
    p[First + 3 * i + 2] = z.d2() + 0.25 * std::sin(2.9 * i);
  }
}

template <class Filter, template <class> class CovarianceBase>
void checkFilter(const char *name) {
  double p[NumInputs], grad[NumInputs] = {};
  simulate(p);
  double (*f)(const double *) = track<Filter, CovarianceBase>;
  __enzyme_autodiff((void *)f, enzyme_dup, p, grad);
  double size = 0;
  for (double g : grad)
    size = std::fmax(size, std::fabs(g));
  for (int i = 0; i < NumInputs; ++i) {
    double saved = p[i], h = 1e-6 * std::fmax(1, std::fabs(saved));
    p[i] = saved + h;
    double up = f(p);
    p[i] = saved - h;
    double down = f(p);
    p[i] = saved;
    check(name, i, grad[i], (up - down) / (2 * h), 1e-5, 1e-3 * size);
  }
  double dir[NumInputs], dot = 0;
  for (int i = 0; i < NumInputs; ++i) {
    dir[i] = 0.1 * (i % 5) - 0.2;
    dot += dir[i] * grad[i];
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, dir);
  check("forward along a direction", 0, t, dot, 1e-9, size);
  std::printf("%s: objective %.9g, largest derivative %.6g\n", name, f(p),
              size);
}

} // namespace

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "ekf";
  if (false) {
  }
#ifndef KALMAN_NO_EKF
  else if (!std::strcmp(which, "ekf"))
    checkFilter<Kalman::ExtendedKalmanFilter<State>, Kalman::StandardBase>(
        "ekf");
#endif
#ifndef KALMAN_NO_UKF
  else if (!std::strcmp(which, "ukf"))
    checkFilter<Kalman::UnscentedKalmanFilter<State>, Kalman::StandardBase>(
        "ukf");
#endif
#if !defined(KALMAN_NO_SQUARE_ROOT) && !defined(KALMAN_NO_SREKF)
  else if (!std::strcmp(which, "srekf"))
    checkFilter<Kalman::SquareRootExtendedKalmanFilter<State>,
                Kalman::SquareRootBase>("srekf");
#endif
#if !defined(KALMAN_NO_SQUARE_ROOT) && !defined(KALMAN_NO_SRUKF)
  else if (!std::strcmp(which, "srukf"))
    checkFilter<Kalman::SquareRootUnscentedKalmanFilter<State>,
                Kalman::SquareRootBase>("srukf");
#endif
  else {
    std::printf("unknown filter '%s'\n", which);
    return 2;
  }
  std::printf("%s: %d checks, %d failed (kalman %s)\n",
              failures ? "FAIL" : "ok", checks, failures, which);
  return failures ? 1 : 0;
}
