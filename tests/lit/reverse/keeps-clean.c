// A derivative's constant pointer parameter whose primal only reads what it
// points to is marked "adcc-keeps-pointee-clean": where the derivative is
// called from code differentiated again (forward over reverse), the
// caller's stack slot passed there stays without derivatives. The
// duplicated pointer, which the reverse sweep writes adjoints through,
// is not marked.
// RUN: %adcc -O0 -S -emit-llvm %s -o - | FileCheck %s
// CHECK: define internal {{.*}}@augmented_q(ptr "adcc-keeps-pointee-clean" %0, ptr %1, ptr %2)
// CHECK: define internal {{.*}}@gradient_q(ptr "adcc-keeps-pointee-clean" %0, ptr %1, ptr %2, double %3)
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

struct closure {
  const double *coeffs;
  double scale;
};

static double q(const struct closure *c, const double *x) {
  return c->scale * (c->coeffs[0] * x[0] * x[0] + c->coeffs[1] * x[1]);
}

void grad(const double *coeffs, const double *x, double *g) {
  struct closure c = {coeffs, 2.0};
  __enzyme_autodiff((void *)q, enzyme_const, &c, enzyme_dup, x, g);
}
