// Integer arithmetic on a float's bits (the fast inverse square root's
// `0x5f3759df - (i >> 1)`) has no derivative adcc can follow: an error in
// both modes at every level, never a derivative that treats the bits as a
// constant (a silently wrong gradient before, at -O0 in reverse mode and at
// -O1 and up in both).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
#include <string.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

float q_rsqrt(float number) {
  float x2 = number * 0.5F, y = number;
  int32_t i;
  memcpy(&i, &y, 4);
  // CHECK-DAG: float-bits-arithmetic.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'q_rsqrt' in reverse mode
  // CHECK-DAG: float-bits-arithmetic.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'q_rsqrt' in forward mode
  i = 0x5f3759df - (i >> 1); memcpy(&y, &i, 4);
  return y * (1.5F - (x2 * y * y));
}
double rev(float x) { return __enzyme_autodiff((void *)q_rsqrt, x); }
double fwd(float x) { return __enzyme_fwddiff((void *)q_rsqrt, x, 1.0f); }
