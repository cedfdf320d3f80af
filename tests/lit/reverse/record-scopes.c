// What the derivative's memory accesses and parameters promise the
// optimizer (reverse-mode.md, "How it works"; api.md on restrict shadows).
//
// A loop's records read back from its array of records (one row per
// iteration, through a base pointer the reverse sweep keeps in a slot) are
// tape accesses too: apart from shadows and primal memory, so that the
// reverse loop needs no overlap checks against them.
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// The function that runs both sweeps has the augmented sweep's parameter
// attributes: noalias for restrict pointers and their shadows, nothing for
// the others. (Two requests keep it out of line.)
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ATTR
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static void cube(double *restrict u, int n) {
  for (int i = 0; i < n; i++)
    u[i] = u[i] * u[i] * u[i];
}

// (Big enough not to be inlined at two call sites.)
#define STEPS(u, w)                                                            \
  for (int i = 0; i < n; i++)                                                  \
    w[i] = sin(u[i]) * w[i] + exp(u[i] * w[i]);                                \
  for (int i = 0; i < n; i++)                                                  \
    u[i] = cos(w[i]) * u[i] - log(1 + u[i] * u[i]);                            \
  for (int i = 0; i < n; i++)                                                  \
    w[i] = tanh(u[i] + w[i]) * sqrt(1 + w[i] * w[i]);
double sin(double), cos(double), exp(double), log(double), tanh(double),
    sqrt(double);

static void plain(double *u, double *w, int n) {
  STEPS(u, w)
  STEPS(w, u)
}

static void tied(double *restrict u, double *restrict w, int n) {
  STEPS(u, w)
  STEPS(w, u)
}

void grad(double *u, double *du, int n) {
  __enzyme_autodiff((void *)cube, enzyme_dup, u, du, enzyme_const, n);
}

void grad_plain(double *u, double *du, double *w, double *dw, int n) {
  __enzyme_autodiff((void *)plain, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_const, n);
  __enzyme_autodiff((void *)plain, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_const, n);
}

void grad_tied(double *u, double *du, double *w, double *dw, int n) {
  __enzyme_autodiff((void *)tied, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_const, n);
  __enzyme_autodiff((void *)tied, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_const, n);
}

// The forward sweep writes u[i] to row i; the reverse loop reads it back.
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK: store double %[[OLD:[0-9]+]], ptr %{{[0-9]+}}, align 8, !alias.scope ![[TAPE:[0-9]+]]
// CHECK: load double, ptr %{{[0-9]+}}, align 8, !alias.scope ![[TAPE]]
// CHECK: ret void
// CHECK: ![[TAPE]] = !{![[TAPESCOPE:[0-9]+]]}
// CHECK: ![[TAPESCOPE]] = !{!"adcc.tape", !{{[0-9]+}}}

// ATTR-DAG: define internal void @gradient_plain(ptr %0, ptr %1, ptr %2, ptr %3, i32 %4)
// ATTR-DAG: define internal void @gradient_tied(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3, i32 %4)
