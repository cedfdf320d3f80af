// Inline assembly inside the differentiated code is an error at the asm
// statement, in both modes; the message says how to work around it.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double copy(double x) {
  double r;
  // CHECK: inline-asm.c:[[@LINE+2]]:3: error: cannot differentiate 'copy' in reverse mode: inline assembly cannot be differentiated; move it into a function with a custom derivative
  // CHECK: inline-asm.c:[[@LINE+1]]:3: error: cannot differentiate 'copy' in forward mode: inline assembly cannot be differentiated; move it into a function with a custom derivative
  __asm__("movsd %1, %0" : "=x"(r) : "x"(x));
  return r * x;
}
double gradient(double x) { return __enzyme_autodiff((void *)copy, x); }
double tangent(double x) { return __enzyme_fwddiff((void *)copy, x, 1.0); }
