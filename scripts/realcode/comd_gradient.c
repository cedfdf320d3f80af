/* Derivatives of CoMD (github.com/ECP-copa/CoMD, src-mpi/ built serial as
 * its README says, unchanged: CoMD.c is included here, its main renamed,
 * for its static initSimulation; the other sources are compiled on their
 * own and their derivatives made when adcc links). CoMD's own setup: an FCC
 * lattice of 256 copper atoms with random displacements and velocities,
 * link cells with periodic halo cells, the Lennard-Jones potential.
 *   - The potential energy after a redistribution (atoms moved between
 *     link cells, halo exchange: records of mixed ints and doubles packed
 *     into char buffers by functions called through pointers in a struct,
 *     copied as bytes, each cell's atoms sorted by qsort) and computeForce
 *     (a call through the potential's function pointer): its gradient with
 *     respect to the positions against CoMD's own forces (-f), and with
 *     respect to sigma and epsilon against differences.
 *   - Three velocity-Verlet time steps (timestep: the same, every step)
 *     from a saved state: the gradient of the total energy with respect to
 *     the initial positions and momenta, forward mode along a direction
 *     against it, and central differences.
 * Each with shadows that have their own copies of the integer tables and
 * with shadows that share the primal's (forward mode wrote into the
 * shadow's counts until 2026-12-06, changing the primal's when shared).
 * Run by comd.sh. */
#define main comd_main
#include "CoMD.c"
#undef main
#include "cmdLineParser.c"
#include "decomposition.c"
#include "eam.c"
#include "haloExchange.c"
#include "initAtoms.c"
#include "linkCells.c"
#include "ljForce.c"
#include "mycommand.c"
#include "parallel.c"
#include "performanceTimers.c"
#include "random.c"
#include "timestep.c"
#include "yamlOutput.c"

#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);


/* The serial sendReceiveParallel copies the halo exchange's buffer as
   bytes (memcpy of void *: adcc cannot know which bytes are doubles, and
   refuses it in reverse mode with a located error). Its gradient is given
   here, as a program would for its message passing: the buffers hold
   haloExchange.c's AtomMsg records (this driver runs the atom exchange of
   the Lennard-Jones potential only). */

static int send_receive_aug(void *send, void *dsend, int sendLen, int dest,
                            void *recv, void *drecv, int recvLen, int source) {
  (void)dsend, (void)drecv;
  return sendReceiveParallel(send, sendLen, dest, recv, recvLen, source);
}

static void send_receive_rev(void *send, void *dsend, int sendLen, int dest,
                             void *recv, void *drecv, int recvLen,
                             int source) {
  (void)send, (void)recv, (void)dest, (void)recvLen, (void)source;
  AtomMsg *ds = dsend, *dr = drecv;
  for (int i = 0; i < sendLen / (int)sizeof(AtomMsg); ++i) {
    real_t *from = &dr[i].rx, *to = &ds[i].rx;
    for (int k = 0; k < 6; ++k) {
      to[k] += from[k];
      from[k] = 0;
    }
  }
}

void *__enzyme_register_gradient_sendrecv[] = {
    (void *)sendReceiveParallel, (void *)send_receive_aug,
    (void *)send_receive_rev};

static int failures = 0;

static void check(const char *what, double got, double want, double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  printf("%s: %.10g, expected %.10g%s\n", what, got, want, ok ? "" : "  FAIL");
  failures += !ok;
}

static int slots(SimFlat *s) { return s->boxes->nTotalBoxes * MAXATOMS; }

static void *zeroed(size_t bytes) { return calloc(1, bytes); }

static void *copy_of(const void *p, size_t bytes) {
  return memcpy(malloc(bytes), p, bytes);
}

/* Whether shadows share the primal's integer tables (link cells' counts,
   ids, species: the same pointers, as Enzyme users often build shadow
   structs) or have copies of them. Both are checked. */
static int shared_tables = 0;

static void *ints_of(void *p, size_t bytes) {
  return shared_tables ? p : copy_of(p, bytes);
}

/* A shadow of s: its integer tables (shared or copied; the cell lists
   shared), every floating-point value zero. */
