// A float made of a union's words at -O0 where a word also goes where a
// derivative cannot follow it is an error in both modes. (A byte changed
// through a char pointer variable, `b[7] ^= 0x80`, was an error here
// until 2026-12-06: the pointer variable is now followed to the double,
// whose bytes are then read in registers as at -O1: e2e
// rev_float_words_o0.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

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
  return __enzyme_autodiff((void *)stored_word, enzyme_dup, x, dx) +
         __enzyme_fwddiff((void *)stored_word, enzyme_dup, x, dx);
}
