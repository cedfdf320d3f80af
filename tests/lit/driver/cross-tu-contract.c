// Derivatives made when adcc links the program contract their arithmetic
// as the objects' translation units were compiled: the embedded IR records
// it (module flag adcc.contract), and objects that disagree give
// uncontracted derivatives. Built with -mfma (only disassembled, never run
// here: the processor may lack FMA), the link-time gradient of
// x0 x1 x2 adds its products into the shadow with vfmadd; with
// -ffp-contract=off in either file it does not.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -mfma -c model.c -o model-on.o
// RUN: %adcc -O2 -mfma -c main.c -o main-on.o
// RUN: %adcc -O2 -mfma -ffp-contract=off -c model.c -o model-off.o
// RUN: %adcc -O2 -mfma -ffp-contract=off -c main.c -o main-off.o
// RUN: %adcc main-on.o model-on.o -o on
// RUN: llvm-objdump -d --no-show-raw-insn on | FileCheck %s --check-prefix=ON
// RUN: %adcc main-off.o model-off.o -o off
// RUN: llvm-objdump -d --no-show-raw-insn off | FileCheck %s --check-prefix=OFF
// RUN: %adcc main-on.o model-off.o -o mixed
// RUN: llvm-objdump -d --no-show-raw-insn mixed | FileCheck %s --check-prefix=OFF
// The numbers, without -mfma: d(x0 x1 x2) = (x1 x2, x0 x2, x0 x1).
// RUN: %adcc -O2 -c model.c main.c && %adcc main.o model.o -o prog && ./prog | FileCheck %s
// ON-LABEL: <__adcc_xtu.{{.*}}prod3>:
// ON: vfmadd
// ON: ret
// OFF-LABEL: <__adcc_xtu.{{.*}}prod3>:
// OFF-NOT: vfmadd
// OFF: ret
// CHECK: dx -1 -0.75 3

//--- model.c
double prod3(const double *x) { return x[0] * x[1] * x[2]; }

//--- main.c
#include <stdio.h>
double prod3(const double *x);
void __enzyme_autodiff(void *, ...);
int main(void) {
  double x[3] = {1.5, 2.0, -0.5}, dx[3] = {0};
  __enzyme_autodiff((void *)prod3, x, dx);
  printf("dx %g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}
