// Derivatives of functions defined in another file: the requests become
// calls to __adcc_xtu.* functions, the objects carry their IR in .adcc.ir
// (excluded from what the linker writes), and adcc's link step makes the
// derivatives (from the IR of every object: energy() calls a function of a
// third file). Each program checks reverse against central differences,
// forward against reverse, split mode against the combined gradient.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c model.c main.c helper.c
// RUN: llvm-readelf -S model.o | FileCheck --check-prefix=SECTION %s
// RUN: llvm-nm main.o | FileCheck --check-prefix=CALLS %s
// RUN: %adcc main.o model.o helper.o -o prog -lm && ./prog | FileCheck %s
// RUN: llvm-readelf -S prog | FileCheck --check-prefix=LINKED %s
// RUN: %adcc -O0 -g main.c model.c helper.c -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c main.c -o main-o2.o && %adcc -O0 -c model.c -o model-o0.o
// RUN: %adcc main-o2.o model-o0.o helper.o -o mixed -lm && ./mixed | FileCheck %s
// RUN: %adcc -O2 -c loss.c && %adcc loss.o model.o helper.o -o loss -lm && ./loss | FileCheck --check-prefix=LOSS %s
// RUN: %adcc -O0 loss.c model.c helper.c -o loss0 -lm && ./loss0 | FileCheck --check-prefix=LOSS %s
// RUN: llvm-nm loss.o | FileCheck --check-prefix=CALLEES %s
// Static archives: the function in one (by path, and by -L/-l), the
// request in one too (its member is linked because crt1.o needs main).
// RUN: rm -f libmodel.a libloss.a && llvm-ar rcs libmodel.a model.o helper.o
// RUN: %adcc main.o libmodel.a -o archive1 -lm && ./archive1 | FileCheck %s
// RUN: %adcc main.o -L. -lmodel -o archive2 -lm && ./archive2 | FileCheck %s
// RUN: llvm-ar rcs libloss.a loss.o
// RUN: %adcc libloss.a libmodel.a -o archive3 -lm && ./archive3 | FileCheck --check-prefix=LOSS %s
// A file that only requests a derivative refers to the derivative, not to
// the function: the archive member defining it is read all the same.
// RUN: %adcc -O2 -c grad_only.c
// RUN: %adcc grad_only.o libmodel.a -o archive4 -lm && ./archive4 | FileCheck --check-prefix=ONLY %s
// RUN: %adcc grad_only.o -L. -lmodel -o archive5 -lm && ./archive5 | FileCheck --check-prefix=ONLY %s
// A relocatable link (-r) makes no derivative: its output carries the IR
// of its objects (sections concatenated), and the link that uses it makes
// them, whichever of the objects the functions are in.
// RUN: %adcc -r main.o -o main-r.o && llvm-nm main-r.o | FileCheck --check-prefix=CALLS %s
// RUN: %adcc main-r.o model.o helper.o -o partial1 -lm && ./partial1 | FileCheck %s
// RUN: %adcc -r main.o model.o -o main-model.o && llvm-readelf -S main-model.o | FileCheck --check-prefix=SECTION %s
// RUN: %adcc main-model.o helper.o -o partial2 -lm && ./partial2 | FileCheck %s
// RUN: %adcc -r model.o helper.o -o model-r.o && %adcc grad_only.o model-r.o -o partial3 -lm && ./partial3 | FileCheck --check-prefix=ONLY %s
// RUN: %adcc -r main.o model.o helper.o -o all-r.o && %adcc all-r.o -o partial4 -lm && ./partial4 | FileCheck %s
// With -flto the objects are bitcode: their own module is the IR adcc
// reads (full and thin LTO, mixed with ELF objects, in an archive).
// RUN: %adcc -O2 -flto -c main.c -o main-lto.o && %adcc -O2 -flto -c model.c -o model-lto.o
// RUN: %adcc -O2 -flto -c helper.c -o helper-lto.o && %adcc -O2 -flto -c grad_only.c -o grad_only-lto.o
// RUN: %adcc -O2 -flto main-lto.o model-lto.o helper-lto.o -o lto -lm && ./lto | FileCheck %s
// RUN: %adcc -O2 -flto main.o model-lto.o helper.o -o lto-mixed -lm && ./lto-mixed | FileCheck %s
// RUN: rm -f libmodel-lto.a && llvm-ar rcs libmodel-lto.a model-lto.o helper-lto.o
// RUN: %adcc -O2 -flto grad_only-lto.o libmodel-lto.a -o lto-archive -lm && ./lto-archive | FileCheck --check-prefix=ONLY %s
// RUN: %adcc -O2 -flto=thin -c main.c -o main-thin.o && %adcc -O2 -flto=thin -c model.c -o model-thin.o
// RUN: %adcc -O2 -flto=thin main-thin.o model-thin.o helper.o -o thin -lm && ./thin | FileCheck %s
// -v and -### show the linker's own command (build systems read it); -v
// links through adcc all the same.
// RUN: %adcc -v main.o model.o helper.o -o verbose -lm 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: ./verbose | FileCheck %s
// RUN: %adcc -### main.o model.o helper.o -o verbose -lm 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: %adcc++ -O2 springs.cpp springs_main.cpp -o springs && ./springs | FileCheck --check-prefix=CXX %s
// RUN: %adcc++ -O0 springs.cpp springs_main.cpp -o springs0 && ./springs0 | FileCheck --check-prefix=CXX %s

