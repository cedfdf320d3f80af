// The spellings of one attribute: the <adcc.h> macros, GNU
// __attribute__((adcc_forward(...))) (activities in one or several string
// literals), the reserved __adcc_forward__ form, and C23 [[adcc::forward]].
// RUN: %adcc -std=c23 -S -emit-llvm -fno-adcc-pass %s -o - | FileCheck %s
// RUN: %adcc -std=c11 -S -emit-llvm -fno-adcc-pass -Werror -Wno-c23-extensions %s -o - | FileCheck %s
#include <adcc.h>

// CHECK-DAG: c"adcc.derivative:forward:1:d_macro:Dual,Const:Dual\00"
ADCC_FORWARD(d_macro, Dual, Const, Dual) double macro(double x, int n) { return x * n; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_gnu:Dual,Const:Dual\00"
__attribute__((adcc_forward(d_gnu, "Dual", "Const", "Dual"))) double gnu(double x, int n) { return x * n; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_one:Dual,Const:Dual\00"
__attribute__((adcc_forward(d_one, "Dual, Const, Dual"))) double one(double x, int n) { return x * n; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_mixed:Dual,Const:Dual\00"
__attribute__((__adcc_forward__(d_mixed, "Dual,Const", " Dual "))) double mixed(double x, int n) { return x * n; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_c23:Dual,Const:Dual\00"
[[adcc::forward(d_c23, "Dual", "Const", "Dual")]] double c23(double x, int n) { return x * n; }
// CHECK-DAG: c"adcc.derivative:forward:1:d_after:Dual:DualOnly\00"
double after [[adcc::forward(d_after, "Dual, DualOnly")]] (double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:3:d_batch:Dual:Dual\00"
[[adcc::forward_batch(d_batch, 3, "Dual", "Dual")]] double batch(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:8:d_width:Dual:Dual\00"
#define WIDTH 8
ADCC_FORWARD_BATCH(d_width, WIDTH, Dual, Dual) double width(double x) { return x; }
// The attribute may follow other specifiers and attributes.
// CHECK-DAG: c"adcc.derivative:forward:1:d_spec:Dual:Dual\00"
static inline __attribute__((noinline)) ADCC_FORWARD(d_spec, Dual, Dual) double spec(double x) { return x; }

double use(void) {
  return d_macro(1, 1, 1).primal + d_gnu(1, 1, 1).primal + d_one(1, 1, 1).primal +
         d_mixed(1, 1, 1).primal + d_c23(1, 1, 1).primal + d_after(1, 1) +
         d_batch(1, 1, 2, 3).d_return[2] + d_width(1, 1, 2, 3, 4, 5, 6, 7, 8).d_return[7] +
         d_spec(1, 1).primal;
}
