// adcc++ is the C++ driver (links the C++ standard library); adcc compiles
// C++ sources like clang does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O2 %s -o %t/p && %t/p | FileCheck %s
// RUN: %adcc -std=c++20 -c %s -o %t/o.o && %adcc++ %t/o.o -o %t/q && %t/q | FileCheck %s
// RUN: %adcc -x c++ -std=c++17 -fsyntax-only %s
// CHECK: sum 6 cplusplus 1
#include <cstdio>
#include <numeric>
#include <vector>

template <typename T> T total(const std::vector<T> &v) {
  return std::accumulate(v.begin(), v.end(), T{});
}

int main() {
  std::vector<double> v{1, 2, 3};
  std::printf("sum %g cplusplus %d\n", total(v), __cplusplus >= 201703L);
}
