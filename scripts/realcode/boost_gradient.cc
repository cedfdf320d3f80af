// Derivatives through Boost (the installed headers, unchanged): odeint's
// adaptive steppers and Boost.Math's special functions.
//
//  odeint: a forced, damped pendulum with a parameter vector, integrated by
//  integrate_adaptive with the controlled Dormand-Prince 5 stepper
//  (make_controlled: error estimates, step-size control with rejected and
//  retried steps), its dense-output form (make_dense_output), controlled
//  Cash-Karp 5(4) and Runge-Kutta-Fehlberg 7(8), and integrate_const with
//  the classic RK4; the state a std::vector<double> resized by the
//  steppers, the system a functor holding the parameters. The gradient of a
//  weighted final state with respect to the initial state and the
//  parameters: reverse mode against central differences (the step sizes
//  chosen are functions of the state, differentiated as computed; a step
//  rejected or accepted is a branch that small differences do not cross)
//  and forward mode along a direction.
//
//  Boost.Math: tgamma, lgamma, digamma, erf, erfc, erf_inv, beta, ibeta,
//  gamma_p, gamma_q, cyl_bessel_j, cyl_bessel_i, cyl_bessel_k, expint,
//  zeta, log1p, expm1 and sinc (rational approximations, Lanczos sums,
//  series and continued fractions stopped at a tolerance, policies that
//  raise errors by exceptions): each derivative by reverse and forward mode
//  against its analytic value where one is known (digamma for lgamma,
//  polygamma(1) for digamma, the density for erf and gamma_p, ...) and
//  central differences. Run by boost.sh.
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/bessel_prime.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/expint.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <boost/math/special_functions/sinc.hpp>
#include <boost/math/special_functions/zeta.hpp>
#include <boost/numeric/odeint.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

