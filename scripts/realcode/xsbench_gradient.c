/* Derivatives of XSBench's macroscopic cross sections
 * (github.com/ANL-CESAR/XSBench, openmp-threading/, unchanged: its
 * Simulation.c is included here, so that the region below calls functions
 * of this file; GridInit.c, Materials.c, XSutils.c and io.c are linked)
 * with respect to the neutrons' energies, the nuclide grids (energies and
 * the five cross sections at each grid point: an array of structs) and the
 * concentrations. The data is XSBench's own (grid_init_do_not_profile, its
 * random generator), with fewer grid points than its defaults. The lookup
 * is the benchmark's: a binary search on the unionized grid, on each
 * nuclide's grid, or a hash table and a search between its bounds; then a
 * linear interpolation through pointers to the two grid points found
 * (`restrict` pointers everywhere). Reverse mode over an OpenMP loop of
 * lookups, forward mode against it, central differences, for the three
 * grid types. With -DXSBENCH_SORTS, optimization 1's sorts instead: its
 * parallel quicksorts (OpenMP tasks, recursion, swaps of keys and values)
 * order the samples by material and then by energy; the derivative of a
 * function of the sorted energies is checked against its analytic value,
 * forward against reverse and central differences (adcc refuses OpenMP
 * tasks today, at the directive). Run by xsbench.sh. */
#include "Simulation.c"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { LOOKUPS = 64 };

/* A weighted sum of the five macroscopic cross sections of LOOKUPS lookups
   (energy E[k], material k % 12), as run_event_based_simulation calls
   calculate_macro_xs. */
static double objective(const double *E, const Inputs *in,
                        const SimulationData *SD) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 3)
  for (int k = 0; k < LOOKUPS; ++k) {
    double m[5] = {0};
    calculate_macro_xs(E[k], k % 12, in->n_isotopes, in->n_gridpoints,
                       SD->num_nucs, SD->concs, SD->unionized_energy_array,
                       SD->index_grid, SD->nuclide_grid, SD->mats, m,
                       in->grid_type, in->hash_bins, SD->max_num_nucs);
    s += m[0] + 0.5 * m[1] - 0.25 * m[2] + 0.125 * m[3] - 0.75 * m[4];
  }
  return s;
}

static int failures = 0;

static void check(const char *what, double got, double want, double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  printf("%s: %.10g, expected %.10g%s\n", what, got, want, ok ? "" : "  FAIL");
  failures += !ok;
}

/* Central difference of the objective in one double *p. */
static double difference(double *p, const double *E, const Inputs *in,
                         const SimulationData *SD) {
  double x = *p, h = 1e-7 * (1 + fabs(x));
  *p = x + h;
  double up = objective(E, in, SD);
  *p = x - h;
  double down = objective(E, in, SD);
  *p = x;
  return (up - down) / (2 * h);
}

/* The shadow: the same integer tables, zeroed floating-point ones. */
static SimulationData shadow_of(const SimulationData *SD) {
  SimulationData d = *SD;
  d.concs = calloc(SD->length_concs, sizeof(double));
  d.nuclide_grid = calloc(SD->length_nuclide_grid, sizeof(NuclideGridPoint));
  d.unionized_energy_array =
      calloc(SD->length_unionized_energy_array + 1, sizeof(double));
  return d;
}

/* The index of nuclide nuc's grid point just below energy e. */
static long point_below(const Inputs *in, const SimulationData *SD, int nuc,
                        double e) {
  long i = grid_search_nuclide(in->n_gridpoints, e,
                               &SD->nuclide_grid[nuc * in->n_gridpoints], 0,
                               in->n_gridpoints - 1);
  return nuc * in->n_gridpoints + i;
}

#ifdef XSBENCH_SORTS
enum { SAMPLES = 30000 };

/* Optimization 1's sorts of the samples (run_event_based_simulation_
   optimization_1: by material, with tasks above 10000 samples, then each
   material's energies), on copies E and mat of E0 and mat0, then a
   weighted sum of the sorted energies' squares. */
