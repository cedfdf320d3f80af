/* Derivatives of RSBench's macroscopic cross sections
 * (github.com/ANL-CESAR/RSBench, openmp-threading/, unchanged: its
 * simulation.c is included here, so that the region below calls functions
 * of this file; init.c, material.c, utils.c and io.c are linked) with
 * respect to the
 * neutrons' energies and the nuclear data: the windowed multipole poles
 * (complex numbers as structs of two doubles, returned by value), window
 * backgrounds, concentrations and l-value phases. The data is RSBench's
 * own (initialize_simulation, its random generator), smaller than its
 * defaults. calculate_macro_xs takes the Input and SimulationData structs
 * by value (a struct of 13 pointers and lengths); with Doppler broadening
 * it evaluates the Faddeeva function (two branches, fast_cexp). Reverse
 * mode over an OpenMP loop of lookups, forward mode against it, central
 * differences. Run by rsbench.sh. */
#include "simulation.c"

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { LOOKUPS = 48 };

/* A weighted sum of the four macroscopic cross sections of LOOKUPS lookups
   (energy E[k], material k % 12). */
static double objective(const double *E, const Input *in,
                        const SimulationData *SD) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 4)
  for (int k = 0; k < LOOKUPS; ++k) {
    double m[4];
    calculate_macro_xs(m, k % 12, E[k], *in, *SD);
    s += m[0] + 0.5 * m[1] - 0.25 * m[2] + 0.125 * m[3];
  }
  return s;
}

static void *zeroed_copy(const void *p, size_t bytes) {
  void *q = calloc(1, bytes);
  (void)p;
  return q;
}

static int failures = 0;

static void check(const char *what, double got, double want, double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  printf("%s: %.10g, expected %.10g%s\n", what, got, want, ok ? "" : "  FAIL");
  failures += !ok;
}

/* Central difference of the objective in one double *p. */
static double difference(double *p, const double *E, const Input *in,
                         const SimulationData *SD) {
  double x = *p, h = 1e-6 * (1 + fabs(x));
  *p = x + h;
  double up = objective(E, in, SD);
  *p = x - h;
  double down = objective(E, in, SD);
  *p = x;
  return (up - down) / (2 * h);
}

int main(int argc, char **argv) {
  Input in = {0};
  in.nthreads = 1;
  in.n_nuclides = 68;
  in.lookups = LOOKUPS;
  in.HM = SMALL;
  in.avg_n_poles = 24;
  in.avg_n_windows = 6;
  in.numL = 4;
  in.doppler = argc > 1 ? atoi(argv[1]) : 1;
  in.particles = 1;
  in.simulation_method = EVENT_BASED;
  SimulationData SD = initialize_simulation(in);

  /* The shadow: the same integer tables, zeroed floating-point ones. */
  SimulationData dSD = SD;
  dSD.poles = zeroed_copy(SD.poles, SD.length_poles * sizeof(Pole));
  dSD.windows = zeroed_copy(SD.windows, SD.length_windows * sizeof(Window));
  dSD.concs = zeroed_copy(SD.concs, SD.length_concs * sizeof(double));
  dSD.pseudo_K0RS =
      zeroed_copy(SD.pseudo_K0RS, SD.length_pseudo_K0RS * sizeof(double));
  for (size_t i = 0; i < SD.length_windows; ++i) {
    dSD.windows[i].start = SD.windows[i].start;
    dSD.windows[i].end = SD.windows[i].end;
  }
  for (size_t i = 0; i < SD.length_poles; ++i)
    dSD.poles[i].l_value = SD.poles[i].l_value;

  double E[LOOKUPS], dE[LOOKUPS] = {0}, v[LOOKUPS];
  uint64_t seed = STARTING_SEED;
  /* (RSBench's Faddeeva approximation has near-singular points, where its
     cross sections reach 1e17 and differences see only those: energies
     there are drawn again.) */
  for (int k = 0; k < LOOKUPS; ++k) {
    double m[4];
    do {
      E[k] = 0.02 + 0.96 * LCG_random_double(&seed);
      calculate_macro_xs(m, k % 12, E[k], in, SD);
    } while (fabs(m[0]) + fabs(m[1]) + fabs(m[2]) > 1e4);
    v[k] = cos(1.0 + k);
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, E, dE, enzyme_const, &in,
                    enzyme_dup, &SD, &dSD);

  /* Forward along v over the energies, against the gradient. */
  SimulationData tSD = SD;
  tSD.poles = zeroed_copy(SD.poles, SD.length_poles * sizeof(Pole));
  tSD.windows = zeroed_copy(SD.windows, SD.length_windows * sizeof(Window));
  tSD.concs = zeroed_copy(SD.concs, SD.length_concs * sizeof(double));
  tSD.pseudo_K0RS =
      zeroed_copy(SD.pseudo_K0RS, SD.length_pseudo_K0RS * sizeof(double));
  double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, E, v,
                                    enzyme_const, &in, enzyme_dup, &SD, &tSD);
  double dot = 0;
  for (int k = 0; k < LOOKUPS; ++k)
    dot += dE[k] * v[k];
  check("forward along the energies against reverse", tangent, dot, 1e-9);

  /* Central differences: energies, a pole's fields, a window's background,
     a concentration, an l-value phase. */
  char what[96];
  for (int k = 0; k < LOOKUPS; k += 11) {
    snprintf(what, sizeof what, "d/dE[%d]", k);
    check(what, dE[k], difference(&E[k], E, &in, &SD), 1e-5);
  }
  /* The first nuclide of lookup 0's material, the window its energy
     falls in, that window's first pole. */
  int nuc = SD.mats[0];
  int win = (int)(E[0] * SD.n_windows[nuc]);
  if (win == SD.n_windows[nuc])
    --win;
  int wi = nuc * SD.max_num_windows + win;
  int p = nuc * SD.max_num_poles + SD.windows[wi].start;
  if (SD.windows[wi].end <= SD.windows[wi].start)
    printf("(no pole in the window probed)\n");
  struct {
    const char *name;
    double *value, *shadow;
  } probes[] = {
      {"pole EA.r", &SD.poles[p].MP_EA.r, &dSD.poles[p].MP_EA.r},
      {"pole EA.i", &SD.poles[p].MP_EA.i, &dSD.poles[p].MP_EA.i},
      {"pole RT.r", &SD.poles[p].MP_RT.r, &dSD.poles[p].MP_RT.r},
      {"pole RA.i", &SD.poles[p].MP_RA.i, &dSD.poles[p].MP_RA.i},
      {"pole RF.r", &SD.poles[p].MP_RF.r, &dSD.poles[p].MP_RF.r},
      {"window T", &SD.windows[wi].T, &dSD.windows[wi].T},
      {"window F", &SD.windows[wi].F, &dSD.windows[wi].F},
      {"concentration", &SD.concs[0], &dSD.concs[0]},
      {"l-value phase", &SD.pseudo_K0RS[nuc * in.numL + 2],
       &dSD.pseudo_K0RS[nuc * in.numL + 2]},
  };
  for (size_t i = 0; i < sizeof probes / sizeof *probes; ++i) {
    snprintf(what, sizeof what, "d/d %s", probes[i].name);
    check(what, *probes[i].shadow,
          difference(probes[i].value, E, &in, &SD), 1e-5);
  }
  printf("%s (doppler %d, %d threads)\n", failures ? "FAIL" : "ok",
         in.doppler, omp_get_max_threads());
  return failures ? 1 : 0;
}
