// C++ signatures: references, namespaces, extern "C", and one derivative
// per template instantiation (overloads; result structs numbered when
// their fields differ).
// RUN: %adcc++ -std=c++17 -fsyntax-only -Xclang -ast-print %s -o - | FileCheck %s
#include <adcc.h>

// CHECK: double d_twice(const double &x, double &d_x);
ADCC_FORWARD(d_twice, Dual, DualOnly) double twice(const double &x);

// CHECK: void d_acc(double &&x, double &&d_x, float *out, float *d_out);
ADCC_FORWARD(d_acc, Dual, Dual) void acc(double &&x, float *out);

// CHECK-LABEL: namespace ns {
// CHECK:       struct __adcc_d_cube_result {
// CHECK:       ns::__adcc_d_cube_result d_cube(double x, double d_x);
namespace ns {
ADCC_FORWARD(d_cube, Dual, Dual) double cube(double x);
}

// CHECK-LABEL: extern "C" {
// CHECK:       double d_c(double x, double d_x);
extern "C" {
ADCC_FORWARD(d_c, Dual, DualOnly) double c_fn(double x);
}

template <class T>
ADCC_FORWARD(d_t, Dual, Dual) T tsq(T x) { return x * x; }
// CHECK-LABEL: struct __adcc_d_t_result {
// CHECK-NEXT:      double primal;
// CHECK-NEXT:      double d_return;
// CHECK-NEXT:  };
// CHECK-NEXT:  __adcc_d_t_result d_t(double x, double d_x);
template double tsq<double>(double);
// CHECK-LABEL: struct __adcc_d_t_result_1 {
// CHECK-NEXT:      float primal;
// CHECK-NEXT:      float d_return;
// CHECK-NEXT:  };
// CHECK-NEXT:  __adcc_d_t_result_1 d_t(float x, float d_x);
template float tsq<float>(float);
