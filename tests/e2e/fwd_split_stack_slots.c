/* Split forward mode and the addresses of the primal's stack slots. The
 * tangent sweep reads the pointers the recording sweep loaded (at -O0,
 * every pointer variable is loaded from its slot); an address it took of
 * its own local array would lie in another frame. Until 2026-12-06 the
 * tangent sweep compared such a recorded pointer with its own array's
 * address: a pointer walk `for (p = a; p < a + 3; ++p)` ran no iteration
 * there (a silently wrong tangent where the walk's index, p - a, enters
 * the value), and the records read after it were out of step (a function
 * pointer read from the wrong record: "points to 0x7ffc...", or the
 * "read 1632 of the 1872 bytes" report). adfuzz version 22 seeds 6 and
 * 103, version 20 seed 188. Each tangent is checked against the one-call
 * forward mode, reverse mode and central differences. */
#include "fwd_check.h"

#include <string.h>

extern int enzyme_out;

enum { N = 3 };

/* A pointer walk over a local array whose index enters the value. */
static double walk(const double *x) {
  double a[N];
  for (int i = 0; i < N; ++i)
    a[i] = x[i] * x[(i + 1) % N];
  double s = 0;
  for (double *p = a; p < a + N; ++p)
    s += (double)(p - a + 1) * sin(*p);
  return s;
}

/* A function pointer handed to a helper after a walk over a local array
 * (the records read after the walk include the pointer). */
static double bump(double a, double b) { return a * tanh(b); }
static double damp(double a, double b) { return a / (1.5 + b * b); }
static double apply(double (*fp)(double, double), double a, double b) {
  double t = fp(a, b);
  return fp(t, a) + b;
}
static double pointers(const double *x) {
  double a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = exp(0.3 * x[i]);
  for (double *p = a, *q = b; p != a + N; ++p, ++q)
    *q = *p * x[0];
  double (*fp)(double, double) = x[1] > 0 ? bump : damp;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += apply(fp, b[i], x[2]);
  /* a slot's address compared with a pointer into it */
  double *last = &b[N - 1];
  for (double *p = b; p <= last; ++p)
    if (p == last)
      s += *p * *p;
  return s;
}

/* A walk over a struct's array field on the stack, with a while loop. */
struct grid {
  int n;
  double v[4];
};
static double fields(const double *x) {
  struct grid g = {4, {x[0], x[1], x[2], x[0] * x[1]}};
  double *p = g.v, s = 0;
  while (p < g.v + g.n) {
    s += cos(*p) * (double)(g.v + g.n - p);
    ++p;
  }
  return s;
}

static const double X0[N] = {0.4, 0.7, -0.3};
#include "fwd_split_check.h"

int main(void) {
  check(walk);
  check(pointers);
  check(fields);
  return check_finish();
}