// SECTION: .adcc.ir PROGBITS {{.*}} E
// CALLS-DAG: U __adcc_xtu.g1.011.dc.O2.energy
// CALLS-DAG: U __adcc_xtu.f1.010.dc.O2.energy
// CALLS-DAG: U __adcc_xtu.f2.010.dc.O2.energy
// CALLS-DAG: U __adcc_xtu.g1.011.ac.O2.scale
// CALLS-DAG: U __adcc_xtu.a1.000n0r3.ddc.O2.relax
// CALLS-DAG: U __adcc_xtu.r1.000n0r3.ddc.O2.relax
// LINKED-NOT: .adcc.ir
// CHECK: gradient 1.19866933 0.83544973 0.28264391 0.36550137
// CHECK: scale 1.64872127
// CHECK: split 0.28000000 0.64000000
// CHECK: ok
// The sweeps of functions of another file that a function of this file
// calls (made at link time too):
// CALLEES-DAG: U __adcc_xtu.a1.110.dc.O2.energy
// CALLEES-DAG: U __adcc_xtu.r1.110.dc.O2.energy
// CALLEES-DAG: U __adcc_xtu.f1.110.dc.O2.energy
// LOSS: loss 2.55734863 0.58025129 0.12817887 0.16575468
// LOSS: ok
// ONLY: d scale 2.71828183 5.43656366
// VERBOSE-NOT: -adcc-link-job
// VERBOSE: {{^ *"[^"]*/ld(\.[a-z]+)?" }}{{.*}}main.o
// VERBOSE-NOT: -adcc-link-job
// CXX: springs -0.20000000 -0.29120736 -1.94630009 0.60000000
// CXX: ok

//--- model.c
#include <math.h>
static const double weight[2] = {1.0, 0.5};
static double sq(double x) { return x * x; }
double coupling(double a, double b); /* helper.c */
double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += weight[0] * sq(sin(x[i])) + weight[1] * coupling(x[i], x[(i + 1) % n]);
  return s;
}
double scale(double a, double b) { return a * exp(b); }
/* y <- y + 0.2 (x - y)^2 elementwise, in place */
void relax(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] += 0.2 * (x[i] - y[i]) * (x[i] - y[i]);
}

//--- grad_only.c
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff2(void *, ...);
typedef struct { double da, db; } pair2;
pair2 __enzyme_autodiff_pair(void *, ...);
double scale(double a, double b);
/* Asks for scale's gradient and never calls scale itself. */
int main(void) {
  pair2 g = __enzyme_autodiff_pair((void *)scale, 2.0, 1.0);
  printf("d scale %.8f %.8f\n", g.da, g.db);
  return !(fabs(g.da - exp(1.0)) < 1e-12 && fabs(g.db - 2 * exp(1.0)) < 1e-12);
}

//--- helper.c
/* A function the differentiated one calls, defined in a third file. */
double coupling(double a, double b) { return a * b; }

