// The gradient of miniBUDE's docking energies (github.com/UoB-HPC/miniBUDE,
// its OpenMP model, src/omp/fasten.hpp, unchanged) with respect to the
// poses (three angles and a translation each) and the atoms' positions,
// by reverse mode through OmpBude::fasten (OpenMP regions, `omp simd`
// loops, packed structs mixing floats and an int copied whole, std::vector,
// std::array, std::optional, timing calls), forward mode along a direction,
// and central differences. The deck is made here (random atoms and a small
// force field): miniBUDE's own decks are not needed. Run by minibude.sh.
// (What miniBUDE's main.cpp includes before the model's header.)
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "bude.h"

#include "omp/fasten.hpp"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

namespace {

constexpr size_t PPWI = 4;

double weight(size_t i) { return 1.0 + 0.5 * std::sin(0.7 * double(i)); }

// A weighted sum of the poses' energies, computed by miniBUDE's kernel.
double objective(const Params *p) {
  OmpBude<PPWI> bude;
  Sample s = bude.fasten(*p, 1, 0);
  double e = 0;
  for (size_t i = 0; i < s.energies.size(); ++i)
    e += weight(i) * s.energies[i];
  return e;
}

float noise(unsigned &state) {
  state = state * 1103515245u + 12345u;
  return float((state >> 8) & 0xffff) / 65536.0f;
}

Params deck() {
  Params p{};
  unsigned state = 7;
  int32_t hbtypes[4] = {HBTYPE_F, HBTYPE_E, 0, HBTYPE_F};
  float hphb[4] = {-0.6f, 0.4f, 0.0f, 0.8f};
  for (int t = 0; t < 4; ++t)
    p.forcefield.push_back(
        {hbtypes[t], 1.2f + 0.3f * t, hphb[t], 0.5f - 0.35f * t});
  for (int i = 0; i < 40; ++i)
    p.protein.push_back({6 * noise(state) - 3, 6 * noise(state) - 3,
                         6 * noise(state) - 3, int32_t(i % 4)});
  for (int i = 0; i < 8; ++i)
    p.ligand.push_back({2 * noise(state) - 1, 2 * noise(state) - 1,
                        2 * noise(state) - 1, int32_t((i * 3) % 4)});
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 16; ++j)
      p.poses[k].push_back(k < 3 ? 0.6f * noise(state) - 0.3f
                                 : 1.5f * noise(state) - 0.75f);
  p.iterations = 1;
  p.warmupIterations = 0;
  return p;
}

// The shadow of a deck: the same records, every float zero.
Params zeroed(const Params &p) {
  Params d = p;
  for (Atom &a : d.protein)
    a.x = a.y = a.z = 0;
  for (Atom &a : d.ligand)
    a.x = a.y = a.z = 0;
  for (FFParams &f : d.forcefield)
    f.radius = f.hphb = f.elsc = 0;
  for (auto &pose : d.poses)
    for (float &v : pose)
      v = 0;
  return d;
}

// The inputs probed: a pointer to each float that the derivative is
// checked for, in the deck and in its shadow.
struct Probe {
  const char *what;
  int index;
  float *value, *shadow;
};

int failures = 0;

void check(const char *what, double got, double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  std::printf("%s: %.7g, expected %.7g%s\n", what, got, want,
              ok ? "" : "  FAIL");
  failures += !ok;
}

} // namespace

int main() {
  Params p = deck();
  Params dp = zeroed(p);
  __enzyme_autodiff((void *)objective, enzyme_dup, &p, &dp);
  Params v = zeroed(p);
  Probe probes[] = {
      {"pose angle x", 1, &p.poses[0][1], &dp.poses[0][1]},
      {"pose angle y", 6, &p.poses[1][6], &dp.poses[1][6]},
      {"pose angle z", 11, &p.poses[2][11], &dp.poses[2][11]},
      {"pose shift x", 2, &p.poses[3][2], &dp.poses[3][2]},
      {"pose shift z", 15, &p.poses[5][15], &dp.poses[5][15]},
      {"protein x", 3, &p.protein[3].x, &dp.protein[3].x},
      {"protein z", 17, &p.protein[17].z, &dp.protein[17].z},
      {"ligand y", 2, &p.ligand[2].y, &dp.ligand[2].y},
      {"ligand x", 5, &p.ligand[5].x, &dp.ligand[5].x},
      {"radius", 1, &p.forcefield[1].radius, &dp.forcefield[1].radius},
      {"charge", 3, &p.forcefield[3].elsc, &dp.forcefield[3].elsc},
  };
  // Forward mode along a direction over every pose value.
  for (int k = 0; k < 6; ++k)
    for (size_t j = 0; j < v.poses[k].size(); ++j)
      v.poses[k][j] = float(std::cos(1.0 + k + 0.3 * j));
  double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, &p, &v);
  double dot = 0;
  for (int k = 0; k < 6; ++k)
    for (size_t j = 0; j < v.poses[k].size(); ++j)
      dot += double(v.poses[k][j]) * dp.poses[k][j];
  check("forward along the poses against reverse", tangent, dot, 1e-4);
  // Central differences, in float: steps of 1e-3.
  const float h = 1e-3f;
  for (Probe &q : probes) {
    float x = *q.value;
    *q.value = x + h;
    double up = objective(&p);
    *q.value = x - h;
    double down = objective(&p);
    *q.value = x;
    char what[64];
    std::snprintf(what, sizeof what, "d/d %s [%d]", q.what, q.index);
    check(what, *q.shadow, (up - down) / (2 * double(h)), 2e-2);
  }
  std::printf("%s\n", failures ? "FAIL" : "ok");
  return failures ? 1 : 0;
}
