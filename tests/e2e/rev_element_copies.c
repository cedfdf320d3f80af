/* Copies of elements through pointers into a struct's arrays, as CoMD's
 * copyAtom moves an atom between link cells: memcpy(a->r[j], a->r[i],
 * sizeof(real3)) with real3 a double[3], memcpy(a->U + j, a->U + i,
 * sizeof(double)), and a float array's. At -O0 nothing but the addresses'
 * element types says what the bytes are: reverse mode refused them ("a
 * memory copy whose contents cannot be typed") until 2026-12-06. Checked
 * against central differences, analytic values and forward mode. */
#include "check.h"

#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double real3[3];
typedef struct {
  int *gid;
  real3 *r;
  double *U;
  float *w;
} Atoms;

/* Moves atom i to slot j (the link cells' copy). */
__attribute__((noinline)) static void copy_atom(Atoms *a, int i, int j) {
  a->gid[j] = a->gid[i];
  memcpy(a->r[j], a->r[i], sizeof(real3));
  memcpy(a->U + j, a->U + i, sizeof(double));
  memcpy(&a->w[j], &a->w[i], sizeof(float));
}

/* Moves atoms 0 and 2 to slots 3 and 4 and takes an energy of them. */
static double energy(Atoms *a) {
  copy_atom(a, 0, 3);
  copy_atom(a, 2, 4);
  double s = 0;
  for (int j = 3; j < 5; ++j)
    s += a->w[j] * (a->r[j][0] * a->r[j][1] + sin(a->r[j][2])) +
         a->U[j] * a->U[j];
  return s;
}

static double values[5][5];

static void reset(Atoms *a) {
  static int gid[5];
  static real3 r[5];
  static double U[5];
  static float w[5];
  for (int i = 0; i < 5; ++i) {
    gid[i] = i;
    for (int m = 0; m < 3; ++m)
      r[i][m] = values[i][m];
    U[i] = values[i][3];
    w[i] = (float)values[i][4];
  }
  *a = (Atoms){gid, r, U, w};
}

int main(void) {
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 5; ++k)
      values[i][k] = 0.3 + 0.7 * i - 0.2 * k;
  Atoms a, d;
  int dgid[5];
  real3 dr[5] = {{0}};
  double dU[5] = {0};
  float dw[5] = {0};
  reset(&a);
  d = (Atoms){dgid, dr, dU, dw};
  memcpy(dgid, a.gid, sizeof dgid);
  __enzyme_autodiff((void *)energy, enzyme_dup, &a, &d);
  /* Analytic, atom 0 (to slot 3) and atom 2 (to slot 4). */
  for (int i = 0; i <= 2; i += 2) {
    const double *v = values[i];
    double w = (float)v[4];
    CHECK_CLOSE(dr[i][0], w * v[1], 1e-12);
    CHECK_CLOSE(dr[i][1], w * v[0], 1e-12);
    CHECK_CLOSE(dr[i][2], w * cos(v[2]), 1e-12);
    CHECK_CLOSE(dU[i], 2 * v[3], 1e-12);
    CHECK_CLOSE(dw[i], v[0] * v[1] + sin(v[2]), 1e-6);
  }
  CHECK_TRUE(dr[1][0] == 0 && dU[1] == 0 && dw[1] == 0);
  /* Central differences in atom 2's y, U. */
  for (int k = 1; k <= 3; k += 2) {
    double h = 1e-6, up, down;
    values[2][k] += h;
    reset(&a);
    up = energy(&a);
    values[2][k] -= 2 * h;
    reset(&a);
    down = energy(&a);
    values[2][k] += h;
    CHECK_CLOSE(k == 1 ? dr[2][1] : dU[2], (up - down) / (2 * h), 1e-6);
  }
  /* Forward mode along atom 0's coordinates and U. */
  reset(&a);
  real3 tr[5] = {{1, -2, 0.5}};
  double tU[5] = {3}, dot = dr[0][0] - 2 * dr[0][1] + 0.5 * dr[0][2] + 3 * dU[0];
  float tw[5] = {0};
  Atoms t = {dgid, tr, tU, tw};
  CHECK_CLOSE(__enzyme_fwddiff((void *)energy, enzyme_dup, &a, &t), dot, 1e-12);
  return check_finish();
}
