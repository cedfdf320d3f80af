// The gradient of a few time steps of miniWeather
// (github.com/mrnorman/miniWeather, c/, unchanged; MW_SOURCE names the
// variant: miniWeather_serial.cpp or miniWeather_mpi_openmp.cpp) with
// respect to the initial fluid state: perform_timestep's dimensionally
// split Runge-Kutta stages, halo updates, fourth-order reconstructions and
// hyperviscosity, reading the hydrostatic background through global
// pointers and the time step from a global. Reverse mode against central
// differences and forward mode. Output (PnetCDF) is never called: a stub
// header stands in for it (stubs/pnetcdf.h). Run by miniweather.sh.
#define main miniweather_main
#include MW_SOURCE
#undef main

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

namespace {

constexpr int Steps = 3;

size_t stateSize() { return size_t(nx + 2 * hs) * (nz + 2 * hs) * NUM_VARS; }
size_t fluxSize() { return size_t(nx + 1) * (nz + 1) * NUM_VARS; }
size_t tendSize() { return size_t(nx) * nz * NUM_VARS; }

// The weighted sum of the state after Steps steps from s (changed in place).
double objective(double *s, double *tmp, double *fl, double *te) {
  direction_switch = 1;
  for (int n = 0; n < Steps; ++n)
    perform_timestep(s, tmp, fl, te, dt);
  double r = 0;
  for (int ll = 0; ll < NUM_VARS; ++ll)
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i)
        r += std::sin(0.37 * (i + 3 * k + 7 * ll) + 1) *
             s[ll * (nz + 2 * hs) * (nx + 2 * hs) + (k + hs) * (nx + 2 * hs) +
               i + hs];
  return r;
}

double *copyOf(const double *p, size_t n) {
  double *q = new double[n];
  std::copy(p, p + n, q);
  return q;
}

double *zeros(size_t n) { return new double[n](); }

// The objective at s0 (not changed).
double at(const double *s0) {
  double *s = copyOf(s0, stateSize());
  double r = objective(s, zeros(stateSize()), zeros(fluxSize()),
                       zeros(tendSize()));
  delete[] s;
  return r;
}

int failures = 0;

void check(const char *what, double got, double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  if (myrank == 0 || !ok)
    std::printf("%s: %.10g, expected %.10g%s\n", what, got, want,
                ok ? "" : "  FAIL");
  failures += !ok;
}

} // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  size_t n = stateSize();
  double *s0 = copyOf(state, n);
  double *ds = zeros(n);
  {
    double *s = copyOf(s0, n);
    __enzyme_autodiff((void *)objective, enzyme_dup, s, ds, enzyme_dup,
                      zeros(n), zeros(n), enzyme_dup, zeros(fluxSize()),
                      zeros(fluxSize()), enzyme_dup, zeros(tendSize()),
                      zeros(tendSize()));
  }
  // Forward along v, against the gradient.
  double *v = zeros(n), dot = 0;
  for (size_t i = 0; i < n; ++i) {
    v[i] = std::cos(1.3 * double(i) + 0.2) * (1e-3 + 1e-3 * std::fabs(s0[i]));
    dot += v[i] * ds[i];
  }
  double *s = copyOf(s0, n), *tv = copyOf(v, n);
  double tangent = __enzyme_fwddiff(
      (void *)objective, enzyme_dup, s, tv, enzyme_dup, zeros(n), zeros(n),
      enzyme_dup, zeros(fluxSize()), zeros(fluxSize()), enzyme_dup,
      zeros(tendSize()), zeros(tendSize()));
  check("forward against reverse", tangent, dot, 1e-8);
  // Central differences along v and for interior cells of each variable.
  double *p = copyOf(s0, n), *m = copyOf(s0, n);
  double h = 1e-3;
  for (size_t i = 0; i < n; ++i) {
    p[i] += h * v[i];
    m[i] -= h * v[i];
  }
  check("differences along v", (at(p) - at(m)) / (2 * h), dot, 1e-5);
  char what[64];
  for (int ll = 0; ll < NUM_VARS; ++ll) {
    size_t i = ll * (nz + 2 * hs) * (nx + 2 * hs) + (nz / 2 + hs) * (nx + 2 * hs) +
               nx / 3 + hs;
    double e = 1e-6 * (1 + std::fabs(s0[i]));
    std::copy(s0, s0 + n, p);
    std::copy(s0, s0 + n, m);
    p[i] += e;
    m[i] -= e;
    std::snprintf(what, sizeof what, "d/dstate[var %d, cell %zu]", ll, i);
    check(what, ds[i], (at(p) - at(m)) / (2 * e), 1e-5);
  }
  if (myrank == 0)
    std::printf("%s (%d rank(s))\n", failures ? "FAIL" : "ok", nranks);
  int status = failures ? 1 : 0;
  finalize();
  return status;
}
