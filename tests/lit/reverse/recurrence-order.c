// A primal loop that reuses the load of u[i+1] as the next iteration's u[i]
// (a header phi after GVN) reverses into a loop that carries that phi's
// adjoint. adcc computes the carried adjoint before the `+=` that uses the
// incoming one, so the loop vectorizer takes the reverse loop as a
// fixed-order recurrence: every loop of the gradient is vectorized.
// RUN: %adcc -O2 -c %s -o /dev/null -Rpass=loop-vectorize \
// RUN:   -Rpass-missed=loop-vectorize 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not="not vectorized"
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static void smooth(const double *restrict u, double *restrict w, int n) {
  for (int i = 1; i < n - 1; i++)
    w[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) -
           0.01 * u[i] * u[i] * u[i];
}

void grad(const double *u, double *du, double *w, double *dw, int n) {
  __enzyme_autodiff((void *)smooth, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_const, n);
}

// The primal's loop, the forward sweep's (both at the `for`) and the
// reverse loop (at the stencil's line: its additions into du[i-1], du[i],
// du[i+1] wait in registers, reverse/accumulation-windows.test), all
// vectorized.
// CHECK-DAG: recurrence-order.c:13:3: remark: vectorized loop
// CHECK-DAG: recurrence-order.c:13:3: remark: vectorized loop
// CHECK-DAG: recurrence-order.c:14:{{[0-9]+}}: remark: vectorized loop
