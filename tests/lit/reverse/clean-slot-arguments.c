// A closure that holds only a pointer to constant data (an enzyme_const
// argument) and is handed to a callee that only reads it stays without
// derivatives: the reverse sweep passes it to the callee without a shadow,
// as forward mode does (CleanSlots.cpp). Before, the callee got the
// closure's shadow, whose field holds null, and its reverse sweep added
// the adjoint of c->p[0] through that null pointer (a segfault at -O0,
// where a C++ lambda captured by value is such a closure).
// RUN: %adcc -O0 -S -emit-llvm %s -o - | FileCheck %s
// CHECK: define internal {{.*}}@augmented_run(ptr %0, ptr %1, ptr %2)
// CHECK: call {{.*}}@augmented_scaled(ptr %{{[0-9]+}}, double
// CHECK: define internal {{.*}}@augmented_scaled(ptr {{.*}}%0, double %1)
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

struct closure {
  const double *p;
};

static double scaled(const struct closure *c, double v) {
  return -c->p[0] * v;
}

static double run(const double *x, const double *p) {
  struct closure c = {p};
  return scaled(&c, x[0]);
}

void gradient(const double *x, double *dx, const double *p) {
  __enzyme_autodiff((void *)run, enzyme_dup, x, dx, enzyme_const, p);
}
