// Reverse mode seeds a floating-point result with 1; a result that is a
// struct of floating-point values cannot be seeded: an error, unless the
// call says the result carries no derivative (enzyme_const_return).
// Forward mode returns the struct's tangent (tests/e2e/fwd_return_coercion.c)
// when it comes back in registers; through memory it is an error.
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef struct { double a, b; } pair;
extern int enzyme_const_return, enzyme_dup, enzyme_const;
pair f(double x, double *out) {
  *out = x * x;
  return (pair){x * x, 3 * x};
}
double __enzyme_autodiff(void *, ...);
double grad(double x) {
  // CHECK: struct-result.c:[[@LINE+1]]:10: error: reverse mode of 'f' cannot seed its result, of type struct { double; double; }: only a floating-point result is seeded; return a floating-point value, or write the results through a pointer parameter (enzyme_dup) and seed its shadow; enzyme_const_return if the result carries no derivative
  return __enzyme_autodiff((void *)f, x, enzyme_const, (double *)0);
}
double grad_out(double x, double *out, double *dout) {
  // CHECK-NOT: struct-result.c:[[@LINE+1]]{{.*}}error
  return __enzyme_autodiff((void *)f, enzyme_const_return, x, enzyme_dup, out,
                           dout);
}

// An entry point declared to return a large struct (through memory) that
// the adjoints do not fit: an error, not bytes left unset.
typedef struct { pair p; double dx; } big;
big __enzyme_autodiff_big(void *, ...);
double sq(double x) { return x * x; }
big grad_big(double x) {
  // CHECK: struct-result.c:[[@LINE+1]]:10: error: __enzyme_autodiff is declared to return struct big, but the derivative of 'sq' returns double
  return __enzyme_autodiff_big((void *)sq, x);
}

// Forward mode of a function whose result comes back through memory: the
// request has no place for that memory and its tangent (the arguments were
// matched against the hidden result pointer).
typedef struct { double a, b, c; } triple;
static triple t3(double x) { return (triple){x, x * x, 3 * x}; }
triple __enzyme_fwddiff_triple(void *, ...);
double tangent3(double x) {
  // CHECK: struct-result.c:[[@LINE+1]]:10: error: 't3' returns its result through memory (a struct of more than 16 bytes), which a request cannot pass; return it through a pointer argument (enzyme_dup) instead
  return __enzyme_fwddiff_triple((void *)t3, x, 1.0).b;
}