static SimFlat *shadow_of(SimFlat *s) {
  SimFlat *d = malloc(sizeof *d);
  *d = *s;
  d->ePotential = d->eKinetic = 0;
  d->dt = 0;
  d->atoms = malloc(sizeof(Atoms));
  *d->atoms = *s->atoms;
  d->atoms->r = zeroed(slots(s) * sizeof(real3));
  d->atoms->p = zeroed(slots(s) * sizeof(real3));
  d->atoms->f = zeroed(slots(s) * sizeof(real3));
  d->atoms->U = zeroed(slots(s) * sizeof(real_t));
  d->atoms->gid = ints_of(s->atoms->gid, slots(s) * sizeof(int));
  d->atoms->iSpecies = ints_of(s->atoms->iSpecies, slots(s) * sizeof(int));
  d->boxes = malloc(sizeof(LinkCell));
  *d->boxes = *s->boxes;
  d->boxes->nAtoms =
      ints_of(s->boxes->nAtoms, s->boxes->nTotalBoxes * sizeof(int));
  for (int m = 0; m < 3; ++m)
    d->boxes->localMin[m] = d->boxes->localMax[m] = d->boxes->boxSize[m] =
        d->boxes->invBoxSize[m] = 0;
  d->domain = zeroed(sizeof(Domain));
  memcpy(d->domain->procGrid, s->domain->procGrid, sizeof(int[3]));
  memcpy(d->domain->procCoord, s->domain->procCoord, sizeof(int[3]));
  d->species = zeroed(sizeof(SpeciesData));
  LjPotential *pot = malloc(sizeof *pot);
  *pot = *(LjPotential *)s->pot;
  pot->cutoff = pot->mass = pot->lat = 0;
  pot->sigma = pot->epsilon = 0;
  d->pot = (BasePotential *)pot;
  d->atomExchange = malloc(sizeof(HaloExchange));
  *d->atomExchange = *s->atomExchange;
  AtomExchangeParms *parms = malloc(sizeof *parms);
  *parms = *(AtomExchangeParms *)s->atomExchange->parms;
  for (int f = 0; f < 6; ++f)
    parms->pbcFactor[f] = zeroed(3 * sizeof(real_t));
  d->atomExchange->parms = parms;
  return d;
}

/* The potential energy, after a redistribution of the atoms. */
static double potential(SimFlat *s) {
  redistributeAtoms(s);
  computeForce(s);
  return s->ePotential;
}

/* A saved state: the link cells' counts and every atom record. */
typedef struct {
  int *nAtoms, *gid, *iSpecies;
  real3 *r, *p;
} State;

static State save(SimFlat *s) {
  State st = {malloc(s->boxes->nTotalBoxes * sizeof(int)),
              malloc(slots(s) * sizeof(int)), malloc(slots(s) * sizeof(int)),
              malloc(slots(s) * sizeof(real3)), malloc(slots(s) * sizeof(real3))};
  memcpy(st.nAtoms, s->boxes->nAtoms, s->boxes->nTotalBoxes * sizeof(int));
  memcpy(st.gid, s->atoms->gid, slots(s) * sizeof(int));
  memcpy(st.iSpecies, s->atoms->iSpecies, slots(s) * sizeof(int));
  memcpy(st.r, s->atoms->r, slots(s) * sizeof(real3));
  memcpy(st.p, s->atoms->p, slots(s) * sizeof(real3));
  return st;
}

/* The total energy after STEPS time steps from the state st. */
enum { STEPS = 3 };
static double dynamics(SimFlat *s, const State *st) {
  for (int i = 0; i < s->boxes->nTotalBoxes; ++i)
    s->boxes->nAtoms[i] = st->nAtoms[i];
  for (int i = 0; i < slots(s); ++i) {
    s->atoms->gid[i] = st->gid[i];
    s->atoms->iSpecies[i] = st->iSpecies[i];
    for (int m = 0; m < 3; ++m) {
      s->atoms->r[i][m] = st->r[i][m];
      s->atoms->p[i][m] = st->p[i][m];
    }
  }
  redistributeAtoms(s);
  computeForce(s);
  timestep(s, STEPS, s->dt);
  return s->ePotential + s->eKinetic;
}

/* Every check, from a new simulation, with shadows built as
   shared_tables says. */
