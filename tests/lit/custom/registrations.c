// Registered derivatives replace adcc's own, in both modes; inactive
// functions and globals carry no derivative; __enzyme_function_like maps a
// function to a math rule.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 %s -o %t/p0 -lm && %t/p0 | FileCheck %s
// RUN: %adcc -O2 %s -o %t/p2 -lm && %t/p2 | FileCheck %s
// CHECK: fwd 10.0263 rev 10.0263 analytic 10.0263
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double blackbox(double x) { return x * x * x; }
// Ten times the true derivative, to show the registered one is used.
double blackbox_fwd(double x, double dx) { return 30 * x * x * dx; }
double blackbox_aug(double x) { return blackbox(x); }
double blackbox_rev(double x, double d) { return 30 * x * x * d; }
void *__enzyme_register_derivative_blackbox[] = {(void *)blackbox,
                                                 (void *)blackbox_fwd};
void *__enzyme_register_gradient_blackbox[] = {
    (void *)blackbox, (void *)blackbox_aug, (void *)blackbox_rev};

void log_value(double v) { (void)v; }
void *__enzyme_inactivefn_log[] = {(void *)log_value};
double my_exp(double x) { return exp(x); }
void *__enzyme_function_like[2] = {(void *)my_exp, (void *)"exp"};
double counter;
void *__enzyme_inactive_global_counter = (void *)&counter;

double f(double x) {
  log_value(x);
  counter = x;
  return sin(x) + blackbox(x) + my_exp(x);
}

int main(void) {
  double x = 0.5, an = cos(x) + 30 * x * x + exp(x);
  printf("fwd %g rev %g analytic %g\n", __enzyme_fwddiff((void *)f, x, 1.0),
         __enzyme_autodiff((void *)f, x), an);
  return 0;
}
