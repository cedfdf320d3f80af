// An entry point called through a pointer variable: at -O0 the variable
// keeps the address of the declaration, which nothing defines (the program
// failed to link); a located error says to call it by its name. From -O1
// the variable is gone and the call is a direct one, which works. A call
// of the name cast to another type works at every level:
// e2e compat_request_types.c.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=O2
// CHECK: entry-point-pointer.c:[[@LINE+10]]:10: error: '__enzyme_autodiff' is called through a function pointer; call it by its name (a cast of the name is fine)
// CHECK-NOT: Stack dump
// O2-NOT: __enzyme_autodiff
typedef struct {
  double dx, dy;
} grads;
double __enzyme_autodiff(void *, ...);
static double f(double x, double y) { return x * x * y; }
grads both(double x, double y) {
  grads (*g)(void *, ...) = (grads(*)(void *, ...))__enzyme_autodiff;
  return g((void *)f, x, y);
}
