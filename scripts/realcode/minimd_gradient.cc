// Derivatives through miniMD (github.com/Mantevo/miniMD, target/ unchanged,
// built as its Makefile.openmpi does: OpenMP without offload, one rank),
// its Lennard-Jones system set up as its main does (FCC lattice, random
// velocities, link bins, periodic ghost atoms made by Comm::borders), with
// four atom types whose parameters differ. Checked:
//   - the gradient of the potential energy (Comm::communicate, the ghost
//     atoms' positions copied with periodic shifts, then Force::compute:
//     half neighbor lists, Newton's third law on ghost atoms, OpenMP loops
//     with atomic updates of the forces and a reduction of the energy) with
//     respect to the positions equals minus miniMD's own forces after
//     Comm::reverse_communicate, and with respect to epsilon and sigma^6
//     matches central differences;
//   - Integrate::run for a few steps (velocity Verlet through the
//     integrator's member pointers, timers, the halo update and the forces
//     each step): the gradient of the kinetic energy plus a weighted sum of
//     the positions with respect to the initial positions and velocities
//     against central differences and forward mode.
// Each file of miniMD is compiled on its own, so the derivatives are made
// when adcc links. Run by minimd.sh.
#include "atom.h"
#include "comm.h"
#include "force.h"
#include "integrate.h"
#include "ljs.h"
#include "neighbor.h"
#include "openmp.h"
#include "thermo.h"
#include "threadData.h"
#include "timer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mpi.h>
#include <vector>

void create_box(Atom &, int, int, int, double);
int create_atoms(Atom &, int, int, int, double);
void create_velocity(double, Atom &, Thermo &);

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

