// C++11 spellings: [[adcc::forward(...)]] in its positions, the GNU form,
// and the macros; an unscoped [[forward]] is an unknown attribute.
// RUN: %adcc++ -std=c++11 -S -emit-llvm -fno-adcc-pass %s -o - 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: spellings.cpp:[[@LINE+1]]:3: warning: unknown attribute 'forward' ignored
[[forward(d_u, "Dual", "Dual")]] double unscoped(double x) { return x; }

// CHECK-DAG: c"adcc.derivative:forward:1:_Z7d_firstdd:Dual:Dual\00"
[[adcc::forward(d_first, "Dual", "Dual")]] double first(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z7d_afterdd:Dual:Dual\00"
double after [[adcc::forward(d_after, "Dual", "Dual")]] (double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:2:_Z7d_batchddd:Dual:DualOnly\00"
[[adcc::forward_batch(d_batch, 2, "Dual, DualOnly")]] double batch(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z5d_gnudd:Dual:Dual\00"
__attribute__((adcc_forward(d_gnu, "Dual", "Dual"))) double gnu(double x) { return x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z7d_macrodd:Dual:Dual\00"
constexpr int lanes = 1;
ADCC_FORWARD_BATCH(d_macro, lanes, Dual, Dual) double macro(double x) { return x; }
double use() {
  return d_first(1, 1).primal + d_after(1, 1).primal + d_batch(1, 1, 1).d_return[0] +
         d_gnu(1, 1).primal + d_macro(1, 1).primal;
}
