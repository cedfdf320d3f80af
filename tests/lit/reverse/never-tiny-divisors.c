// Reverse mode divides adjoints by a reciprocal scaled into range where the
// divisor may be tiny (below 2^-959 for doubles: a test, a select and a
// product per quotient, support/DivisorReciprocal.h). A divisor the primal
// computes so that it is zero or above that (1 + exp(-v), 2 + a loop's sum
// of exponentials, an integer converted, sqrt(1 + x^2)) takes the plain
// reciprocal; an argument and 1e-300 + exp(v) keep the scaled one.
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
double exp(double);
double sqrt(double);
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static double sigmoid(double v) { return 1 / (1 + exp(-v)); }

static double never_tiny(const double *x, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += exp(x[i]);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += sigmoid(x[i]) + x[i] / (2 + sum);
  return r + x[0] / n + x[1] / sqrt(1 + x[2] * x[2]);
}

// CHECK-LABEL: define {{.*}}void @grad_never_tiny(
// CHECK-NOT: 0x43F0000000000000
// CHECK: ret void
void grad_never_tiny(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)never_tiny, enzyme_dup, x, dx, enzyme_const, n);
}

static double maybe_tiny(const double *x) {
  return x[0] / x[1] + x[2] / (1e-300 + exp(x[3]));
}

// Two scaled reciprocals, each chosen back by a select.
// CHECK-LABEL: define {{.*}}void @grad_maybe_tiny(
// CHECK-COUNT-2: select i1 %{{.*}}, double 0x43F0000000000000, double 1.0
// CHECK: ret void
void grad_maybe_tiny(const double *x, double *dx) {
  __enzyme_autodiff((void *)maybe_tiny, enzyme_dup, x, dx);
}