//--- main.c
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_scalar(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct { double d[2]; } pair;
pair __enzyme_fwddiff_pair(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double energy(const double *x, int n);
double scale(double a, double b);
void relax(const double *x, double *y, int n);

int main(void) {
  double x[4] = {0.1, 0.7, -0.4, 1.3}, dx[4] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 4);
  int ok = 1;
  printf("gradient");
  for (int i = 0; i < 4; i++) {
    double h = 1e-6, v = x[i];
    x[i] = v + h;
    double fp = energy(x, 4);
    x[i] = v - h;
    double fm = energy(x, 4);
    x[i] = v;
    double t[4] = {0};
    t[i] = 1;
    double fw = __enzyme_fwddiff((void *)energy, enzyme_dup, x, t,
                                 enzyme_const, 4);
    ok &= fabs(dx[i] - (fp - fm) / (2 * h)) < 1e-6 && fabs(fw - dx[i]) < 1e-12;
    printf(" %.8f", dx[i]);
  }
  printf("\n");
  /* two directions in one call */
  double t2[8] = {1, 0, 0, 0, 0, 1, 0, 0};
  pair w = __enzyme_fwddiff_pair((void *)energy, enzyme_width, 2, enzyme_dupv,
                                 4 * sizeof(double), x, t2, enzyme_const, 4);
  ok &= fabs(w.d[0] - dx[0]) < 1e-12 && fabs(w.d[1] - dx[1]) < 1e-12;
  double da = __enzyme_autodiff_scalar((void *)scale, 2.0, enzyme_const, 0.5);
  ok &= fabs(da - exp(0.5)) < 1e-12;
  printf("scale %.8f\n", da);
  /* split mode: the augmented sweep, then the reverse one */
  double a[2] = {1.0, 2.0}, y[2] = {0.3, 0.4}, ga[2] = {0}, gy[2] = {1, 1};
  void *tape = __enzyme_augmentfwd((void *)relax, enzyme_dup, a, ga,
                                   enzyme_dup, y, gy, enzyme_const, 2);
  __enzyme_reverse((void *)relax, enzyme_dup, a, ga, enzyme_dup, y, gy,
                   enzyme_const, 2, tape);
  /* d y'/d a = 0.4 (a - y) */
  ok &= fabs(ga[0] - 0.4 * (1.0 - 0.3)) < 1e-12 &&
        fabs(ga[1] - 0.4 * (2.0 - 0.4)) < 1e-12;
  printf("split %.8f %.8f\n", ga[0], ga[1]);
  printf(ok ? "ok\n" : "WRONG\n");
  return !ok;
}

//--- loss.c
/* A function of this file that calls functions of other files. */
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double energy(const double *x, int n);
double scale(double a, double b);
static double loss(const double *x, int n) {
  return log(1 + energy(x, n)) + scale(x[0], x[1]);
}
int main(void) {
  double x[4] = {0.1, 0.7, -0.4, 1.3}, dx[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, 4);
  int ok = 1;
  printf("loss");
  for (int i = 0; i < 4; i++) {
    double h = 1e-6, v = x[i];
    x[i] = v + h;
    double fp = loss(x, 4);
    x[i] = v - h;
    double fm = loss(x, 4);
    x[i] = v;
    double t[4] = {0};
    t[i] = 1;
    double fw = __enzyme_fwddiff((void *)loss, enzyme_dup, x, t, enzyme_const,
                                 4);
    ok &= fabs(dx[i] - (fp - fm) / (2 * h)) < 1e-6 && fabs(fw - dx[i]) < 1e-12;
    printf(" %.8f", dx[i]);
  }
  printf("\n%s\n", ok ? "ok" : "WRONG");
  return !ok;
}

//--- springs.cpp
#include <cmath>
#include <vector>
struct Spring {
  double k, rest;
};
double springEnergy(const std::vector<double> &x, const Spring &s) {
  double e = 0;
  for (size_t i = 0; i + 1 < x.size(); i++) {
    double d = x[i + 1] - x[i] - s.rest;
    e += 0.5 * s.k * d * d + std::cos(x[i]);
  }
  return e;
}

//--- springs_main.cpp
#include <cmath>
#include <cstdio>
#include <vector>
struct Spring {
  double k, rest;
};
double springEnergy(const std::vector<double> &x, const Spring &s);
extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
int main() {
  std::vector<double> x = {0.0, 1.1, 1.9, 3.2}, dx(4, 0.0);
  Spring s{2.0, 1.0};
  __enzyme_autodiff((void *)springEnergy, enzyme_dup, &x, &dx, enzyme_const,
                    &s);
  bool ok = true;
  std::printf("springs");
  for (int i = 0; i < 4; i++) {
    double h = 1e-6, v = x[i];
    x[i] = v + h;
    double fp = springEnergy(x, s);
    x[i] = v - h;
    double fm = springEnergy(x, s);
    x[i] = v;
    ok = ok && std::fabs(dx[i] - (fp - fm) / (2 * h)) < 1e-6;
    std::printf(" %.8f", dx[i]);
  }
  std::printf("\n%s\n", ok ? "ok" : "WRONG");
  return !ok;
}