namespace {

int failures = 0;

void check(const char *what, double got, double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  std::printf("%s: %.10g, expected %.10g%s\n", what, got, want,
              ok ? "" : "  FAIL");
  failures += !ok;
}

MMD_float *zeros(int n) { return new MMD_float[n](); }

template <typename T> T *copyOf(const T *p, int n) {
  T *c = new T[n];
  std::copy(p, p + n, c);
  return c;
}

// Shadows: copies whose floating-point arrays are new and zero; the
// integer tables (types, send lists) are the primal's copies, since the
// runs below do not rebuild them.
Atom *shadowOf(const Atom &a) {
  Atom *d = static_cast<Atom *>(std::malloc(sizeof(Atom)));
  std::memcpy(static_cast<void *>(d), &a, sizeof(Atom));
  int n = a.nmax * PAD;
  d->x = zeros(n);
  d->v = zeros(n);
  d->f = zeros(n);
  d->xold = zeros(n);
  d->type = copyOf(a.type, a.nmax);
  d->mass = d->virial = 0;
  std::memset(static_cast<void *>(&d->box), 0, sizeof d->box);
  return d;
}

// Neighbor::binatoms stores the box's size, read from the atoms, in the
// neighbor lists' object: it needs a shadow too. Its floating-point fields
// are the box's and bins' sizes (written from the atoms' shadow when the
// lists are built); its integer tables are copies.
Neighbor *shadowOf(const Neighbor &nb, const Atom &a) {
  Neighbor *d = static_cast<Neighbor *>(std::malloc(sizeof(Neighbor)));
  std::memcpy(static_cast<void *>(d), &nb, sizeof(Neighbor));
  d->cutneigh = 0;
  d->cutneighsq = zeros(a.ntypes * a.ntypes);
  // (The lists are as long as the atoms, ghosts included, were when they
  // were built.)
  int nall = a.nlocal + a.nghost;
  d->numneigh = copyOf(nb.numneigh, nall);
  d->neighbors = copyOf(nb.neighbors, nall * nb.maxneighs);
  d->bincount = copyOf(nb.bincount, nb.mbins);
  d->bins = copyOf(nb.bins, nb.mbins * nb.atoms_per_bin);
  return d;
}

// Thermo::compute, which Integrate::run calls each step, stores the
// temperature and energies it measures; setting it up again with a zero
// density makes its arrays new and its private density zero.
Thermo *shadowOf(const Thermo &t, Integrate &integrate, Atom &a) {
  Thermo *d = new Thermo();
  d->nstat = t.nstat;
  d->threads = t.threads;
  d->setup(0.0, integrate, a, 0);
  int n = d->ntimes / d->nstat + 2;
  for (int i = 0; i < n; ++i)
    d->tmparr[i] = d->engarr[i] = d->prsarr[i] = 0;
  d->t_act = d->p_act = d->e_act = 0;
  d->t_scale = d->e_scale = d->p_scale = d->mvv2e = d->dof_boltz = 0;
  return d;
}

Comm *shadowOf(const Comm &c) {
  Comm *d = static_cast<Comm *>(std::malloc(sizeof(Comm)));
  std::memcpy(static_cast<void *>(d), &c, sizeof(Comm));
  d->buf_send = zeros(c.maxsend + 16 * 3 * 64);
  d->buf_recv = zeros(c.maxrecv + 16 * 3 * 64);
  return d;
}

Force *shadowOf(const Force &f) {
  Force *d = static_cast<Force *>(std::malloc(sizeof(Force)));
  std::memcpy(static_cast<void *>(d), &f, sizeof(Force));
  int n = f.ntypes * f.ntypes;
  d->cutforcesq = zeros(n);
  d->epsilon = zeros(n);
  d->sigma6 = zeros(n);
  d->sigma = zeros(n);
  d->cutforce = d->mass = d->eng_vdwl = d->virial = 0;
  return d;
}

// The potential energy as miniMD computes it before its time loop.
double potential(Atom *atom, Force *force, Neighbor *neighbor, Comm *comm) {
  force->evflag = 1;
  comm->communicate(*atom);
  force->compute(*atom, *neighbor, *comm, 0);
  return force->eng_vdwl;
}

double weight(int i) { return 0.1 * std::sin(0.7 * i + 0.3); }

// A few steps of miniMD's integrator; the total energy after them (the
// potential energy of the last step's forces is not computed by run, so
// the kinetic energy and a weighted sum of the positions).
double trajectory(Integrate *integrate, Atom *atom, Force *force,
                  Neighbor *neighbor, Comm *comm, Thermo *thermo,
                  Timer *timer) {
  integrate->setup();
  integrate->run(*atom, force, *neighbor, *comm, *thermo, *timer);
  double s = 0;
  for (int i = 0; i < atom->nlocal * PAD; ++i)
    s += 0.5 * atom->mass * atom->v[i] * atom->v[i] + weight(i) * atom->x[i];
  return s;
}

struct Saved {
  std::vector<MMD_float> x, v, f;
  void save(const Atom &a) {
    int n = (a.nlocal + a.nghost) * PAD;
    x.assign(a.x, a.x + n);
    v.assign(a.v, a.v + n);
    f.assign(a.f, a.f + n);
  }
  void restore(Atom &a) const {
    std::copy(x.begin(), x.end(), a.x);
    std::copy(v.begin(), v.end(), a.v);
    std::copy(f.begin(), f.end(), a.f);
  }
};

struct System {
  Atom atom{4};
  Neighbor neighbor{4};
  Integrate integrate;
  Thermo thermo;
  Comm comm;
  Timer timer;
  ThreadData threads;
  Force *force = new Force(4);
};

// miniMD's main, in.lj.miniMD's settings on a smaller box.
void setUp(System &s, int cells, int steps, int nthreads) {
  In in;
  in.nx = in.ny = in.nz = cells;
  in.t_request = 1.44;
  in.rho = 0.8442;
  in.units = 0;
  in.forcetype = FORCELJ;
  in.epsilon = 1.0;
  in.sigma = 1.0;
  in.datafile = nullptr;
  in.ntimes = steps;
  in.dt = 0.005;
  in.neigh_every = 20;
  in.force_cut = 2.5;
  in.neigh_cut = 2.8;
  in.thermo_nstat = 1000;
  srand(5413);
  Force *force = s.force;
  s.threads.mpi_me = 0;
  s.threads.mpi_num_threads = 1;
  s.threads.omp_num_threads = nthreads;
  s.threads.teams = 1;
  omp_set_num_threads(nthreads);
  s.atom.threads = s.comm.threads = force->threads = s.integrate.threads =
      s.neighbor.threads = s.thermo.threads = &s.threads;
  for (int i = 0; i < 16; i++) {
    force->epsilon[i] = in.epsilon * (1 + 0.05 * i);
    force->sigma[i] = in.sigma;
    force->sigma6[i] = 1 - 0.01 * i;
  }
  s.neighbor.ghost_newton = 1;
  s.neighbor.timer = force->timer = &s.timer;
  s.comm.check_safeexchange = 0;
  s.comm.do_safeexchange = 0;
  force->use_sse = 0;
  s.neighbor.halfneigh = 1;
  MMD_float neighscale = 5.0 / 6.0;
  s.neighbor.nbinx = neighscale * in.nx;
  s.neighbor.nbiny = neighscale * in.ny;
  s.neighbor.nbinz = neighscale * in.nz;
  s.integrate.ntimes = in.ntimes;
  s.integrate.dt = in.dt;
  s.integrate.sort_every = 0;
  s.neighbor.every = in.neigh_every;
  s.neighbor.cutneigh = in.neigh_cut;
  force->cutforce = in.force_cut;
  s.thermo.nstat = in.thermo_nstat;
  create_box(s.atom, in.nx, in.ny, in.nz, in.rho);
  s.comm.setup(s.neighbor.cutneigh, s.atom);
  s.neighbor.setup(s.atom);
  s.integrate.setup();
  force->setup();
  create_atoms(s.atom, in.nx, in.ny, in.nz, in.rho);
  s.thermo.setup(in.rho, s.integrate, s.atom, in.units);
  create_velocity(in.t_request, s.atom, s.thermo);
  // Types vary so that the parameters' gradients are distinct.
  for (int i = 0; i < s.atom.nlocal; ++i)
    s.atom.type[i] = i % 4;
  // Displace the lattice so that the forces are not zero.
  for (int i = 0; i < s.atom.nlocal * PAD; ++i)
    s.atom.x[i] += 0.05 * std::sin(1.3 * i);
  s.comm.exchange(s.atom);
  s.comm.borders(s.atom);
  force->evflag = 1;
  s.neighbor.build(s.atom);
  force->compute(s.atom, s.neighbor, s.comm, 0);
}

void checkForces(System &s) {
  Atom &a = s.atom;
  Saved saved;
  saved.save(a);
  double e = potential(&a, s.force, &s.neighbor, &s.comm);
  s.comm.reverse_communicate(a);
  std::vector<MMD_float> force(a.f, a.f + a.nlocal * PAD);
  saved.restore(a);

  Atom *da = shadowOf(a);
  Comm *dc = shadowOf(s.comm);
  Force *df = shadowOf(*s.force);
  __enzyme_autodiff((void *)potential, enzyme_dup, &a, da, enzyme_dup, s.force,
                    df, enzyme_dup, &s.neighbor, shadowOf(s.neighbor, a),
                    enzyme_dup, &s.comm, dc);
  saved.restore(a);
  std::printf("potential energy %.10g, %d atoms, %d ghosts\n", e, a.nlocal,
              a.nghost);
  double worst = 0;
  for (int i = 0; i < a.nlocal * PAD; ++i)
    worst = std::fmax(worst, std::fabs(da->x[i] + force[i]));
  check("max |dE/dx + f| over every position", worst, 0, 1e-11);
  for (int k : {0, 5, 10, 15}) {
    double *ps[2] = {&s.force->epsilon[k], &s.force->sigma6[k]};
    double gs[2] = {df->epsilon[k], df->sigma6[k]};
    for (int m = 0; m < 2; ++m) {
      double v = *ps[m], h = 1e-6;
      *ps[m] = v + h;
      double up = potential(&a, s.force, &s.neighbor, &s.comm);
      saved.restore(a);
      *ps[m] = v - h;
      double down = potential(&a, s.force, &s.neighbor, &s.comm);
      saved.restore(a);
      *ps[m] = v;
      char what[64];
      std::snprintf(what, sizeof what, "dE/d%s[%d]", m ? "sigma6" : "epsilon",
                    k);
      check(what, gs[m], (up - down) / (2 * h), 1e-6);
    }
  }
}

void checkTrajectory(System &s) {
  Atom &a = s.atom;
  Saved saved;
  saved.save(a);
  auto run = [&]() {
    double r = trajectory(&s.integrate, &a, s.force, &s.neighbor, &s.comm,
                          &s.thermo, &s.timer);
    saved.restore(a);
    return r;
  };
  double e = run();
  Atom *da = shadowOf(a);
  Comm *dc = shadowOf(s.comm);
  Force *df = shadowOf(*s.force);
  Neighbor *dn = shadowOf(s.neighbor, a);
  Thermo *dt = shadowOf(s.thermo, s.integrate, a);
  Integrate *di = new Integrate(s.integrate);
  di->dt = di->dtforce = di->mass = 0;
  std::vector<MMD_float> dx(a.nlocal * PAD), dv(a.nlocal * PAD);
  for (int i = 0; i < a.nlocal * PAD; ++i) {
    dx[i] = std::cos(0.9 * i);
    dv[i] = std::sin(0.4 * i + 1);
  }

  // Forward: the tangent along (dx, dv).
  std::copy(dx.begin(), dx.end(), da->x);
  std::copy(dv.begin(), dv.end(), da->v);
  double tangent = __enzyme_fwddiff(
      (void *)trajectory, enzyme_dup, &s.integrate, di, enzyme_dup, &a, da,
      enzyme_dup, s.force, df, enzyme_dup, &s.neighbor, dn, enzyme_dup, &s.comm,
      dc, enzyme_dup, &s.thermo, dt, enzyme_const, &s.timer);
  saved.restore(a);

  // Reverse: the gradient, with new shadows (the forward run left its
  // tangents in the shadows of the halo buffers and of the integrator's
  // and thermo's fields; reverse mode needs them zero).
  da = shadowOf(a);
  dc = shadowOf(s.comm);
  df = shadowOf(*s.force);
  dn = shadowOf(s.neighbor, a);
  dt = shadowOf(s.thermo, s.integrate, a);
  di = new Integrate(s.integrate);
  di->dt = di->dtforce = di->mass = 0;
  __enzyme_autodiff((void *)trajectory, enzyme_dup, &s.integrate, di,
                    enzyme_dup, &a, da, enzyme_dup, s.force, df, enzyme_dup,
                    &s.neighbor, dn, enzyme_dup, &s.comm, dc, enzyme_dup,
                    &s.thermo, dt, enzyme_const, &s.timer);
  saved.restore(a);
  std::vector<MMD_float> gx(da->x, da->x + a.nlocal * PAD),
      gv(da->v, da->v + a.nlocal * PAD);
  std::printf("objective after %d steps %.10g\n", s.integrate.ntimes, e);

  double along = 0;
  for (int i = 0; i < a.nlocal * PAD; ++i)
    along += gx[i] * dx[i] + gv[i] * dv[i];
  check("forward tangent against the gradient along (dx, dv)", tangent, along,
        1e-9);

  double h = 1e-6;
  for (int i = 0; i < a.nlocal * PAD; ++i) {
    a.x[i] += h * dx[i];
    a.v[i] += h * dv[i];
  }
  saved.save(a);
  double up = run();
  for (int i = 0; i < a.nlocal * PAD; ++i) {
    a.x[i] -= 2 * h * dx[i];
    a.v[i] -= 2 * h * dv[i];
  }
  saved.save(a);
  double down = run();
  for (int i = 0; i < a.nlocal * PAD; ++i) {
    a.x[i] += h * dx[i];
    a.v[i] += h * dv[i];
  }
  saved.save(a);
  check("gradient along (dx, dv) against differences", along,
        (up - down) / (2 * h), 1e-5);
  for (int i : {0, 7, 131, a.nlocal * PAD - 1}) {
    for (int m = 0; m < 2; ++m) {
      MMD_float *p = (m ? a.v : a.x) + i;
      MMD_float v = *p;
      *p = v + h;
      double up = run();
      *p = v - h;
      double down = run();
      *p = v;
      char what[64];
      std::snprintf(what, sizeof what, "d/d%s[%d]", m ? "v" : "x", i);
      check(what, m ? gv[i] : gx[i], (up - down) / (2 * h), 1e-5);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int steps = argc > 1 ? std::atoi(argv[1]) : 5;
  int nthreads = omp_get_max_threads();
  System s;
  setUp(s, 4, steps, nthreads);
  std::printf("%d threads\n", nthreads);
  checkForces(s);
  checkTrajectory(s);
  std::printf("%s\n", failures ? "FAILED" : "all checks pass");
  MPI_Finalize();
  return failures != 0;
}