static double sorted_objective(const double *E0, const int *mat0, double *E,
                               int *mat) {
  memcpy(E, E0, SAMPLES * sizeof(double));
  memcpy(mat, mat0, SAMPLES * sizeof(int));
  int threads = omp_get_max_threads();
  quickSort_parallel_i_d(mat, E, SAMPLES, threads);
  int count[12] = {0}, offset[12] = {0};
  for (int l = 0; l < SAMPLES; ++l)
    count[mat[l]]++;
  for (int m = 1; m < 12; ++m)
    offset[m] = offset[m - 1] + count[m - 1];
  for (int m = 0; m < 12; ++m)
    quickSort_parallel_d_i(E + offset[m], mat + offset[m], count[m], threads);
  double s = 0;
  for (int l = 0; l < SAMPLES; ++l)
    s += sin(1e-3 * l) * E[l] * E[l];
  return s;
}

static const double *sort_E;
static const int *sort_mat;

static int by_material_energy(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (sort_mat[i] != sort_mat[j])
    return sort_mat[i] < sort_mat[j] ? -1 : 1;
  return sort_E[i] < sort_E[j] ? -1 : sort_E[i] > sort_E[j];
}

/* The sorts' derivatives: sample l lands at position pos(l), so
   d/dE0[l] = 2 sin(1e-3 pos(l)) E0[l]; reverse against that, forward
   against reverse, central differences. */
static void check_sorts(void) {
  double *E0 = malloc(SAMPLES * sizeof(double));
  double *dE0 = calloc(SAMPLES, sizeof(double));
  double *v = malloc(SAMPLES * sizeof(double));
  double *E = malloc(SAMPLES * sizeof(double));
  double *dE = calloc(SAMPLES, sizeof(double));
  int *mat0 = malloc(SAMPLES * sizeof(int)), *mat = malloc(SAMPLES * sizeof(int));
  for (int i = 0; i < SAMPLES; ++i) {
    uint64_t seed = fast_forward_LCG(STARTING_SEED, 2 * i);
    E0[i] = LCG_random_double(&seed);
    mat0[i] = pick_mat(&seed);
    v[i] = cos(0.5 * i);
  }
  __enzyme_autodiff((void *)sorted_objective, enzyme_dup, E0, dE0,
                    enzyme_const, mat0, enzyme_dup, E, dE, enzyme_const, mat);
  /* Where did each sample go? By material, then energy (distinct). */
  int *order = malloc(SAMPLES * sizeof(int)), *pos = malloc(SAMPLES * sizeof(int));
  for (int l = 0; l < SAMPLES; ++l)
    order[l] = l;
  sort_E = E0, sort_mat = mat0;
  qsort(order, SAMPLES, sizeof(int), by_material_energy);
  for (int p = 0; p < SAMPLES; ++p)
    pos[order[p]] = p;
  double worst = 0;
  for (int l = 0; l < SAMPLES; ++l) {
    double want = 2 * sin(1e-3 * pos[l]) * E0[l];
    double err = fabs(dE0[l] - want);
    if (err > worst)
      worst = err;
    if (l % 4000 == 0) {
      char what[64];
      snprintf(what, sizeof what, "sorts: d/dE0[%d] (analytic)", l);
      check(what, dE0[l], want, 1e-12);
    }
  }
  check("sorts: largest error of the gradient (analytic)", worst, 0, 1e-12);
  double *tE = calloc(SAMPLES, sizeof(double));
  double tangent =
      __enzyme_fwddiff((void *)sorted_objective, enzyme_dup, E0, v,
                       enzyme_const, mat0, enzyme_dup, E, tE, enzyme_const, mat);
  double dot = 0;
  for (int l = 0; l < SAMPLES; ++l)
    dot += dE0[l] * v[l];
  check("sorts: forward against reverse", tangent, dot, 1e-9);
  for (int l = 7; l < SAMPLES; l += 7000) {
    double x = E0[l], h = 1e-7;
    E0[l] = x + h;
    double up = sorted_objective(E0, mat0, E, mat);
    E0[l] = x - h;
    double down = sorted_objective(E0, mat0, E, mat);
    E0[l] = x;
    char what[64];
    snprintf(what, sizeof what, "sorts: d/dE0[%d]", l);
    check(what, dE0[l], (up - down) / (2 * h), 1e-5);
  }
  free(E0), free(dE0), free(v), free(E), free(dE), free(mat0), free(mat),
      free(tE), free(order), free(pos);
}

