// An argument reduction with three paths, as fdlibm's sin reduces x by
// multiples of pi/2: small |x| as it is, medium |x| by n rounded with
// 0x1.8p52, large |x| cut into 24-bit integer pieces with nothing left
// over (as __kernel_rem_pio2 cuts it), whose derivatives are 0 where x's
// is not. The small and medium paths' derivatives are exact (reverse and
// forward against cos and central differences); the large path stops the
// program in both modes with adcc's message, never a number (until
// 2026-12-06 the whole function was refused at compile time). Beside it,
// fdlibm's scaling of |x| to [2^23, 2^24) by its exponent bits (rem_pio2's
// z), cut into pieces with the last residual kept a float: the residual
// carries the derivative, exact (it was refused: the scaled float was not
// followed where it was cut). At -O0 to -O3; the cut's warning is
// expected (built with -w).
#include <adcc_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static const double half_pi = 1.57079632679489655800e+00;

/* sin(x) by its reduction to [-pi/4, pi/4]. */
__attribute__((noinline)) double reduced_sin(double x) {
  double y;
  int n;
  if (fabs(x) <= 0.78) {
    y = x;
    n = 0;
  } else if (fabs(x) < 1e6) {
    double k = (x / half_pi + 0x1.8p52) - 0x1.8p52;
    n = (int)k;
    y = x - k * half_pi;
  } else {
    /* 24-bit pieces of x (x < 2^72 here), each reduced on its own. */
    double z = fabs(x) * 0x1p-48;
    int p0 = (int)z;
    double r = (z - p0) * 0x1p24;
    int p1 = (int)r;
    int p2 = (int)((r - p1) * 0x1p24);
    double sum = fmod((double)p0 * 0x1p48, 2 * M_PI) +
                 fmod((double)p1 * 0x1p24, 2 * M_PI) + (double)p2;
    sum = fmod(sum, 2 * M_PI);
    y = x < 0 ? -sum : sum;
    n = 0;
  }
  switch (n & 3) {
  case 0:
    return sin(y);
  case 1:
    return cos(y);
  case 2:
    return -sin(y);
  default:
    return -cos(y);
  }
}

/* |x| scaled to [2^23, 2^24) through its high word (x normal, |x| >= 1),
   cut into 24-bit pieces, the last kept a float; scaled back: |x|. */
__attribute__((noinline)) double kept_pieces(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint32_t high = (uint32_t)(bits >> 32) & 0x7fffffff, low = (uint32_t)bits;
  int e0 = (int)(high >> 20) - 1046;
  uint64_t zbits = (uint64_t)(high - ((uint32_t)e0 << 20)) << 32 | low;
  double z, t[3];
  memcpy(&z, &zbits, sizeof z);
  for (int i = 0; i < 2; ++i) {
    t[i] = (double)(int32_t)z;
    z = (z - t[i]) * 0x1p24;
  }
  t[2] = z;
  return ldexp(t[0] + t[1] * 0x1p-24 + t[2] * 0x1p-48, e0);
}

static int failures;

static void check(const char *what, double x, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  failures += !ok;
  printf("%-24s x=%-10g %.15g (want %.15g)%s\n", what, x, got, want,
         ok ? "" : "  FAIL");
}

static double central(double (*f)(double), double x, double h) {
  return (f(x + h) - f(x - h)) / (2 * h);
}

static void stopped(const char *message) {
  _exit(strstr(message, "the derivative of 'reduced_sin'") &&
                strstr(message, "reached a path without one")
            ? 3
            : 4);
}

/* Each mode's derivative at x, in a child: it must stop with the message. */
static void check_stop(double x, int forward) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    adcc_set_error_handler(stopped);
    volatile double d = forward
                            ? __enzyme_fwddiff((void *)reduced_sin, x, 1.0)
                            : __enzyme_autodiff((void *)reduced_sin, x);
    (void)d;
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 3;
  failures += !ok;
  printf("%-24s x=%-10g %s\n",
         forward ? "large path, forward" : "large path, reverse", x,
         ok ? "stopped" : "FAIL (did not stop with the message)");
}

int main(void) {
  const double xs[] = {0.3, -0.7, 2.0, -4.0, 6.5, 100.0, -1000.0};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double x = xs[i];
    double r = __enzyme_autodiff((void *)reduced_sin, x);
    double t = __enzyme_fwddiff((void *)reduced_sin, x, 1.0);
    check("sin reverse/analytic", x, r, cos(x), 1e-9);
    check("sin forward/reverse", x, t, r, 1e-12);
    check("sin central difference", x, r, central(reduced_sin, x, 1e-6), 1e-6);
  }
  const double ks[] = {1.5, -3e5, 1e7, -1e22, 7e30};
  for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    double x = ks[i];
    double r = __enzyme_autodiff((void *)kept_pieces, x);
    double t = __enzyme_fwddiff((void *)kept_pieces, x, 1.0);
    check("kept value", x, kept_pieces(x), fabs(x), 0);
    check("kept reverse/analytic", x, r, x < 0 ? -1 : 1, 1e-12);
    check("kept forward/reverse", x, t, r, 1e-12);
    check("kept central difference", x, r, central(kept_pieces, x, 1e-6 * fabs(x)), 1e-6);
  }
  check_stop(1e7, 0);
  check_stop(1e7, 1);
  check_stop(-3e20, 0);
  check_stop(-3e20, 1);
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
