/* Derivatives of Rodinia's cfd (openmp/cfd/euler3d_cpu_double.cpp,
 * included unchanged, its main renamed): the unstructured finite-volume
 * Euler solver in double (structs of three doubles passed by reference to
 * inline helpers, neighbours through an index table with wall and far-field
 * faces, artificial viscosity, OpenMP loops in compute_step_factor,
 * compute_flux, time_step and the template copy), two iterations of its
 * main loop (three Runge-Kutta stages each) on a synthetic mesh of 64 cells
 * (the program reads its meshes from files that are not in the
 * repository). The gradient of a weighted sum of the final variables with
 * respect to the initial variables, the face normals and the cells' areas
 * by reverse mode, forward mode along a direction against it, and central
 * differences. Run by rodinia.sh. */
#define block_length 8
#define main cfd_main
#include "euler3d_cpu_double.cpp"
#undef main

#include "rodinia_check.h"

#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { NEL = 64, STEPS = 2 };

/* The far field, as cfd's main sets it (angle of attack 0). */
static void set_far_field() {
  ff_variable[VAR_DENSITY] = 1.4;
  double ff_pressure = 1.0;
  double ff_speed_of_sound = sqrt(GAMMA * ff_pressure / ff_variable[VAR_DENSITY]);
  double ff_speed = ff_mach * ff_speed_of_sound;
  double3 ff_velocity = {ff_speed, 0, 0};
  ff_variable[VAR_MOMENTUM + 0] = ff_variable[VAR_DENSITY] * ff_velocity.x;
  ff_variable[VAR_MOMENTUM + 1] = 0;
  ff_variable[VAR_MOMENTUM + 2] = 0;
  ff_variable[VAR_DENSITY_ENERGY] =
      ff_variable[VAR_DENSITY] * (0.5 * (ff_speed * ff_speed)) +
      (ff_pressure / (GAMMA - 1.0));
  double3 ff_momentum = {ff_variable[VAR_MOMENTUM + 0], 0, 0};
  compute_flux_contribution(ff_variable[VAR_DENSITY], ff_momentum,
                            ff_variable[VAR_DENSITY_ENERGY], ff_pressure,
                            ff_velocity, ff_flux_contribution_momentum_x,
                            ff_flux_contribution_momentum_y,
                            ff_flux_contribution_momentum_z,
                            ff_flux_contribution_density_energy);
}

/* STEPS iterations of cfd's main loop from initial variables v0 (copied
   into variables); old, fluxes and factors are its work arrays. */
static double objective(const double *v0, double *normals, double *areas,
                        int *neighbours, double *variables, double *old,
                        double *fluxes, double *factors) {
  for (int i = 0; i < NEL * NVAR; ++i)
    variables[i] = v0[i];
  for (int i = 0; i < STEPS; i++) {
    copy<double>(old, variables, NEL * NVAR);
    compute_step_factor(NEL, variables, areas, factors);
    for (int j = 0; j < RK; j++) {
      compute_flux(NEL, neighbours, normals, variables, fluxes);
      time_step(j, NEL, old, variables, factors, fluxes);
    }
  }
  double s = 0;
  for (int i = 0; i < NEL * NVAR; ++i)
    s += cos(0.3 * i) * variables[i];
  return s;
}

struct Arrays {
  std::vector<double> v0, normals, areas, variables, old, fluxes, factors;
  Arrays()
      : v0(NEL * NVAR), normals(NEL * NNB * NDIM), areas(NEL),
        variables(NEL * NVAR), old(NEL * NVAR), fluxes(NEL * NVAR),
        factors(NEL) {}
};

static std::vector<int> neighbours(NEL *NNB);

static double run(Arrays &a) {
  return objective(a.v0.data(), a.normals.data(), a.areas.data(),
                   neighbours.data(), a.variables.data(), a.old.data(),
                   a.fluxes.data(), a.factors.data());
}

