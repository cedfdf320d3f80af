// A derivative made at link time that calls, through a function pointer,
// a static function of another file (CoMD's potentials: `pot->force(s)`
// reaching `static int ljForce(SimFlat *)`, set by the file's init
// function). The link step differentiates its own copy of the static
// function, whose address is not the program's: the dispatch compared the
// pointer with the copy's address and the program stopped ("a function
// pointer called in differentiated code points to ..., a function that
// has no derivative in this program"). Each file now exports the
// addresses of its static functions whose address is taken, under names
// of its own (two files here have a static `scale`), and the link step
// compares with those.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c pot.c && %adcc -O0 -c main.c
// RUN: %adcc main.o pot.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c pot.c && %adcc -O2 -c main.c
// RUN: %adcc main.o pot.o -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O1 -c main.c pot.c && %adcc pot.o main.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// The objects export the addresses (hidden symbols), nothing else changes.
// RUN: llvm-nm pot.o | FileCheck %s --check-prefix=SYMS
// CHECK: gradient lj ok
// CHECK: tangent lj ok
// CHECK: gradient harmonic ok
// CHECK: gradient local ok
// SYMS-DAG: t harmonic
// SYMS-DAG: t lennard_jones
// SYMS-DAG: T __adcc_static.{{[0-9a-f]+}}.harmonic
// SYMS-DAG: T __adcc_static.{{[0-9a-f]+}}.lennard_jones
// SYMS-NOT: __adcc_static.{{.*}}.scale

//--- pot.h
typedef struct Potential {
  double sigma;
  double (*energy)(const struct Potential *, double r);
  double (*scale)(double);
} Potential;
void init_lj(Potential *p);
void init_harmonic(Potential *p);
double total_energy(const Potential *p, const double *r, int n);

//--- pot.c
#include "pot.h"
static double scale(double e) { return 0.5 * e; } // (called directly only)
static double lennard_jones(const Potential *p, double r) {
  double s = p->sigma / r, s6 = s * s * s * s * s * s;
  return scale(4.0 * (s6 * s6 - s6));
}
static double harmonic(const Potential *p, double r) {
  double d = r - p->sigma;
  return d * d;
}
void init_lj(Potential *p) {
  p->sigma = 1.1;
  p->energy = lennard_jones;
  p->scale = 0;
}
void init_harmonic(Potential *p) {
  p->sigma = 0.9;
  p->energy = harmonic;
  p->scale = 0;
}
double total_energy(const Potential *p, const double *r, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double ei = p->energy(p, r[i]);
    e += p->scale ? p->scale(ei) : ei;
  }
  return e;
}

//--- main.c
#include "pot.h"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// A static of this file with the other file's name, given to it.
static double scale(double e) { return 3.0 * e * e; }

static int check(const char *what, const double *got, const double *want,
                 int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = fmax(worst, fabs(got[i] - want[i]) / fmax(1.0, fabs(want[i])));
  printf("%s %s\n", what, worst < 1e-9 ? "ok" : "FAIL");
  return worst < 1e-9;
}

static void differences(const Potential *p, const double *r, double *g,
                        int n) {
  for (int i = 0; i < n; ++i) {
    double rp[3], rm[3], h = 1e-6;
    for (int j = 0; j < n; ++j)
      rp[j] = rm[j] = r[j];
    rp[i] += h;
    rm[i] -= h;
    g[i] = (total_energy(p, rp, n) - total_energy(p, rm, n)) / (2 * h);
  }
}

/// The gradient of total_energy by reverse mode against differences.
static void check_gradient(const char *what, const Potential *p,
                           const double *r, double *fd) {
  double dr[3] = {0};
  __enzyme_autodiff((void *)total_energy, enzyme_const, p, enzyme_dup, r, dr,
                    enzyme_const, 3);
  differences(p, r, fd, 3);
  check(what, dr, fd, 3);
}

int main(void) {
  double r[3] = {1.05, 1.3, 0.95}, fd[3];
  Potential p;
  init_lj(&p);
  check_gradient("gradient lj", &p, r, fd);
  double v[3] = {1, -0.5, 2}, dot = 0;
  for (int i = 0; i < 3; ++i)
    dot += fd[i] * v[i];
  double t = __enzyme_fwddiff((void *)total_energy, enzyme_const, &p,
                              enzyme_dup, r, v, enzyme_const, 3);
  check("tangent lj", &t, &dot, 1);
  init_harmonic(&p);
  check_gradient("gradient harmonic", &p, r, fd);
  // This file's static `scale` as the other file's callback.
  p.scale = scale;
  check_gradient("gradient local", &p, r, fd);
  return 0;
}
