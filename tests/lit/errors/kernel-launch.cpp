// A kernel launched through <adcc/kernels.hpp> is differentiated per
// work-item: what its body cannot be differentiated through is an error at
// the kernel's source line, in each mode (here when adcc links: no object
// defines the function). A struct argument with a derivative is refused at
// the launch.
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 %s -o %t 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -std=c++17 -DSTRUCT_ARG -fsyntax-only %s 2>&1 | FileCheck --check-prefix=STRUCT %s
#include <adcc/kernels.hpp>

extern "C" double mystery(double);

double loss(const double *X, double *Y, int N) {
  auto Kernel = [](const adcc::index &Ix, const double *X, double *Y) {
    // CHECK-DAG: kernel-launch.cpp:[[@LINE+2]]:25: error: cannot differentiate 'mystery': no object file linked by adcc defines it; define it in a file compiled by adcc, register a custom derivative (__enzyme_register_gradient_mystery) or mark it inactive
    // CHECK-DAG: kernel-launch.cpp:[[@LINE+1]]:25: error: cannot differentiate 'mystery': no object file linked by adcc defines it; define it in a file compiled by adcc, register a custom derivative (__enzyme_register_derivative_mystery) or mark it inactive
    Y[Ix.global_id()] = mystery(X[Ix.global_id()]);
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(8), X, Y);
  return Y[0];
}

#ifdef STRUCT_ARG
struct Params {
  double A, B;
};
void scaled(Params P, double *Y, int N) {
  auto Kernel = [](const adcc::index &Ix, Params P, double *Y) {
    Y[Ix.global_id()] *= P.A;
  };
  // STRUCT: error: static assertion failed {{.*}}: adcc::launch: a kernel argument with a derivative is a number or a pointer; pass a struct by pointer, or as adcc::Const(value) when it carries no derivative
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(8), P, Y);
}
#endif

int main() {
  double X[8] = {1}, DX[8] = {0}, Y[8], DY[8] = {0};
  adcc::gradient(loss, adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Y, DY), adcc::Const(8));
}
