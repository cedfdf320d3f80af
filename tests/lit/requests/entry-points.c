// Entry points are recognised by substring of the callee name, as Enzyme
// does; each kind of request is named in the diagnostic.
// RUN: not %adcc -O1 -c %s -fadcc-print-requests -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: request: reverse mode of 'f'
// CHECK-DAG: request: forward mode of 'f'
// CHECK-DAG: request: augmented forward (split reverse mode) of 'f'
// CHECK-DAG: request: reverse sweep (split reverse mode) of 'f'
// CHECK-DAG: request: augmented tape size of 'f'
// CHECK-DAG: request: split forward mode of 'f'
// CHECK-DAG: request: batched primal of 'f'
double f(double x) { return x * x * x; }
double __enzyme_autodiff_double(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double __enzyme_batch(void *, ...);
double all(double x) {
  double r = __enzyme_autodiff_double((void *)f, x);
  r += __enzyme_fwddiff((void *)f, x, 1.0);
  void *tape = __enzyme_augmentfwd((void *)f, x);
  __enzyme_reverse((void *)f, x, 1.0, tape);
  r += __enzyme_augmentsize((void *)f);
  r += __enzyme_fwdsplit((void *)f, x, 1.0, tape);
  r += __enzyme_batch((void *)f, x);
  return r;
}
