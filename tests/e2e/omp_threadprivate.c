/* OpenMP threadprivate variables holding values with derivatives, and a
 * C11 _Thread_local accumulator, in differentiated regions. Both were the
 * error "it is thread-local, and thread-local globals get no shadow yet"
 * until 2026-12-07: each now gets a thread-local shadow, so every thread
 * accumulates the derivatives of its own copy. Teams of 1, 2 and 4 threads;
 * the gradient against central differences, forward mode against it.
 *
 * - scratch:  a threadprivate array written and read back in each
 *             iteration of a parallel loop (a value with a derivative
 *             passes through it);
 * - carried:  a threadprivate running value each thread keeps from one
 *             iteration to the next of its static chunk, reset at the
 *             region's start;
 * - counted:  a _Thread_local double accumulated outside any region. */
enum { N = 23 };

#include "omp_check.h"

static double scratch[3];
#pragma omp threadprivate(scratch)
static double carry;
#pragma omp threadprivate(carry)
static _Thread_local double total;

double use_scratch(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    scratch[0] = x[i] * x[i];
    scratch[1] = sin(scratch[0]) + x[(i + 1) % n];
    scratch[2] = scratch[1] * scratch[0];
    y[i] = scratch[2];
    s += scratch[2] * x[i];
  }
  return s;
}
DERIVATIVES(use_scratch)

double use_carried(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    carry = 1.0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      carry = 0.5 * carry + x[i];
      y[i] = carry * carry;
      s += y[i];
    }
  }
  return s;
}
DERIVATIVES(use_carried)

double use_total(const double *x, double *y, int n) {
  total = 0;
  for (int i = 0; i < n; ++i) {
    total += exp(0.1 * x[i]) * x[i];
    y[i] = total;
  }
  return total * total;
}
DERIVATIVES(use_total)

int main(void) {
  CHECK_GRADIENT(use_scratch, 1e-6, 1e-6);
  CHECK_GRADIENT(use_carried, 1e-6, 1e-6);
  CHECK_GRADIENT(use_total, 1e-6, 1e-6);
  return check_finish();
}
