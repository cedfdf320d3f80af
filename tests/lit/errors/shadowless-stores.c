// A value with a derivative stored into memory without a shadow: the error
// names that memory as the program knows it (the argument passed with
// enzyme_const, a global variable that gets no shadow) and the fix, in both modes, at -O0
// (where the argument lives in a stack slot) as at -O2.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
extern int enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// A global defined in another file: its shadow would be defined there.
extern double cache;
// CHECK-DAG: shadowless-stores.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'keep' in reverse mode: a value with a derivative is stored into the global variable 'cache', which has no shadow: it is defined in another file, where its shadow would be defined; name its shadow with __attribute__((enzyme_shadow(...)))
// CHECK-DAG: shadowless-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'keep' in forward mode: a value with a derivative is stored into the global variable 'cache'
double keep(double x) { cache = x * x; return x; }
double dkeep(double x) {
  return __enzyme_autodiff((void *)keep, x) + __enzyme_fwddiff((void *)keep, x, 1.0);
}

// A global that holds a pointer: its shadow pointer cannot be known. An
// error where differentiated code reads through it again (recall); a global
// the differentiated code only writes needs no shadow (e2e
// rev_write_only_globals.cpp).
double *where;
double recall(double *p) { return *where * *p; }
double drecall(double *p, double *dp) {
  return __enzyme_autodiff((void *)recall, p, dp);
}
// CHECK-DAG: shadowless-stores.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'remember' in reverse mode: a value with a derivative is stored into the global variable 'where', which has no shadow: it holds pointers
// CHECK-DAG: shadowless-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'remember' in forward mode: a value with a derivative is stored into the global variable 'where'
double remember(double *p) { where = p; return *p; }
double dremember(double *p, double *dp) {
  return __enzyme_autodiff((void *)remember, p, dp) +
         __enzyme_fwddiff((void *)remember, p, dp);
}

// A global beside a pointer that one derivative writes and another reads
// back as the bits of its double (a copy through an integer): not only
// written, an error.
struct Pair { double v; double *p; } pair;
// CHECK-DAG: shadowless-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'put' in reverse mode: a value with a derivative is stored into the global variable 'pair', which has no shadow: it holds pointers
double put(double *x) { pair.v = x[0] * x[0]; pair.p = x; return x[0]; }
double take(double *x) {
  unsigned long u;
  __builtin_memcpy(&u, &pair.v, 8);
  double d;
  __builtin_memcpy(&d, &u, 8);
  return d * x[0];
}
double dput(double *x, double *dx) {
  return __enzyme_autodiff((void *)put, x, dx) +
         __enzyme_autodiff((void *)take, x, dx);
}

// Memory passed enzyme_const that the call only writes a value with a
// derivative into, leaving it for a later call (what is read back within
// the call gets a scratch shadow: e2e const_memory_writes.c).
// CHECK-DAG: shadowless-stores.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'update' in reverse mode: a value with a derivative is stored into memory that argument 1 of 'update' points to, which has no shadow (it was passed with enzyme_const, or its caller passes memory without one); the derivative would be lost for what reads it later: pass that argument with enzyme_dup and a shadow buffer
// CHECK-DAG: shadowless-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'update' in forward mode: a value with a derivative is stored into memory that argument 1 of 'update' points to
double update(double *state, double *w) { state[0] = w[0] * w[0]; return w[0]; }
double dupdate(double *s, double *w, double *dw) {
  return __enzyme_autodiff((void *)update, enzyme_const, s, enzyme_dup, w, dw) +
         __enzyme_fwddiff((void *)update, enzyme_const, s, enzyme_dup, w, dw);
}

// Split mode: the two sweeps run apart, so no scratch shadow spans them.
void *__enzyme_augmentfwd(void *, ...);
// CHECK-DAG: shadowless-stores.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'scale' in reverse mode: a value with a derivative is stored into memory that argument 1 of 'scale' points to
double scale(double *s, double *w) { s[0] = s[0] * w[0]; return s[0] * s[0]; }
void *dscale(double *s, double *w, double *dw) {
  return __enzyme_augmentfwd((void *)scale, enzyme_const, s, enzyme_dup, w, dw);
}

// A request that makes a scratch shadow inside code differentiated again
// (forward over reverse, reverse over reverse): the outer derivative has no
// shadow of the scratch shadow. An error at the inner request, at every
// level (at -O0 the derivative was silently wrong before this check).
static double cube_in_place(double *s, double *w) {
  s[0] = s[0] * w[0];
  return s[0] * s[0] * w[0];
}
void inner_gradient(double *w, double *g) {
  double s[1] = {1.5};
  g[0] = 0;
  __enzyme_autodiff((void *)cube_in_place, enzyme_const, s, enzyme_dup, w, g);
  // CHECK-DAG: shadowless-stores.c:[[@LINE-1]]:3: error: cannot differentiate 'inner_gradient' in forward mode: a request in this function passes memory enzyme_const that the function it differentiates overwrites and reads back (a scratch shadow), and this function is differentiated again; pass that memory enzyme_dup with a zeroed shadow buffer
}
void hessian_vector(double *w, double *v, double *g, double *hv) {
  __enzyme_fwddiff((void *)inner_gradient, enzyme_dup, w, v, enzyme_dup, g, hv);
}
