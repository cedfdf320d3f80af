// What an object carries for the derivatives made at link time: compressed
// IR (ADCC.IRZ frames) of what other files can reach; nothing for a file
// that defines nothing other files can reach; nothing at all with
// -fno-adcc-cross-tu, whose objects and libraries are clang-22's.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c lib.c -o lib.o
// RUN: llvm-readelf -S lib.o | FileCheck --check-prefix=SECTION %s
// RUN: llvm-objcopy --dump-section .adcc.ir=lib.ir lib.o /dev/null
// RUN: head -c 8 lib.ir | FileCheck --check-prefix=ZSTD %s
// RUN: %adcc -O0 -c internal.c -o internal.o
// RUN: llvm-readelf -S internal.o | FileCheck --check-prefix=NONE %s
// RUN: %adcc -O2 -fno-adcc-cross-tu -c lib.c -o lib-none.o
// RUN: %adcc -O2 -fno-adcc-cross-tu -c internal.c -o internal-none.o
// RUN: llvm-readelf -S lib-none.o | FileCheck --check-prefix=NONE %s
// RUN: %clang -O2 -c lib.c -o lib-clang.o && %clang -O2 -c internal.c -o internal-clang.o
// RUN: cmp lib-none.o lib-clang.o && cmp internal-none.o internal-clang.o
// RUN: mkdir none clang && cp lib-none.o none/lib.o && cp internal-none.o none/internal.o
// RUN: cp lib-clang.o clang/lib.o && cp internal-clang.o clang/internal.o
// RUN: cd none && llvm-ar rcsD ../libnone.a lib.o internal.o && cd ../clang && llvm-ar rcsD ../libclang.a lib.o internal.o && cd ..
// RUN: cmp libnone.a libclang.a
// The carried IR is read back at link time: a gradient of scaled_sum()
// made from it, against the analytic gradient (2 x_i * scale).
// RUN: %adcc -O2 main.c lib.o internal.o -o prog && ./prog | FileCheck %s

// SECTION: .adcc.ir
// ZSTD: ADCC.IRZ
// NONE-NOT: .adcc.ir
// CHECK: ok 3.00000000 -6.00000000

//--- lib.c
static const double scale = 1.5;
static double square(double x) { return x * x; }
double scaled_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += square(x[i]);
  return s * scale;
}

//--- internal.c
static double unused_helper(double x) { return x * 2; }

//--- main.c
#include <math.h>
#include <stdio.h>
double scaled_sum(const double *x, int n);
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
int main(void) {
  double x[2] = {1.0, -2.0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)scaled_sum, enzyme_dup, x, dx, enzyme_const, 2);
  int ok = fabs(dx[0] - 3.0) < 1e-12 && fabs(dx[1] + 6.0) < 1e-12;
  printf("%s %.8f %.8f\n", ok ? "ok" : "WRONG", dx[0], dx[1]);
  return !ok;
}
