// A C++ class whose constructor and destructor are defined in another file:
// Clang emits the complete-object constructor and destructor (C1, D1) as
// aliases of the base-object ones (C2, D2), and the derivative made at
// link time of a function that constructs and destroys such an object
// found no definition of the alias ("no object file linked by adcc defines
// it", Box2D's b2World and b2PolygonShape, until 2026-12-06). Reverse and
// forward mode, every level: d/dx of (2 x + 1)^2 at x = 1.5 is 16.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc++ -O0 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O0 && ./prog-O0 | FileCheck %s
// RUN: %adcc++ -O1 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O1 && ./prog-O1 | FileCheck %s
// RUN: %adcc++ -O2 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O2 && ./prog-O2 | FileCheck %s
// RUN: %adcc++ -O3 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O3 && ./prog-O3 | FileCheck %s
// CHECK: reverse 16 forward 16

//--- body.h
struct Body {
  Body(double x);
  ~Body();
  double energy() const;
  double *state;
};

//--- body.cpp
#include "body.h"
#include <cstdlib>
Body::Body(double x) {
  state = static_cast<double *>(std::malloc(sizeof(double)));
  *state = 2 * x + 1;
}
Body::~Body() { std::free(state); }
double Body::energy() const { return *state * *state; }

//--- main.cpp
#include "body.h"
#include <cstdio>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static double f(double x) {
  Body b(x);
  return b.energy();
}
int main() {
  double r = __enzyme_autodiff((void *)f, 1.5);
  double t = __enzyme_fwddiff((void *)f, 1.5, 1.0);
  std::printf("reverse %g forward %g\n", r, t);
}
