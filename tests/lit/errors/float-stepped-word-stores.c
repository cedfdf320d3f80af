// Integer stores through a pointer stepped over the 16-bit words of a
// double in a union (Cephes' floor: whole words cleared with `*p++ = 0`,
// the last one masked by a table's entry) are an error in both modes at
// every level: the derivative cannot follow the bits. Until 2026-12-06 the
// offsets, not constant (a pointer variable at -O0, a phi at -O2), kept
// the stores from being seen, and the truncated value kept x's derivative,
// silently: here 2x + 1 instead of 2x at -O1 to -O3 (at -O0 another error
// caught this one, not Cephes' own floor: scripts/realcode/libm.sh).
// Stores at constant offsets were the error already
// (float-part-stores.c).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static const unsigned short keep[16] = {
    0xffff, 0xfffe, 0xfffc, 0xfff8, 0xfff0, 0xffe0, 0xffc0, 0xff80,
    0xff00, 0xfe00, 0xfc00, 0xf800, 0xf000, 0xe000, 0xc000, 0x8000};

typedef union {
  double d;
  unsigned short w[4];
} words;

/* x >= 1 rounded down: its fraction's bits cleared, low words first. */
__attribute__((noinline)) double chop(double x) {
  words u;
  u.d = x;
  int bits = 52 - (((u.w[3] >> 4) & 0x7ff) - 0x3ff);
  unsigned short *p = &u.w[0];
  while (bits >= 16) {
    *p++ = 0;
    bits -= 16;
  }
  // CHECK: float-stepped-word-stores.c:[[@LINE+2]]:8: error: cannot differentiate 'chop' in {{forward|reverse}} mode: an integer is stored over a part of a floating-point value with a derivative
  if (bits > 0)
    *p &= keep[bits];
  return u.d;
}

static double objective(double x) { return chop(x) + x * x; }

double gradients(double x) {
  return __enzyme_autodiff((void *)objective, x) +
         __enzyme_fwddiff((void *)objective, x, 1.0);
}
