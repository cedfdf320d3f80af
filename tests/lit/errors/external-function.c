// A function without a body in this translation unit and without a
// derivative rule cannot be differentiated. The error is at the call, names
// the function, and says what to do, in each mode: at compile time with
// -fno-adcc-cross-tu, else when adcc links (no object defines it).
// RUN: %expect-exit 1 %adcc -O0 -fno-adcc-cross-tu -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -fno-adcc-cross-tu -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O0 -shared %s -o %t.so 2>&1 | FileCheck --check-prefix=LINK %s
// RUN: %expect-exit 1 %adcc -O2 -shared %s -o %t.so 2>&1 | FileCheck --check-prefix=LINK %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double mystery(double);

double f(double x) {
  // LINK-DAG: external-function.c:[[@LINE+5]]:10: error: cannot differentiate 'mystery': no object file linked by adcc defines it; define it in a file compiled by adcc, register a custom derivative (__enzyme_register_gradient_mystery) or mark it inactive
  // LINK-DAG: external-function.c:[[@LINE+4]]:10: error: cannot differentiate 'mystery': no object file linked by adcc defines it; define it in a file compiled by adcc, register a custom derivative (__enzyme_register_derivative_mystery) or mark it inactive
  // LINK: adcc: error: linker command failed
  // CHECK: external-function.c:[[@LINE+2]]:10: error: cannot differentiate 'f' in reverse mode: the external function 'mystery' has no body and no derivative rule; define it in this translation unit, register a custom derivative (__enzyme_register_gradient_mystery) or mark it inactive
  // CHECK: external-function.c:[[@LINE+1]]:10: error: cannot differentiate 'f' in forward mode: the external function 'mystery' has no body and no derivative rule; define it in this translation unit, register a custom derivative (__enzyme_register_derivative_mystery) or mark it inactive
  return mystery(x) * x;
}
double gradient(double x) { return __enzyme_autodiff((void *)f, x); }
double tangent(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
