// A pointer to constant data (an enzyme_const argument) stored into memory
// that also holds derivatives (a struct shared with the active state, as
// Boost.Odeint's stages hold the system and the state) has a null shadow
// there; read back, its shadow may be null at run time while it is not.
// Accesses through such a shadow are guarded: the adjoint added through a null
// shadow goes to a sink block nothing reads, the value read through it comes
// from a block of zeros (adcore/lib/analysis/NullableShadows.h). Before (issue
// 33), the reverse sweep added adjoints at address 0 (a segfault) and forward
// mode read tangents there; both were then an error at the store from -O1, and
// at -O0 a crash. Numbers: e2e rev_const_pointers_o0.c.
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O0 -c %s -o /dev/null
// RUN: %adcc -O0 -c -DFORWARD %s -o /dev/null
// RUN: %adcc -O2 -c -DFORWARD %s -o /dev/null
// CHECK-DAG: @adcc.zero.tangents.64 = private constant [64 x i8] zeroinitializer
// CHECK-DAG: @adcc.shadow.sink.64 = private global [64 x i8] zeroinitializer
// CHECK-LABEL: define {{.*}} @derivative(
// Within the call, the null shadow of p read back is the scratch shadow of
// p's address (NullShadowGuards.h: a write then a read through it meet).
// CHECK: call void @adcc_null_shadows_enter()
// CHECK: call ptr @adcc_null_shadow(ptr %
// CHECK: select i1 %{{.*}}, ptr @adcc.zero.tangents.64, ptr
// CHECK-NEXT: select i1 %{{.*}}, ptr @adcc.shadow.sink.64, ptr
// CHECK: call void @adcc_null_shadows_leave()
// With the data duplicated (a zero shadow), no shadow may be null: no guard.
// RUN: %adcc -O2 -S -emit-llvm -DDUPLICATED %s -o - | FileCheck %s --check-prefix=DUP
// RUN: %adcc -O2 -S -emit-llvm -DDUPLICATED -DFORWARD %s -o - | FileCheck %s --check-prefix=DUP
// DUP-NOT: adcc.shadow.sink
// DUP-NOT: adcc.zero.tangents
// DUP-NOT: adcc_null_shadow
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
