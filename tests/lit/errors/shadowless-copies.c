// Numbers with derivatives copied (a struct assignment, memcpy, memmove)
// into memory without a shadow: a buffer that a struct passed enzyme_const
// points to, as in an FFT plan holding its scratch buffer. Their adjoints
// would be lost: an error in both modes at every level, as for a store of
// one. (Reverse mode gave a zero gradient without a word until 2026-12-06,
// KISS FFT's kiss_fftr with its plan passed enzyme_const; forward mode was
// an error already.) With a duplicated plan whose shadow points to a
// zeroed buffer the same code is differentiated: e2e rev_plan_buffers.c.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <string.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  double re, im;
} cplx;

struct plan {
  int n;
  cplx *scratch;
};

// A struct assignment per element into the plan's buffer, read back.
static double energy(struct plan *p, const cplx *x) {
  for (int k = 0; k < p->n; ++k)
    // CHECK-DAG: shadowless-copies.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'energy' in reverse mode: a value with a derivative is stored into memory that has no shadow
    // CHECK-DAG: shadowless-copies.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'energy' in forward mode: derivatives are copied into memory that has no shadow
    p->scratch[k] = x[k];
  double s = 0;
  for (int k = 0; k < p->n; ++k)
    s += p->scratch[k].re * p->scratch[k].re + p->scratch[k].im * p->scratch[k].im;
  return s;
}

void denergy(struct plan *p, const cplx *x, cplx *dx, const cplx *t) {
  __enzyme_autodiff((void *)energy, enzyme_const, p, enzyme_dup, x, dx);
  __enzyme_fwddiff((void *)energy, enzyme_const, p, enzyme_dup, x, t);
}

// memcpy and memmove of the whole signal.
static double copied(struct plan *p, const cplx *x) {
  // CHECK-DAG: shadowless-copies.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'copied' in reverse mode: a value with a derivative is stored into memory that has no shadow
  memcpy(p->scratch, x, sizeof(cplx) * p->n);
  double s = 0;
  for (int k = 0; k < p->n; ++k)
    s += p->scratch[k].re * (k + 1);
  return s;
}

static double moved(struct plan *p, const cplx *x) {
  // CHECK-DAG: shadowless-copies.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'moved' in reverse mode: a value with a derivative is stored into memory that has no shadow
  memmove(p->scratch, x, sizeof(cplx) * p->n);
  return p->scratch[0].im * p->scratch[1].re;
}

void dcopies(struct plan *p, const cplx *x, cplx *dx) {
  __enzyme_autodiff((void *)copied, enzyme_const, p, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)moved, enzyme_const, p, enzyme_dup, x, dx);
}

// The copy made by a helper the plan's buffer is passed to.
__attribute__((noinline)) static void copy_out(cplx *out, const cplx *in,
                                               int n) {
  for (int k = 0; k < n; ++k)
    // CHECK-DAG: shadowless-copies.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'copy_out' in reverse mode: a value with a derivative is stored into memory
    out[k] = in[k];
}

static double through_helper(struct plan *p, const cplx *x) {
  copy_out(p->scratch, x, p->n);
  return p->scratch[1].re * p->scratch[1].im;
}

void dhelper(struct plan *p, const cplx *x, cplx *dx) {
  __enzyme_autodiff((void *)through_helper, enzyme_const, p, enzyme_dup, x, dx);
}
