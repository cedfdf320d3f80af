/* Derivatives of Rodinia's lud (openmp/lud/omp/lud_omp.c, included
 * unchanged): the blocked LU factorization in place of a float matrix
 * (16x16 blocks: a serial diagonal block, OpenMP loops over the perimeter
 * and interior blocks, copies of blocks into aligned local arrays, `omp
 * simd` loops, every entry overwritten in place several times, the thread
 * count set by the program from its global omp_num_threads) of a 64x64
 * matrix. The gradient of log|det| (the logarithms of U's diagonal) plus a
 * weighted sum of L's and U's entries with respect to the matrix by reverse
 * mode, forward mode along a direction against it, and central
 * differences. Run by rodinia.sh. */
#include "lud_omp.c"

#include "rodinia_check.h"

#include <math.h>
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

int omp_num_threads;

enum { SIZE = 64, N = SIZE * SIZE };

/* Factors a copy a of a0 in place. */
static double objective(const float *a0, float *a) {
  for (int i = 0; i < N; ++i)
    a[i] = a0[i];
  lud_omp(a, SIZE);
  double s = 0;
  for (int i = 0; i < SIZE; ++i)
    s += log(fabs(a[i * SIZE + i]));
  for (int i = 0; i < N; ++i)
    s += 0.01 * cos(0.1 * i) * a[i];
  return s;
}

int main(void) {
  omp_num_threads = omp_get_max_threads();
  static float a0[N], a[N], da0[N], da[N], v[N], ta[N];
  srand(3);
  for (int i = 0; i < SIZE; ++i)
    for (int j = 0; j < SIZE; ++j)
      a0[i * SIZE + j] =
          (float)rand() / RAND_MAX - 0.5f + (i == j ? 4.0f + 0.1f * i : 0);
  __enzyme_autodiff((void *)objective, enzyme_dup, a0, da0, enzyme_dup, a, da);
  double scale = 0, dot = 0;
  for (int i = 0; i < N; ++i) {
    scale = fmax(scale, fabs(da0[i]));
    v[i] = (float)sin(0.7 * i);
    dot += v[i] * (double)da0[i];
  }
  double tangent =
      __enzyme_fwddiff((void *)objective, enzyme_dup, a0, v, enzyme_dup, a, ta);
  rodinia_check("forward against reverse", tangent, dot, 1e-4, scale);

  /* Entries in the diagonal blocks, the perimeter and the interior, above
     and below the diagonal. */
  int probes[] = {0,    5 * SIZE + 9, 9 * SIZE + 5, 63 * SIZE + 63,
                  20,   40 * SIZE + 3, 3 * SIZE + 50, 33 * SIZE + 47,
                  47 * SIZE + 33, 17 * SIZE + 17, 60 * SIZE + 20,
                  20 * SIZE + 61};
  char what[64];
  for (size_t i = 0; i < sizeof probes / sizeof *probes; ++i) {
    int k = probes[i];
    float x = a0[k], h = 1e-2f;
    a0[k] = x + h;
    double up = objective(a0, a);
    a0[k] = x - h;
    double down = objective(a0, a);
    a0[k] = x;
    snprintf(what, sizeof what, "d/d a[%d][%d]", k / SIZE, k % SIZE);
    rodinia_check(what, da0[k], (up - down) / (2 * h), 1e-2, 0.01 * scale);
  }
  return rodinia_done("lud");
}
