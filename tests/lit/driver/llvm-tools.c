// LLVM 22's own pieces are found wherever adcc runs from: builtin headers,
// compiler-rt, lld, and (for CUDA) the linker wrapper.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -fuse-ld=lld -O2 %s -o %t/lld -lm && %t/lld | FileCheck %s
// RUN: %adcc --rtlib=compiler-rt -O2 %s -o %t/crt -lm && %t/crt | FileCheck %s
// RUN: %adcc -### -fuse-ld=lld --rtlib=compiler-rt %s -o %t/x 2>&1 | FileCheck %s --check-prefix=JOBS
// RUN: cd %t && %adcc -O2 %s -o from-elsewhere -lm && ./from-elsewhere | FileCheck %s
// CHECK: builtin headers 1 sqrt 1.414
// JOBS: "-resource-dir" "{{.*}}llvm-22{{/|\\}}lib{{/|\\}}clang{{/|\\}}22"
// JOBS: "{{.*}}llvm-22{{.*}}ld.lld"
// JOBS-SAME: libclang_rt.builtins-x86_64.a
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <x86intrin.h>

int main(void) {
  atomic_int a = 1; // <stdatomic.h> and <x86intrin.h> are clang's own headers
  printf("builtin headers %d sqrt %.3f\n", atomic_load(&a), sqrt(2.0));
  return 0;
}
