/* Enzyme-style ODE code: an RK4 integrator over a state array, the
 * right-hand side chosen from a table of function pointers, parameters in a
 * struct passed by pointer, a work buffer from malloc; gradient of the final
 * state's energy with respect to the initial state and the parameters. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

typedef struct {
  double omega, damping;
} params;
typedef void (*rhs_fn)(const double *y, double *dy, const params *p);

static void oscillator(const double *y, double *dy, const params *p) {
  dy[0] = y[1];
  dy[1] = -p->omega * p->omega * sin(y[0]) - p->damping * y[1];
}
static void decay(const double *y, double *dy, const params *p) {
  dy[0] = -p->damping * y[0];
  dy[1] = -p->omega * y[1];
}
static rhs_fn const table[2] = {oscillator, decay};

static void rk4(rhs_fn f, double *y, int n, double h, int steps,
                const params *p) {
  double *w = malloc(5 * n * sizeof(double));
  double *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *k4 = w + 3 * n,
         *t = w + 4 * n;
  for (int s = 0; s < steps; ++s) {
    f(y, k1, p);
    for (int i = 0; i < n; ++i)
      t[i] = y[i] + 0.5 * h * k1[i];
    f(t, k2, p);
    for (int i = 0; i < n; ++i)
      t[i] = y[i] + 0.5 * h * k2[i];
    f(t, k3, p);
    for (int i = 0; i < n; ++i)
      t[i] = y[i] + h * k3[i];
    f(t, k4, p);
    for (int i = 0; i < n; ++i)
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  free(w);
}

static double final_energy(double *y0, const params *p, int which) {
  double y[2];
  memcpy(y, y0, sizeof y);
  rk4(table[which], y, 2, 0.05, 40, p);
  return 0.5 * y[1] * y[1] + p->omega * p->omega * (1 - cos(y[0]));
}

int main(void) {
  for (int which = 0; which < 2; ++which) {
    double y0[2] = {0.4, -0.1}, dy0[2] = {0, 0};
    params p = {1.3, 0.2}, dp = {0, 0};
    __enzyme_autodiff((void *)final_energy, enzyme_dup, y0, dy0, enzyme_dup,
                      &p, &dp, enzyme_const, which);
    double *v[4] = {&y0[0], &y0[1], &p.omega, &p.damping};
    double g[4] = {dy0[0], dy0[1], dp.omega, dp.damping};
    for (int k = 0; k < 4; ++k) {
      double keep = *v[k], h = 1e-6;
      *v[k] = keep + h;
      double up = final_energy(y0, &p, which);
      *v[k] = keep - h;
      double down = final_energy(y0, &p, which);
      *v[k] = keep;
      CHECK_CLOSE(g[k], (up - down) / (2 * h), 1e-6);
    }
  }
  return check_finish();
}
