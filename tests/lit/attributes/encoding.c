// The frontend's contract with the AD engine: the primal's definition
// carries the annotation
//   adcc.derivative:<mode>:<width>:<derivative symbol>:<acts>:<return act>
// whose argument is the derivative's address (so the module declares the
// derivative with Clang's lowering of its signature), and the primal is
// kept (llvm.compiler.used) even when nothing calls it.
// RUN: %adcc -O0 -S -emit-llvm -fno-adcc-pass %s -o - | FileCheck %s
// RUN: %adcc -O2 -S -emit-llvm -fno-adcc-pass %s -o - | FileCheck %s
#include <adcc.h>

// CHECK-DAG: @[[SQ:.*]] = {{.*}} c"adcc.derivative:forward:1:d_sq:Dual:Dual\00", section "llvm.metadata"
// CHECK-DAG: @[[SQ_ARGS:.*]] = {{.*}} { ptr } { ptr @d_sq }, section "llvm.metadata"
ADCC_FORWARD(d_sq, Dual, Dual) double sq(double x) { return x * x; }

// CHECK-DAG: c"adcc.derivative:forward:1:d_dot:Dual,Const:DualOnly\00"
ADCC_FORWARD(d_dot, Dual, Const, DualOnly) double dot(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

// CHECK-DAG: c"adcc.derivative:forward:1:d_cst:Const,Dual:Const\00"
ADCC_FORWARD(d_cst, Const, Dual, Const) double cst(double a, double b) { return a * b; }

// A void function has no return activity: Const.
// CHECK-DAG: c"adcc.derivative:forward:1:d_scale:Dual,Dual:Const\00"
ADCC_FORWARD(d_scale, Dual, Dual) void scale(const double *x, double *y) { *y = 2 * *x; }

// No parameters: an empty list.
// CHECK-DAG: c"adcc.derivative:forward:1:d_nothing::Const\00"
ADCC_FORWARD(d_nothing) void nothing(void) {}

// CHECK-DAG: c"adcc.derivative:forward:4:d_b4:Dual:Dual\00"
ADCC_FORWARD_BATCH(d_b4, 4, Dual, Dual) double b4(double x) { return x * x; }
// CHECK-DAG: c"adcc.derivative:forward:2:d_b2:DualOnly:DualOnly\00"
ADCC_FORWARD_BATCH(d_b2, 2, DualOnly, DualOnly) double b2(double *x) { return *x; }

// A static primal, and so a static derivative, is kept too.
// CHECK-DAG: c"adcc.derivative:forward:1:d_st:Dual:Dual\00"
static ADCC_FORWARD(d_st, Dual, Dual) double st(double x) { return 3 * x; }

// The attribute on a declaration reaches the definition; repeated, it
// gives one annotation.
// CHECK-DAG: c"adcc.derivative:forward:1:d_decl:Dual:Dual\00"
ADCC_FORWARD(d_decl, Dual, Dual) double decl(double x);
double decl(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_twice:Dual:DualOnly\00"
ADCC_FORWARD(d_twice, Dual, DualOnly) double twice(double x);
ADCC_FORWARD(d_twice, Dual, DualOnly) double twice(double x) { return x; }

// Only declared here: the translation unit that defines it generates the
// derivative, which is callable here.
// CHECK-NOT: adcc.derivative:forward:1:d_elsewhere
ADCC_FORWARD(d_elsewhere, Dual, Dual) double elsewhere(double x);

// CHECK: @llvm.global.annotations = appending global [10 x { ptr, ptr, ptr, i32, ptr }]
// CHECK-SAME: { ptr @sq, ptr @[[SQ]], ptr @{{.*}}, i32 {{[0-9]+}}, ptr @[[SQ_ARGS]] }
// CHECK: @llvm.compiler.used = {{.*}}ptr @sq,{{.*}}ptr @st,

// The derivatives are declared with Clang's ABI lowering of their C
// signature (a small struct in registers, a large one through sret).
// CHECK-DAG: declare { double, double } @d_sq(double noundef, double noundef)
// CHECK-DAG: declare double @d_dot(ptr noundef, ptr noundef, i32 noundef)
// CHECK-DAG: declare double @d_cst(double noundef, double noundef, double noundef)
// CHECK-DAG: declare void @d_scale(ptr noundef, ptr noundef, ptr noundef, ptr noundef)
// CHECK-DAG: declare void @d_nothing()
// CHECK-DAG: declare void @d_b4(ptr {{.*}}sret(%struct.__adcc_d_b4_result) {{.*}}, double noundef, double noundef, double noundef, double noundef, double noundef)
// CHECK-DAG: declare { double, double } @d_b2(ptr noundef, ptr noundef, ptr noundef)
// CHECK-DAG: declare { double, double } @d_st(double noundef, double noundef)
// CHECK-DAG: declare { double, double } @d_elsewhere(double noundef, double noundef)
double use(double x) { return d_elsewhere(x, 1.0).d_return; }