namespace {

namespace odeint = boost::numeric::odeint;
namespace bm = boost::math;
typedef std::vector<double> State;

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

// theta'' = -k sin(theta) - c theta' + a cos(w t), and a third component
// integrating theta^2 (a running cost).
struct Pendulum {
  double k, c, a, w;
  void operator()(const State &x, State &dxdt, double t) const {
    dxdt[0] = x[1];
    dxdt[1] = -k * std::sin(x[0]) - c * x[1] + a * std::cos(w * t);
    dxdt[2] = x[0] * x[0];
  }
};

enum Method { Dopri5, Dopri5Dense, CashKarp, Fehlberg78, Rk4Const };
const char *const MethodName[] = {"dopri5 controlled", "dopri5 dense output",
                                  "cash-karp54 controlled",
                                  "fehlberg78 controlled", "rk4 const"};

// p: theta0, omega0, k, c, a, w.
constexpr int NumOde = 6;

template <Method M> double integrate(const double *p) {
  State x = {p[0], p[1], 0.0};
  Pendulum sys{p[2], p[3], p[4], p[5]};
  const double t0 = 0, t1 = 3, dt = 0.1, abs = 1e-10, rel = 1e-10;
  if (M == Dopri5)
    odeint::integrate_adaptive(
        odeint::make_controlled(abs, rel, odeint::runge_kutta_dopri5<State>()),
        sys, x, t0, t1, dt);
  else if (M == Dopri5Dense)
    odeint::integrate_adaptive(
        odeint::make_dense_output(abs, rel,
                                  odeint::runge_kutta_dopri5<State>()),
        sys, x, t0, t1, dt);
  else if (M == CashKarp)
    odeint::integrate_adaptive(
        odeint::make_controlled(abs, rel,
                                odeint::runge_kutta_cash_karp54<State>()),
        sys, x, t0, t1, dt);
  else if (M == Fehlberg78)
    odeint::integrate_adaptive(
        odeint::make_controlled(abs, rel,
                                odeint::runge_kutta_fehlberg78<State>()),
        sys, x, t0, t1, dt);
  else
    odeint::integrate_const(odeint::runge_kutta4<State>(), sys, x, t0, t1,
                            0.01);
  return 0.8 * x[0] - 0.5 * x[1] + 0.3 * x[2];
}

template <Method M> void checkOde() {
  double p[NumOde] = {0.4, -0.2, 2.0, 0.3, 0.5, 1.3}, g[NumOde] = {};
  double (*f)(const double *) = integrate<M>;
  __enzyme_autodiff((void *)f, enzyme_dup, p, g);
  double size = 0, dot = 0, dir[NumOde];
  for (double v : g)
    size = std::fmax(size, std::fabs(v));
  for (int i = 0; i < NumOde; ++i) {
    double s = p[i], h = 1e-6;
    p[i] = s + h;
    double up = f(p);
    p[i] = s - h;
    double down = f(p);
    p[i] = s;
    check(MethodName[M], i, g[i], (up - down) / (2 * h), 1e-5, 1e-3 * size);
    dir[i] = 0.1 * (i % 4) - 0.15;
    dot += dir[i] * g[i];
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, dir);
  check("forward along a direction", M, t, dot, 1e-9, size);
}

// Special functions: x -> F(x) (the other arguments fixed).
#define SPECIAL(name, expr)                                                    \
  double name(double x) { return expr; }
SPECIAL(tgammaF, bm::tgamma(x))
SPECIAL(lgammaF, bm::lgamma(x))
SPECIAL(digammaF, bm::digamma(x))
SPECIAL(erfF, bm::erf(x))
SPECIAL(erfcF, bm::erfc(x))
SPECIAL(erfInvF, bm::erf_inv(x))
SPECIAL(betaF, bm::beta(x, 2.5))
SPECIAL(ibetaF, bm::ibeta(2.0, 3.5, x))
SPECIAL(gammaPF, bm::gamma_p(2.5, x))
SPECIAL(gammaQaF, bm::gamma_q(x, 1.7))
SPECIAL(besselJ0F, bm::cyl_bessel_j(0, x))
SPECIAL(besselJnuF, bm::cyl_bessel_j(1.5, x))
SPECIAL(besselI1F, bm::cyl_bessel_i(1, x))
SPECIAL(besselK0F, bm::cyl_bessel_k(0, x))
SPECIAL(expintF, bm::expint(x))
SPECIAL(zetaF, bm::zeta(x))
SPECIAL(log1pF, bm::log1p(x))
SPECIAL(expm1F, bm::expm1(x))
SPECIAL(sincF, bm::sinc_pi(x))
#undef SPECIAL

constexpr double Pi = 3.141592653589793;

// Reverse and forward mode at x against central differences and, unless
// NaN, the analytic derivative.
template <double (*F)(double)>
void checkSpecial(const char *name, double x, double analytic) {
  double r = __enzyme_autodiff((void *)F, enzyme_out, x);
  double t = __enzyme_fwddiff((void *)F, x, 1.0);
  double h = 1e-6 * std::fmax(1, std::fabs(x));
  double fd = (F(x + h) - F(x - h)) / (2 * h);
  check(name, 0, r, fd, 1e-6, 1e-6);
  check(name, 1, t, r, 1e-12, 1e-12);
  if (!std::isnan(analytic))
    check(name, 2, r, analytic, 1e-11, 1e-12);
}

} // namespace

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "odeint";
  if (!std::strcmp(part, "odeint")) {
    checkOde<Dopri5>();
    checkOde<Dopri5Dense>();
    checkOde<CashKarp>();
    checkOde<Fehlberg78>();
    checkOde<Rk4Const>();
  } else {
    const double x = 1.7, nan = std::nan("");
    checkSpecial<tgammaF>("tgamma", x, bm::tgamma(x) * bm::digamma(x));
    checkSpecial<lgammaF>("lgamma", x, bm::digamma(x));
    checkSpecial<digammaF>("digamma", x, bm::trigamma(x));
    checkSpecial<erfF>("erf", 0.6, 2 / std::sqrt(Pi) * std::exp(-0.36));
    checkSpecial<erfcF>("erfc", 2.2, -2 / std::sqrt(Pi) * std::exp(-4.84));
    checkSpecial<erfInvF>(
        "erf_inv", 0.3,
        std::sqrt(Pi) / 2 * std::exp(std::pow(bm::erf_inv(0.3), 2)));
    checkSpecial<betaF>("beta", x,
                        bm::beta(x, 2.5) *
                            (bm::digamma(x) - bm::digamma(x + 2.5)));
    checkSpecial<ibetaF>("ibeta", 0.35, bm::ibeta_derivative(2.0, 3.5, 0.35));
    checkSpecial<gammaPF>("gamma_p", x, bm::gamma_p_derivative(2.5, x));
    checkSpecial<gammaQaF>("gamma_q in a", 2.3, nan);
    checkSpecial<besselJ0F>("cyl_bessel_j(0)", 2.4, -bm::cyl_bessel_j(1, 2.4));
    checkSpecial<besselJnuF>("cyl_bessel_j(1.5)", 3.1,
                             bm::cyl_bessel_j_prime(1.5, 3.1));
    checkSpecial<besselI1F>("cyl_bessel_i(1)", 0.8,
                            bm::cyl_bessel_i_prime(1, 0.8));
    checkSpecial<besselK0F>("cyl_bessel_k(0)", 1.2, -bm::cyl_bessel_k(1, 1.2));
    checkSpecial<expintF>("expint", 0.9, std::exp(0.9) / 0.9);
    checkSpecial<zetaF>("zeta", 2.5, nan);
    checkSpecial<log1pF>("log1p", 0.03, 1 / 1.03);
    checkSpecial<expm1F>("expm1", -0.2, std::exp(-0.2));
    checkSpecial<sincF>("sinc_pi", 0.7,
                        (0.7 * std::cos(0.7) - std::sin(0.7)) / (0.7 * 0.7));
  }
  std::printf("%s: %d checks, %d failed (boost %s)\n",
              failures ? "FAIL" : "ok", checks, failures, part);
  return failures ? 1 : 0;
}
