/* Enzyme-style physics: particles as an array of structs, a pointer table
 * of per-species masses (double *[]), a global constant, the potential
 * energy by pairs with sqrt and pow; gradient with respect to the positions
 * (enzyme_dup) with the masses constant, forward against reverse. */
#include "check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double x, y, z;
  int species;
} particle;

static const double G = 6.674e-1;
static const double soft = 0.05;

static double potential(const particle *p, int n, double *const *mass) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z;
      double r = sqrt(dx * dx + dy * dy + dz * dz + soft * soft);
      double mi = *mass[p[i].species], mj = *mass[p[j].species];
      e -= G * mi * mj / r + 0.01 * pow(r, -6.0);
    }
  return e;
}

#define N 5
static particle P[N];
static double m0 = 1.0, m1 = 2.5;
static double *masses[2] = {&m0, &m1};

int main(void) {
  for (int i = 0; i < N; ++i) {
    P[i].x = 0.3 * i;
    P[i].y = 0.7 * (i % 2) - 0.2 * i;
    P[i].z = 0.1 * i * i;
    P[i].species = i % 2;
  }
  particle dP[N];
  memset(dP, 0, sizeof dP);
  __enzyme_autodiff((void *)potential, enzyme_dup, P, dP, enzyme_const, N,
                    enzyme_const, masses);
  for (int i = 0; i < N; ++i) {
    double *c[3] = {&P[i].x, &P[i].y, &P[i].z};
    double *g[3] = {&dP[i].x, &dP[i].y, &dP[i].z};
    for (int k = 0; k < 3; ++k) {
      double keep = *c[k], h = 1e-6;
      *c[k] = keep + h;
      double up = potential(P, N, masses);
      *c[k] = keep - h;
      double down = potential(P, N, masses);
      *c[k] = keep;
      CHECK_CLOSE(*g[k], (up - down) / (2 * h), 1e-6);
      particle tP[N];
      memset(tP, 0, sizeof tP);
      *(&tP[i].x + k) = 1;
      double t = __enzyme_fwddiff((void *)potential, enzyme_dup, P, tP,
                                  enzyme_const, N, enzyme_const, masses);
      CHECK_CLOSE(t, *g[k], 1e-10);
    }
  }
  return check_finish();
}
