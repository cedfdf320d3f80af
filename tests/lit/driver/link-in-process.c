// adcc's link step runs in the driver's process: a link starts the linker
// and nothing else, with a derivative made at link time (the gradient of a
// function of another file) and without one. The gradient is checked
// against the analytic one and central differences.
// REQUIRES: strace
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c model.c main.c plain.c
// RUN: strace -f -qq -e trace=execve -e signal=none -o link.trace %adcc main.o model.o -o prog -lm
// RUN: ./prog | FileCheck %s
// RUN: FileCheck --check-prefix=EXEC %s < link.trace
// RUN: strace -f -qq -e trace=execve -e signal=none -o plain.trace %adcc plain.o -o plain
// RUN: ./plain
// RUN: FileCheck --check-prefix=EXEC %s < plain.trace
// Compiling and linking in one command: the compile jobs run as processes
// of their own (as clang's do when a command has several jobs), the link
// step does not.
// RUN: strace -f -qq -e trace=execve -e signal=none -o both.trace %adcc -O2 main.c model.c -o both -lm
// RUN: ./both | FileCheck %s
// RUN: FileCheck --check-prefix=BOTH %s < both.trace

// CHECK: ok 1.50000000 3.12758256
// EXEC: execve("{{[^"]*}}/adcc",
// EXEC-NOT: execve(
// EXEC: execve("{{[^"]*}}/ld{{(\.[a-z]+)?}}",
// EXEC-NOT: execve(
// BOTH-NOT: -adcc-link-job
// BOTH: execve("{{[^"]*}}/ld{{(\.[a-z]+)?}}",
// BOTH-NOT: execve(

//--- model.c
#include <math.h>
double model(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }

//--- main.c
#include <math.h>
#include <stdio.h>
double model(const double *x);
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
int main(void) {
  double x[2] = {1.5, 0.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double want0 = 2 * x[0] * x[1], want1 = x[0] * x[0] + cos(x[1]);
  double h = 1e-6, xp[2] = {x[0], x[1] + h}, xm[2] = {x[0], x[1] - h};
  double fd1 = (model(xp) - model(xm)) / (2 * h);
  int ok = fabs(dx[0] - want0) < 1e-12 && fabs(dx[1] - want1) < 1e-12 &&
           fabs(dx[1] - fd1) < 1e-6;
  printf("%s %.8f %.8f\n", ok ? "ok" : "WRONG", dx[0], dx[1]);
  return !ok;
}

//--- plain.c
int main(void) { return 0; }
