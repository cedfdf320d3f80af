// The derivative must have the primal's linkage: a static primal in two
// files, and an inline function or a template instantiated in two files
// (linkonce_odr / weak_odr), each generate the derivative in both files.
// (An IR declaration carries no linkage: adcore gives the derivative the
// primal's — internal, or linkonce_odr / weak_odr in a comdat.)
// RUN: rm -rf %t && split-file %s %t
// RUN: %adcc++ -O1 %t/a.cpp %t/b.cpp -o %t/p
// RUN: %t/p | FileCheck %s
// RUN: %adcc++ -O0 %t/a.cpp %t/b.cpp -o %t/p0
// RUN: %t/p0 | FileCheck %s
// RUN: %t/p | FileCheck %s
// CHECK: 2 4 3 12 12
//--- h.h
#include <adcc.h>
inline ADCC_FORWARD(d_f, Dual, DualOnly) double f(double x) { return x * x; }
template <class T>
ADCC_FORWARD(d_t, Dual, DualOnly) T t(T x) { return x * x * x; }
static ADCC_FORWARD(d_s, Dual, DualOnly) double s(double x) { return 3 * x; }
double a();
double b();
//--- a.cpp
#include "h.h"
double a() { return d_f(1, 1) + 0 * t(1.0) + 0 * s(1); }
//--- b.cpp
#include "h.h"
#include <cstdio>
double b() { return d_f(2, 1) + 0 * t(2.0); }
template double t<double>(double);
int main() {
  std::printf("%g %g %g %g %g\n", a(), b(), d_s(1, 1), d_t(2.0, 1.0), t(2.0) * 1.5);
}
