/* Derivatives of Rodinia's hotspot (openmp/hotspot/hotspot_openmp.cpp,
 * included unchanged, its main renamed): compute_tran_temp, a transient
 * thermal simulation of a chip in float (an OpenMP loop over 16x16 blocks,
 * branches for corners and edges, `omp simd` interiors, two buffers swapped
 * through pointers every iteration, the thread count set by the program
 * from its global num_omp_threads), on a 64x64 grid for 5 iterations. The
 * gradient of a weighted sum of the final temperatures with respect to the
 * initial temperatures and the power map by reverse mode, forward mode
 * along a direction against it, and central differences. Run by
 * rodinia.sh. */
#define main hotspot_main
#include "hotspot_openmp.cpp"
#undef main

#include "rodinia_check.h"

#include <cmath>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { ROWS = 64, COLS = 64, N = ROWS * COLS, ITERATIONS = 5 };

/* The final temperatures' weighted sum, from initial temperatures temp0
   (copied into t: compute_tran_temp overwrites both buffers). */
static double objective(const FLOAT *temp0, FLOAT *power, FLOAT *t,
                        FLOAT *r) {
  for (int i = 0; i < N; ++i)
    t[i] = temp0[i];
  compute_tran_temp(r, ITERATIONS, t, power, ROWS, COLS);
  const FLOAT *last = (ITERATIONS & 1) ? r : t;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += cos(0.01 * i) * last[i];
  return s;
}

int main() {
  num_omp_threads = omp_get_max_threads();
  std::vector<FLOAT> temp0(N), power(N), t(N), r(N);
  for (int i = 0; i < N; ++i) {
    temp0[i] = 323 + 10 * std::sin(0.1 * i);
    power[i] = 1e-4f * (1 + std::cos(0.07 * i));
  }
  std::vector<FLOAT> dtemp0(N), dpower(N), dt(N), dr(N);
  __enzyme_autodiff((void *)objective, enzyme_dup, temp0.data(), dtemp0.data(),
                    enzyme_dup, power.data(), dpower.data(), enzyme_dup,
                    t.data(), dt.data(), enzyme_dup, r.data(), dr.data());
  double tscale = 0, pscale = 0;
  for (int i = 0; i < N; ++i) {
    tscale = std::fmax(tscale, std::fabs(dtemp0[i]));
    pscale = std::fmax(pscale, std::fabs(dpower[i]));
  }

  std::vector<FLOAT> vt(N), vp(N), tt(N), tr(N);
  double dot = 0;
  for (int i = 0; i < N; ++i) {
    vt[i] = std::cos(0.3 * i);
    vp[i] = std::sin(0.2 * i) * tscale / pscale;
    dot += vt[i] * (double)dtemp0[i] + vp[i] * (double)dpower[i];
  }
  double tangent = __enzyme_fwddiff(
      (void *)objective, enzyme_dup, temp0.data(), vt.data(), enzyme_dup,
      power.data(), vp.data(), enzyme_dup, t.data(), tt.data(), enzyme_dup,
      r.data(), tr.data());
  rodinia_check("forward against reverse", tangent, dot, 1e-4, tscale);

  /* Corners, edges and the interior. */
  int probes[] = {0, COLS - 1, N - 1, N - COLS, 5, 3 * COLS, 4 * COLS - 1,
                  N - 3, 17 * COLS + 16, 33 * COLS + 40, 47 * COLS + 15};
  char what[64];
  for (int i : probes) {
    for (int which = 0; which < 2; ++which) {
      FLOAT *p = which ? &power[i] : &temp0[i], x = *p;
      /* Linear in both: a large step keeps float rounding out. */
      FLOAT h = which ? 1e3f : 1.0f;
      *p = x + h;
      double up = objective(temp0.data(), power.data(), t.data(), r.data());
      *p = x - h;
      double down = objective(temp0.data(), power.data(), t.data(), r.data());
      *p = x;
      snprintf(what, sizeof what, "d/d %s[%d]", which ? "power" : "temp", i);
      rodinia_check(what, which ? dpower[i] : dtemp0[i], (up - down) / (2 * h),
                    1e-2, 0.01 * (which ? pscale : tscale));
    }
  }
  return rodinia_done("hotspot");
}
