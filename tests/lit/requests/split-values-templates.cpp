// A struct of 9 to 16 bytes passed by value travels as two IR arguments;
// the frontend tells adcore which, per function. The functions named here
// are instantiations over local lambdas' types, whose mangled names the
// frontend's own mangler numbered apart from code generation (`$_0` for
// both): the second request read its struct's halves in the wrong order,
// a wrong tangent. Now the shapes also travel on the definitions, as
// annotations that the AD pass reads and removes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -O0 %s -o %t/p0 && %t/p0 | FileCheck %s
// RUN: %adcc++ -O2 %s -o %t/p2 && %t/p2 | FileCheck %s
// RUN: %adcc++ -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK: f1 3 f2 4 f3 5 g 13
// IR-NOT: adcc.param.shapes:
// IR: define {{.*}}@main(
// IR-NOT: adcc.param.shapes:
#include <array>
#include <cstdio>
template <typename R> R __enzyme_fwddiff(void *, ...);

template <typename F> struct Call {
  static double run(const F *f, double a, std::array<double, 2> y) {
    return (*f)(a, y);
  }
};
template <typename F>
double tangent(const F &f, std::array<double, 2> y,
               std::array<double, 2> dy) {
  return __enzyme_fwddiff<double>((void *)&Call<F>::run, &f, &f, 0.5, 1.0, y,
                                  dy);
}
template <int K> double g(double a, std::array<double, 2> y) {
  return K * a + 5 * y[0];
}

int main() {
  std::array<double, 2> y{0.25, -2.0}, dy{0, 0};
  auto f1 = [](double a, std::array<double, 2> v) { return 3 * a + 5 * v[0]; };
  auto f2 = [](double a, std::array<double, 2> v) { return 4 * a + 5 * v[0]; };
  auto f3 = [](double a, std::array<double, 2> v) { return 5 * a + 5 * v[0]; };
  double g13 = __enzyme_fwddiff<double>((void *)g<13>, 0.5, 1.0, y, dy);
  std::printf("f1 %g f2 %g f3 %g g %g\n", tangent(f1, y, dy),
              tangent(f2, y, dy), tangent(f3, y, dy), g13);
}