int main(void) {
  check_sorts();
  printf("%s (sorts, %d threads)\n", failures ? "FAIL" : "ok",
         omp_get_max_threads());
  return failures ? 1 : 0;
}
#else
int main(int argc, char **argv) {
  const char *names[] = {"unionized", "nuclide", "hash"};
  Inputs in = {0};
  in.nthreads = 1;
  in.n_isotopes = 68; /* H-M small */
  in.n_gridpoints = 200;
  in.lookups = LOOKUPS;
  in.HM = "small";
  in.grid_type = argc > 1 ? atoi(argv[1]) : UNIONIZED;
  in.hash_bins = 500;
  in.particles = 1;
  in.simulation_method = EVENT_BASED;
  SimulationData SD = grid_init_do_not_profile(in, 1);
  SimulationData dSD = shadow_of(&SD);

  /* Energies away from every grid point (the cross sections are piecewise
     linear in them: at a grid point the derivative jumps). */
  double E[LOOKUPS], dE[LOOKUPS] = {0}, v[LOOKUPS];
  uint64_t seed = STARTING_SEED;
  for (int k = 0; k < LOOKUPS; ++k) {
    E[k] = 0.01 + 0.98 * LCG_random_double(&seed);
    v[k] = cos(1.0 + k);
  }
  __enzyme_autodiff((void *)objective, enzyme_dup, E, dE, enzyme_const, &in,
                    enzyme_dup, &SD, &dSD);

  /* Forward along v over the energies and along w over the grid's cross
     sections, against the gradient. */
  SimulationData tSD = shadow_of(&SD);
  double dot = 0;
  for (int k = 0; k < LOOKUPS; ++k)
    dot += dE[k] * v[k];
  for (int i = 0; i < SD.length_nuclide_grid; i += 7) {
    double w = sin(0.1 * i);
    tSD.nuclide_grid[i].total_xs = w;
    tSD.nuclide_grid[i].fission_xs = -w;
    dot += w * (dSD.nuclide_grid[i].total_xs - dSD.nuclide_grid[i].fission_xs);
  }
  double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, E, v,
                                    enzyme_const, &in, enzyme_dup, &SD, &tSD);
  check("forward against reverse", tangent, dot, 1e-9);

  /* Central differences: energies, the two grid points around lookup 0's
     energy for its material's first nuclide (each field), concentrations. */
  char what[96];
  for (int k = 0; k < LOOKUPS; k += 9) {
    snprintf(what, sizeof what, "d/dE[%d]", k);
    check(what, dE[k], difference(&E[k], E, &in, &SD), 1e-5);
  }
  int nuc = SD.mats[0];
  long lo = point_below(&in, &SD, nuc, E[0]), hi = lo + 1;
  struct {
    const char *name;
    double *value, *shadow;
  } probes[] = {
      {"low point's energy", &SD.nuclide_grid[lo].energy,
       &dSD.nuclide_grid[lo].energy},
      {"high point's energy", &SD.nuclide_grid[hi].energy,
       &dSD.nuclide_grid[hi].energy},
      {"low point's total", &SD.nuclide_grid[lo].total_xs,
       &dSD.nuclide_grid[lo].total_xs},
      {"high point's elastic", &SD.nuclide_grid[hi].elastic_xs,
       &dSD.nuclide_grid[hi].elastic_xs},
      {"low point's absorption", &SD.nuclide_grid[lo].absorbtion_xs,
       &dSD.nuclide_grid[lo].absorbtion_xs},
      {"high point's fission", &SD.nuclide_grid[hi].fission_xs,
       &dSD.nuclide_grid[hi].fission_xs},
      {"low point's nu-fission", &SD.nuclide_grid[lo].nu_fission_xs,
       &dSD.nuclide_grid[lo].nu_fission_xs},
      {"fuel's first concentration", &SD.concs[0], &dSD.concs[0]},
      {"a cladding concentration", &SD.concs[SD.max_num_nucs + 2],
       &dSD.concs[SD.max_num_nucs + 2]},
  };
  for (size_t i = 0; i < sizeof probes / sizeof *probes; ++i) {
    snprintf(what, sizeof what, "d/d %s", probes[i].name);
    check(what, *probes[i].shadow, difference(probes[i].value, E, &in, &SD),
          1e-5);
  }
  printf("%s (%s grid, %d threads)\n", failures ? "FAIL" : "ok",
         names[in.grid_type], omp_get_max_threads());
  return failures ? 1 : 0;
}
#endif
