// An integer stored over a part of a double with a derivative (a byte
// changed through a char pointer) is an error in both modes at -O0, where
// the stores stay as written: the derivative did not follow the bits and
// stayed that of the old value (for y = x0 * x1 sign-flipped, then y * x0:
// (0, 0.09) instead of (-0.24, -0.09)). At -O1 and up the optimizer makes
// these negations and fabs, which are differentiated. The words of a union
// (fdlibm's SET_HIGH_WORD) are followed at -O0 too since 2026-12-06 (e2e
// rev_float_words_o0.c).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double byte_flip(const double *x) {
  double y = x[0] * x[1];
  unsigned char *b = (unsigned char *)&y;
  // CHECK-DAG: float-part-stores.c:[[@LINE+2]]:8: error: cannot differentiate 'byte_flip' in reverse mode: an integer is stored over a part of a floating-point value with a derivative
  // CHECK-DAG: float-part-stores.c:[[@LINE+1]]:8: error: cannot differentiate 'byte_flip' in forward mode: an integer is stored over a part of a floating-point value with a derivative
  b[7] ^= 0x80;
  return y * x[0];
}

// The union's words followed at -O0, but the low word also stored where
// a derivative cannot follow it: the cast of the words to a double is an
// error (after the union words were followed at -O0, 2026-12-06, and
// before this error, a derivative of 0, silently).
typedef union {
  double d;
  struct {
    uint32_t lo, hi;
  } w;
} words;
uint32_t seen;
static double stored_word(const double *x) {
  words u, r;
  u.d = x[0];
  seen = u.w.lo;
  r.w.hi = u.w.hi + (4u << 20);
  // (At the last word's store, where the words are put together.)
  // CHECK-DAG: float-part-stores.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'stored_word' in reverse mode: a floating-point value is made of another's significand bits, which also go where adcc cannot follow them
  // CHECK-DAG: float-part-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'stored_word' in forward mode: a floating-point value is made of another's significand bits
  r.w.lo = u.w.lo;
  return r.d;
}

double gradients(double *x, double *dx) {
  return __enzyme_autodiff((void *)byte_flip, enzyme_dup, x, dx) +
         __enzyme_fwddiff((void *)byte_flip, enzyme_dup, x, dx) +
         __enzyme_autodiff((void *)stored_word, enzyme_dup, x, dx) +
         __enzyme_fwddiff((void *)stored_word, enzyme_dup, x, dx);
}
