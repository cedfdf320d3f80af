// The loads and stores of a derivative say which memory they touch: the
// primal's, shadows, or the tape (scoped-noalias metadata, three scopes of
// one domain). With that, the reverse of c[j] += a * b[j] reads a once,
// writes each shadow once (no zeroing store followed by the old value), and
// its loop, a sum into a's adjoint, vectorizes (adjoint sums are reassoc).
// RUN: %adcc -O2 -c %s -o /dev/null -Rpass=loop-vectorize 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VEC --implicit-check-not="not vectorized"
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static void mm(const double *restrict A, const double *restrict B,
               double *restrict C, int n) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      double a = A[(long)i * n + k];
      for (int j = 0; j < n; j++)
        C[(long)i * n + j] += a * B[(long)k * n + j];
    }
}

void grad(const double *A, double *dA, const double *B, double *dB,
          double *C, double *dC, int n) {
  __enzyme_autodiff((void *)mm, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_dup, C, dC, enzyme_const, n);
}

// The primal's inner loop and the reverse loop (reported at the read of a).
// VEC-DAG: memory-scopes.c:[[#INNER:]]:7: remark: vectorized loop
// VEC-DAG: memory-scopes.c:[[#INNER-1]]:18: remark: vectorized loop

// a = A[i][k] is read before the inner loop, from memory nothing writes;
// the reverse sweep reads it again once as it enters the inner loop (a load
// of the same address in every iteration keeps the vectorizer away).
// PLAN-LABEL: adcc: reverse mode of 'mm'
// PLAN: read double %[[A:[0-9]+]] again once per run of the loop at block %{{[0-9]+}}, as the reverse sweep enters it (each loop iteration)
// PLAN: recompute double %[[A]] for 'call' (each loop iteration)

// CHECK-LABEL: define {{.*}} @grad(
// CHECK: {{fadd reassoc nsz <2 x double>|fmuladd.v2f64}}
// CHECK-NOT: store double 0.000000e+00
// CHECK: ret void
// CHECK-DAG: !{!"adcc.primal", ![[DOMAIN:[0-9]+]]}
// CHECK-DAG: !{!"adcc.shadow", ![[DOMAIN]]}
// CHECK-DAG: !{!"adcc.tape", ![[DOMAIN]]}
// CHECK-DAG: ![[DOMAIN]] = !{!"adcc.memory"}