int main() {
  set_far_field();
  /* An 8x8 periodic grid of cells; faces -x, +x, -y, +y; the -x faces of
     column 0 are walls, the +y faces of row 7 far field. */
  Arrays a;
  for (int i = 0; i < NEL; ++i) {
    int x = i % 8, y = i / 8;
    int nb[4] = {y * 8 + (x + 7) % 8, y * 8 + (x + 1) % 8,
                 ((y + 7) % 8) * 8 + x, ((y + 1) % 8) * 8 + x};
    if (x == 0)
      nb[0] = -1;
    if (y == 7)
      nb[3] = -2;
    double n[4][3] = {{-1, 0.1, 0}, {1, -0.1, 0}, {0.05, -1, 0.2}, {-0.05, 1, -0.2}};
    for (int j = 0; j < NNB; ++j) {
      neighbours[i * NNB + j] = nb[j];
      for (int k = 0; k < NDIM; ++k)
        a.normals[(i * NNB + j) * NDIM + k] = 0.1 * n[j][k] * (1 + 0.05 * std::sin(i + j));
    }
    a.areas[i] = 0.01 * (1 + 0.2 * std::cos(i));
    for (int j = 0; j < NVAR; ++j)
      a.v0[i * NVAR + j] = ff_variable[j] * (1 + 0.05 * std::sin(1.3 * i + j));
  }
  Arrays d, t;
  __enzyme_autodiff((void *)objective, enzyme_dup, a.v0.data(), d.v0.data(),
                    enzyme_dup, a.normals.data(), d.normals.data(), enzyme_dup,
                    a.areas.data(), d.areas.data(), enzyme_const,
                    neighbours.data(), enzyme_dup, a.variables.data(),
                    d.variables.data(), enzyme_dup, a.old.data(), d.old.data(),
                    enzyme_dup, a.fluxes.data(), d.fluxes.data(), enzyme_dup,
                    a.factors.data(), d.factors.data());
  double scale = 0, dot = 0;
  for (int i = 0; i < NEL * NVAR; ++i) {
    scale = std::fmax(scale, std::fabs(d.v0[i]));
    t.v0[i] = std::cos(0.7 * i);
    dot += t.v0[i] * d.v0[i];
  }
  for (int i = 0; i < NEL * NNB * NDIM; ++i) {
    t.normals[i] = std::sin(0.2 * i);
    dot += t.normals[i] * d.normals[i];
  }
  for (int i = 0; i < NEL; ++i) {
    t.areas[i] = 0.01 * std::cos(0.9 * i);
    dot += t.areas[i] * d.areas[i];
  }
  double tangent = __enzyme_fwddiff(
      (void *)objective, enzyme_dup, a.v0.data(), t.v0.data(), enzyme_dup,
      a.normals.data(), t.normals.data(), enzyme_dup, a.areas.data(),
      t.areas.data(), enzyme_const, neighbours.data(), enzyme_dup,
      a.variables.data(), t.variables.data(), enzyme_dup, a.old.data(),
      t.old.data(), enzyme_dup, a.fluxes.data(), t.fluxes.data(), enzyme_dup,
      a.factors.data(), t.factors.data());
  rodinia_check("forward against reverse", tangent, dot, 1e-9, scale);

  struct Probe {
    const char *name;
    std::vector<double> Arrays::*array;
    int index;
  } probes[] = {
      {"density[0]", &Arrays::v0, 0},
      {"momentum.x[9]", &Arrays::v0, 9 * NVAR + 1},
      {"momentum.y[30]", &Arrays::v0, 30 * NVAR + 2},
      {"momentum.z[57]", &Arrays::v0, 57 * NVAR + 3},
      {"energy[63]", &Arrays::v0, 63 * NVAR + 4},
      {"wall normal.x[8]", &Arrays::normals, (8 * NNB + 0) * NDIM},
      {"far-field normal.y[60]", &Arrays::normals, (60 * NNB + 3) * NDIM + 1},
      {"inner normal.z[20]", &Arrays::normals, (20 * NNB + 2) * NDIM + 2},
      {"area[13]", &Arrays::areas, 13},
  };
  char what[64];
  for (const Probe &p : probes) {
    double &x = (a.*p.array)[p.index], x0 = x, h = 1e-6 * (1 + std::fabs(x0));
    x = x0 + h;
    double up = run(a);
    x = x0 - h;
    double down = run(a);
    x = x0;
    snprintf(what, sizeof what, "d/d %s", p.name);
    rodinia_check(what, (d.*p.array)[p.index], (up - down) / (2 * h), 1e-5,
                  1e-3 * scale);
  }
  return rodinia_done("cfd");
}
