// A value with a derivative stored into memory that a global variable
// points to (a scratch buffer kept in `double *buf`, as miniWeather keeps
// its MPI send buffers): the global gets no shadow, so the error names the
// global and says how to give it one (enzyme_shadow names a shadow
// pointer; e2e-checked by hand: with `d_buf` pointing to a zeroed buffer
// the gradient is right at -O0 and -O2). Until 2026-12-06 the message said
// only "memory that has no shadow". Both modes, -O0 and -O2.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -DFORWARD -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -DNAMED -c %s -o /dev/null
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifdef NAMED
double *d_buf;
__attribute__((enzyme_shadow(d_buf))) double *buf;
#else
double *buf;
#endif

// CHECK: global-pointer-stores.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate '{{fill|f}}' in {{reverse|forward}} mode: a value with a derivative is stored into memory that the global variable 'buf' points to, which has no shadow (a global holding a pointer gets none); name a shadow pointer for it with enzyme_shadow (`double *d_buf; __attribute__((enzyme_shadow(d_buf))) double *buf;`, the shadow pointing to a zeroed buffer of the same size), or pass that memory to the function as an argument with enzyme_dup
static void fill(const double *x, int n) {
  for (int i = 0; i < n; ++i) buf[i] = x[i] * x[i];
}
static double f(const double *x, int n) {
  fill(x, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * x[i];
  return s;
}

double gradient(const double *x, double *dx) {
#ifdef FORWARD
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
#else
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  return 0;
#endif
}
