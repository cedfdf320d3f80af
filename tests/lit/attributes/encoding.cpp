// C++: the annotation names the derivative by its mangled symbol. The
// derivative lives in the primal's scope and linkage language; a template's
// instantiations each get a derivative (overloads of one name), declared
// where the instantiation is defined.
// RUN: %adcc++ -std=c++17 -O0 -S -emit-llvm -fno-adcc-pass %s -o - | FileCheck %s
#include <adcc.h>

// CHECK-DAG: c"adcc.derivative:forward:1:_Z4d_sqdd:Dual:Dual\00"
ADCC_FORWARD(d_sq, Dual, Dual) double sq(double x) { return x * x; }

// CHECK-DAG: c"adcc.derivative:forward:1:_ZN2ns6d_cubeEPKdPdi:Dual,Const:DualOnly\00"
namespace ns {
ADCC_FORWARD(d_cube, Dual, Const, DualOnly) double cube(const double *x, int n) { return x[0] * n; }
} // namespace ns

// CHECK-DAG: c"adcc.derivative:forward:1:d_c:Dual:Dual\00"
extern "C" ADCC_FORWARD(d_c, Dual, Dual) double c_linkage(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_cb:Dual:Dual\00"
extern "C" {
ADCC_FORWARD(d_cb, Dual, Dual) double c_block(double x) { return x; }
}

// Internal linkage: static, anonymous namespace.
// CHECK-DAG: c"adcc.derivative:forward:1:_ZL4d_stdd:Dual:Dual\00"
static ADCC_FORWARD(d_st, Dual, Dual) double st(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_ZN12_GLOBAL__N_14d_anEdd:Dual:Dual\00"
namespace {
ADCC_FORWARD(d_an, Dual, Dual) double an(double x) { return x; }
} // namespace

// References: the shadow of `const T &` is `T &`.
// CHECK-DAG: c"adcc.derivative:forward:1:_Z5d_refRKdRd:Dual:DualOnly\00"
ADCC_FORWARD(d_ref, Dual, DualOnly) double ref(const double &x) { return x; }

// Templates, instantiated explicitly, implicitly, or specialized.
template <class T>
ADCC_FORWARD(d_t, Dual, Dual) T tsq(T x) { return x * x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z3d_tdd:Dual:Dual\00"
template double tsq<double>(double);
// CHECK-DAG: c"adcc.derivative:forward:1:_Z3d_tff:Dual:Dual\00"
template float tsq<float>(float);
// CHECK-DAG: c"adcc.derivative:forward:1:_Z3d_tee:Dual:Dual\00"
template <> long double tsq<long double>(long double x) { return x; }
template <class T>
ADCC_FORWARD_BATCH(d_ti, 2, Dual, DualOnly) T implicit(T x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:2:_Z4d_tiddd:Dual:DualOnly\00"
double use_implicit() { return implicit(1.0); }
template <class T>
ADCC_FORWARD(d_ta, Dual, Dual) auto tauto(T x) { return x * x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z4d_tadd:Dual:Dual\00"
template auto tauto<double>(double);

// The derivatives are callable after the attribute (templates: after the
// instantiation), with the result struct of each.
double use() {
  auto [p, t] = d_sq(3.0, 1.0);
  double x = 1, dx = 1;
  auto tf = d_t(2.0f, 1.0f);
  return p + t + ns::d_cube(&x, &dx, 1) + d_c(1, 1).d_return +
         d_cb(1, 1).primal + d_st(1, 1).primal + d_an(1, 1).primal +
         d_ref(x, dx) + d_t(2.0, 1.0).d_return + tf.d_return +
         d_ta(1.0, 1.0).primal;
}
// CHECK-DAG: declare { double, double } @_Z4d_sqdd(double noundef, double noundef)
// CHECK-DAG: declare noundef double @_ZN2ns6d_cubeEPKdPdi(ptr noundef, ptr noundef, i32 noundef)
// CHECK-DAG: declare { double, double } @d_c(double noundef, double noundef)
// CHECK-DAG: declare { double, double } @_ZL4d_stdd(double noundef, double noundef)
// CHECK-DAG: declare <2 x float> @_Z3d_tff(float noundef, float noundef)
// CHECK-DAG: define weak_odr {{.*}} @_Z3tsqIdET_S0_(
// CHECK-DAG: define {{.*}} @_Z3tsqIeET_S0_(
// CHECK-DAG: define linkonce_odr {{.*}} @_Z8implicitIdET_S0_(
