// The gradient of LULESH 2.0's energy after a few cycles, by reverse mode
// and forward mode of adcc, against central differences: a check of adcc
// on a real program it was not written for (docs/testing.md, "Real
// programs"). lulesh.sh compiles it beside a LULESH 2.0 checkout; LULESH's
// sources are included unchanged (its Domain's members made public here to
// build the shadow domain and to perturb them).
//
//   lulesh_gradient [size] [cycles]     (OMP_NUM_THREADS as for LULESH)
//
// LULESH cuts small values to zero (e_cut, u_cut, ...): at a value cut to
// zero its derivative is zero while differences see the other side, so the
// cutoffs are set to zero here, and the probes avoid values that start at
// zero (velocities, energies away from the origin), where LULESH's
// functions have kinks.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#define private public
#define main lulesh_main
#include "lulesh.cc"
#undef main
#undef private

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static double weighted_energy(const Domain &d) {
  double s = 0;
  for (Index_t k = 0; k < d.m_numElem; ++k)
    s += d.m_e[k] * (1 + 0.01 * k);
  return s;
}

static double run(Domain *dom, int cycles) {
  for (int i = 0; i < cycles; ++i) {
    TimeIncrement(*dom);
    LagrangeLeapFrog(*dom);
  }
  return weighted_energy(*dom);
}

// A copy of d whose numbers are all zero: a shadow domain. (Its integer
// tables are copies; its region lists are d's, shared and never freed.)
static Domain *shadow_of(const Domain &d) {
  Domain *s = new Domain(d);
  std::vector<Real_t> Domain::*fields[] = {
      &Domain::m_x,  &Domain::m_y,   &Domain::m_z,   &Domain::m_xd,
      &Domain::m_yd, &Domain::m_zd,  &Domain::m_xdd, &Domain::m_ydd,
      &Domain::m_zdd, &Domain::m_fx, &Domain::m_fy,  &Domain::m_fz,
      &Domain::m_nodalMass, &Domain::m_e, &Domain::m_p, &Domain::m_q,
      &Domain::m_ql, &Domain::m_qq,  &Domain::m_v,   &Domain::m_volo,
      &Domain::m_vnew, &Domain::m_delv, &Domain::m_vdov, &Domain::m_arealg,
      &Domain::m_ss, &Domain::m_elemMass};
  for (auto f : fields)
    for (Real_t &v : s->*f)
      v = 0;
  const Real_t *scalars[] = {
      &s->m_e_cut, &s->m_p_cut, &s->m_q_cut, &s->m_v_cut, &s->m_u_cut,
      &s->m_hgcoef, &s->m_ss4o3, &s->m_qstop, &s->m_monoq_max_slope,
      &s->m_monoq_limiter_mult, &s->m_qlc_monoq, &s->m_qqc_monoq, &s->m_qqc,
      &s->m_eosvmax, &s->m_eosvmin, &s->m_pmin, &s->m_emin, &s->m_dvovmax,
      &s->m_refdens, &s->m_dtcourant, &s->m_dthydro, &s->m_dtfixed,
      &s->m_time, &s->m_deltatime, &s->m_deltatimemultlb,
      &s->m_deltatimemultub, &s->m_dtmax, &s->m_stoptime};
  for (const Real_t *v : scalars)
    *const_cast<Real_t *>(v) = 0;
  return s;
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? std::atoi(argv[1]) : 5;
  int cycles = argc > 2 ? std::atoi(argv[2]) : 3;
  Int_t col, row, plane, side;
  InitMeshDecomp(1, 0, &col, &row, &plane, &side);
  Domain *orig = new Domain(1, col, row, plane, nx, side, 11, 1, 1);
  for (const Real_t *cut : {&orig->m_e_cut, &orig->m_p_cut, &orig->m_q_cut,
                            &orig->m_v_cut, &orig->m_u_cut})
    *const_cast<Real_t *>(cut) = 0;

  Domain *dom = new Domain(*orig), *grad = shadow_of(*orig);
  __enzyme_autodiff((void *)run, enzyme_dup, dom, grad, enzyme_const, cycles);

  struct Probe {
    const char *name;
    std::vector<Real_t> Domain::*field;
    Index_t k;
  } probes[] = {{"e", &Domain::m_e, 0},       {"x", &Domain::m_x, 1},
                {"y", &Domain::m_y, nx + 2},  {"z", &Domain::m_z, 2 * nx + 3},
                {"volo", &Domain::m_volo, 0}, {"volo", &Domain::m_volo, nx + 1}};
  int failed = 0;
  for (const Probe &p : probes) {
    double h = 1e-6 * std::fmax(1.0, std::fabs((orig->*p.field)[p.k]));
    Domain *up = new Domain(*orig), *down = new Domain(*orig);
    (up->*p.field)[p.k] += h;
    (down->*p.field)[p.k] -= h;
    double fd = (run(up, cycles) - run(down, cycles)) / (2 * h);
    // Forward mode along the same coordinate.
    Domain *at = new Domain(*orig), *dir = shadow_of(*orig);
    (dir->*p.field)[p.k] = 1;
    double fwd = __enzyme_fwddiff((void *)run, enzyme_dup, at, dir,
                                  enzyme_const, cycles);
    double rev = (grad->*p.field)[p.k];
    double scale = std::fmax(1.0, std::fabs(fd));
    bool ok = std::fabs(rev - fd) <= 1e-5 * scale &&
              std::fabs(fwd - rev) <= 1e-9 * scale;
    failed += !ok;
    std::printf("d/d%s[%d]: reverse %.10g forward %.10g differences %.10g%s\n",
                p.name, (int)p.k, rev, fwd, fd, ok ? "" : "  MISMATCH");
  }
  std::printf(failed ? "%d mismatches\n" : "ok\n", failed);
  return failed != 0;
}
