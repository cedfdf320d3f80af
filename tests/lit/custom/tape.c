// A registered gradient with a tape: the augmented function returns
// {result, void *tape}; the reverse function receives the tape last.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 %s -o %t/p0 -lm && %t/p0 | FileCheck %s
// RUN: %adcc -O2 %s -o %t/p2 -lm && %t/p2 | FileCheck %s
// CHECK: grad 12 analytic 12
#include <stdio.h>
#include <stdlib.h>
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double cube(double x) { return x * x * x; }
typedef struct {
  double primal;
  void *tape;
} aug_result;
aug_result cube_aug(double x) {
  double *saved = malloc(sizeof(double));
  *saved = 3 * x * x; // the derivative, computed in the forward sweep
  aug_result r = {cube(x), saved};
  return r;
}
double cube_rev(double x, double d, void *tape) {
  (void)x;
  double g = *(double *)tape * d;
  free(tape);
  return g;
}
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug,
                                           (void *)cube_rev};
double f(double x) { return cube(x) + 0.0; }
int main(void) {
  printf("grad %g analytic %g\n", __enzyme_autodiff((void *)f, 2.0), 12.0);
  return 0;
}
