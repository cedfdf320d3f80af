// A pointer to constant data (an enzyme_const argument) stored into
// memory that also holds derivatives (a struct shared with the active
// state, as Boost.Odeint's stages hold the system and the state) would be
// read back as an active pointer whose shadow there is null: the reverse
// sweep added adjoints through it (a segfault) and forward mode read
// tangents through it (undefined behaviour: a wrong result at -O2). Both
// modes report the store where the pointer is known to point to doubles
// (here at -O1 and above; at -O0, where `p` is only stored, its pointee is
// not known and the crash remains: docs/status.md).
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: %expect-exit 1 %adcc -O2 -c -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// With the data duplicated (a zero shadow) there is nothing to report.
// RUN: %adcc -O2 -c -DDUPLICATED %s -o /dev/null
// RUN: %adcc -O2 -c -DDUPLICATED -DFORWARD %s -o /dev/null
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct sys {
  const double *p;
};
struct stage {
  const struct sys *s;
  double *x;
};

__attribute__((noinline)) static double rhs(const struct sys *s, double v) {
  return -s->p[0] * v;
}

__attribute__((noinline)) static void step(const struct stage *st) {
  st->x[0] += 0.1 * rhs(st->s, st->x[0]);
}

static double run(const double *x0, const double *p) {
  struct sys s = {p};
  // CHECK: constant-pointer-store.c:[[#@LINE-1]]:18: error: cannot differentiate 'run' in reverse mode: a pointer to data without derivatives (an enzyme_const argument, or memory reached through one) is stored into memory that also holds derivatives
  // FWD: constant-pointer-store.c:[[#@LINE-2]]:18: error: cannot differentiate 'run' in forward mode: a pointer to data without derivatives
  double x[1] = {x0[0]};
  struct stage st = {&s, x};
  step(&st);
  return x[0];
}

#ifdef DUPLICATED
#define P_ARG enzyme_dup, p, dp
#else
#define P_ARG enzyme_const, p
#endif

double derivative(const double *x, double *dx, const double *p, double *dp) {
#ifdef FORWARD
  return __enzyme_fwddiff((void *)run, enzyme_dup, x, dx, P_ARG);
#else
  return __enzyme_autodiff((void *)run, enzyme_dup, x, dx, P_ARG);
#endif
}
