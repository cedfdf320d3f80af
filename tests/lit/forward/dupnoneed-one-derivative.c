// `enzyme_dupnoneed` and `enzyme_dup` calls of one function get one
// derivative where the function does not only write through the pointer
// (at -O0 no parameter is `writeonly`, so no primal write can be dropped):
// until 2026-12-06 each marker made its own copy, the two identical, in
// both modes. (Where the parameter is only written through, from -O1,
// the dupnoneed derivative drops the primal's writes and stays apart.) The
// values: e2e fwd_arith.c, fwd_dupnoneed.c.
// RUN: %adcc -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// O0-COUNT-1: define internal {{.*}} @fwddiffe_write_out(
// O0-NOT: define internal {{.*}} @fwddiffe_write_out
// O0-COUNT-1: define internal {{.*}} @diffe_write_out(
// O0-NOT: define internal {{.*}} @diffe_write_out
extern int enzyme_dup, enzyme_dupnoneed;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

static void write_out(double x, double *out) { out[0] = x * x * x; }

double tangents(double x, double *out, double *dout) {
  double a = __enzyme_fwddiff((void *)write_out, x, 1.0, enzyme_dup, out, dout);
  double b =
      __enzyme_fwddiff((void *)write_out, x, 1.0, enzyme_dupnoneed, out, dout);
  return a + b;
}

void gradients(double x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)write_out, x, enzyme_dup, out, dout);
  __enzyme_autodiff((void *)write_out, x, enzyme_dupnoneed, out, dout);
}