static void run_checks(void) {
  Command cmd;
  memset(&cmd, 0, sizeof cmd);
  strcpy(cmd.potType, "funcfl");
  cmd.nx = cmd.ny = cmd.nz = 4;
  cmd.xproc = cmd.yproc = cmd.zproc = 1;
  cmd.nSteps = STEPS;
  cmd.printRate = 1;
  cmd.dt = 1.0;
  cmd.lat = -1;
  cmd.temperature = 600;
  cmd.initialDelta = 0.05;
  SimFlat *sim = initSimulation(cmd);
  int nLocal = sim->boxes->nLocalBoxes;
  char what[96];

  /* Potential energy: the gradient against CoMD's forces. */
  SimFlat *ds = shadow_of(sim);
  __enzyme_autodiff((void *)potential, enzyme_dup, sim, ds);
  double worst = 0, largest = 0;
  int checked = 0;
  for (int b = 0; b < nLocal; ++b)
    for (int i = b * MAXATOMS; i < b * MAXATOMS + sim->boxes->nAtoms[b]; ++i)
      for (int m = 0; m < 3; ++m) {
        worst = fmax(worst, fabs(ds->atoms->r[i][m] + sim->atoms->f[i][m]));
        largest = fmax(largest, fabs(sim->atoms->f[i][m]));
        ++checked;
      }
  printf("(%d coordinates, largest force %.6g)\n", checked, largest);
  check("potential: largest |gradient + force|", worst, 0, 1e-10 * largest);
  LjPotential *lj = (LjPotential *)sim->pot, *dlj = (LjPotential *)ds->pot;
  struct {
    const char *name;
    real_t *value, shadow;
  } params[] = {{"sigma", &lj->sigma, dlj->sigma},
                {"epsilon", &lj->epsilon, dlj->epsilon}};
  for (int k = 0; k < 2; ++k) {
    real_t x = *params[k].value, h = 1e-6 * x;
    *params[k].value = x + h;
    double up = potential(sim);
    *params[k].value = x - h;
    double down = potential(sim);
    *params[k].value = x;
    snprintf(what, sizeof what, "potential: d/d %s", params[k].name);
    check(what, params[k].shadow, (up - down) / (2 * h), 1e-6);
  }
  potential(sim);

  /* Three time steps. */
  State st = save(sim), dst = {st.nAtoms, st.gid, st.iSpecies,
                               zeroed(slots(sim) * sizeof(real3)),
                               zeroed(slots(sim) * sizeof(real3))};
  double e0 = dynamics(sim, &st);
  SimFlat *ds2 = shadow_of(sim);
  __enzyme_autodiff((void *)dynamics, enzyme_dup, sim, ds2, enzyme_dup, &st,
                    &dst);
  State tst = {st.nAtoms, st.gid, st.iSpecies,
               zeroed(slots(sim) * sizeof(real3)),
               zeroed(slots(sim) * sizeof(real3))};
  double dot = 0;
  for (int b = 0; b < nLocal; ++b)
    for (int i = b * MAXATOMS; i < b * MAXATOMS + st.nAtoms[b]; ++i)
      for (int m = 0; m < 3; ++m) {
        tst.r[i][m] = cos(0.3 * i + m);
        tst.p[i][m] = 0.01 * sin(0.7 * i + m);
        dot += tst.r[i][m] * dst.r[i][m] + tst.p[i][m] * dst.p[i][m];
      }
  SimFlat *ts = shadow_of(sim);
  double tangent = __enzyme_fwddiff((void *)dynamics, enzyme_dup, sim, ts,
                                    enzyme_dup, &st, &tst);
  printf("(total energy after %d steps: %.10g)\n", STEPS, e0);
  check("dynamics: forward against reverse", tangent, dot, 1e-8);
  for (int b = 0; b < nLocal; b += 1) {
    int i = b * MAXATOMS + b % st.nAtoms[b];
    for (int which = 0; which < 2; ++which) {
      int m = (b + which) % 3;
      real_t *p = which ? &st.p[i][m] : &st.r[i][m], x = *p;
      /* (Small steps: a pair that crosses the cutoff during the steps
         makes a kink, the force being cut there.) */
      real_t h = 1e-7;
      *p = x + h;
      double up = dynamics(sim, &st);
      *p = x - h;
      double down = dynamics(sim, &st);
      *p = x;
      snprintf(what, sizeof what, "dynamics: d/d %s[%d][%d]",
               which ? "p" : "r", i, m);
      check(what, which ? dst.p[i][m] : dst.r[i][m], (up - down) / (2 * h),
            1e-4);
    }
  }
}

int main(int argc, char **argv) {
  initParallel(&argc, &argv);
  for (shared_tables = 0; shared_tables < 2; ++shared_tables) {
    printf("-- shadows with %s integer tables\n",
           shared_tables ? "the primal's" : "their own");
    run_checks();
  }
  printf("%s (CoMD, Lennard-Jones)\n", failures ? "FAIL" : "ok");
  return failures ? 1 : 0;
}
