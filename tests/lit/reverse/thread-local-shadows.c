// A thread-local global the differentiated code writes gets a thread-local
// shadow of the same mode (until 2026-12-07 the store was an error, "it is
// thread-local"): each thread's adjoints go to its own copy. The shadow is
// addressed directly in the derivative (the function's
// llvm.threadlocal.address calls are replaced by the global, which means
// the same outside coroutines).
// RUN: %adcc -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
double __enzyme_autodiff(void *, ...);

_Thread_local double acc;
static __thread double scratch[2] __attribute__((tls_model("initial-exec")));

static double f(double x) {
  scratch[0] = x * x;
  scratch[1] = scratch[0] * x;
  acc = scratch[1] + scratch[0];
  return acc * x;
}
double grad(double x) { return __enzyme_autodiff((void *)f, x); }

// (At -O2 the optimizer keeps scratch's values in registers.)
// CHECK-DAG: @acc_shadow = thread_local global double 0.0
// O0-DAG: @scratch_shadow = internal thread_local(initialexec) global [2 x double] zeroinitializer
// CHECK-NOT: @llvm.threadlocal.address.p0(ptr @{{(acc|scratch)}}
