// End to end in C++: namespaces, references, extern "C", templates
// (explicit, implicit and specialized instantiations), structured bindings.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 %s -o %t/o0 && %t/o0 | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 %s -o %t/o2 && %t/o2 | FileCheck %s
// RUN: %adcc++ -std=c++20 -O3 %s -o %t/o3 && %t/o3 | FileCheck %s
// CHECK: sq 9 6
// CHECK-NEXT: ns 8 12
// CHECK-NEXT: ref 4
// CHECK-NEXT: c 14
// CHECK-NEXT: tcube 8 12 8 12
// CHECK-NEXT: implicit 27 27
// CHECK-NEXT: special 5
// CHECK-NEXT: vector 14 8
#include <adcc.h>
#include <cstdio>
#include <vector>

ADCC_FORWARD(d_sq, Dual, Dual) double sq(double x) { return x * x; }

namespace geo {
ADCC_FORWARD(d_cube, Dual, Dual) double cube(double x) { return x * x * x; }
} // namespace geo

ADCC_FORWARD(d_twice, Dual, DualOnly) double twice(const double &x) { return 2 * x * x; }

extern "C" ADCC_FORWARD(d_c, Dual, DualOnly) double c_seven(double x) { return 7 * x; }

template <class T>
ADCC_FORWARD(d_tcube, Dual, Dual) T tcube(T x) { return x * x * x; }
template double tcube<double>(double);
template float tcube<float>(float);

template <class T>
ADCC_FORWARD(d_imp, Dual, Dual) T imp(T x) { return x * x * x; }

template <class T>
ADCC_FORWARD(d_special, Dual, DualOnly) T special(T x) { return x; }
template <> long double special<long double>(long double x) { return 5 * x; }

ADCC_FORWARD(d_norm2, Dual, DualOnly) double norm2(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

int main() {
  auto [p, t] = d_sq(3.0, 1.0);
  std::printf("sq %g %g\n", p, t);
  auto n = geo::d_cube(2.0, 1.0);
  std::printf("ns %g %g\n", n.primal, n.d_return);
  double x = 1, dx = 1;
  std::printf("ref %g\n", d_twice(x, dx));
  std::printf("c %g\n", d_c(1.0, 2.0));
  auto td = d_tcube(2.0, 1.0);
  auto tf = d_tcube(2.0f, 1.0f);
  std::printf("tcube %g %g %g %g\n", td.primal, td.d_return, double(tf.primal),
              double(tf.d_return));
  // Instantiated implicitly: its derivative is generated (see encoding.cpp)
  // but is declared only at the end of the file.
  double v = imp(3.0);
  std::printf("implicit %g %g\n", v, imp(3.0));
  std::printf("special %g\n", double(d_special(1.0L, 1.0L)));
  std::vector<double> vec = {1, 2, 3}, dvec = {0, 2, 0};
  std::printf("vector %g %g\n", norm2(vec), d_norm2(vec, dvec));
  return 0;
}
