// A subnormal x normalized by its bits, as fdlibm's pow does it: scaled by
// 2^53 first, then its high word given the exponent of [1, 2), the
// exponent kept in n; the result scales the normalized value back down.
// The derivative of the normalized value is 2^(53 + k) for a k that
// makes it pass 2^1024 when x < 2^-1023: no double holds it, and forward
// mode carried inf, then NaN, to a result whose derivative is finite
// (until 2026-12-06; here 2^29 at x = 1e-310). Reverse mode multiplies the
// small adjoint by the scale last and is exact. Forward mode now stops the
// program with adcc's message where, and only where, the tangent
// overflows; at normal x and at subnormals whose scale fits, both modes
// are exact (against the closed form and central differences).
#include <adcc_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double d;
  struct {
    uint32_t lo, hi;
  } w;
} words;

/* x's significand m in [1, 2), scaled by 2^-1000, and its exponent n
   (x = m 2^n, x > 0): the derivative is 2^(-1000 - n). */
__attribute__((noinline)) double rescaled(double x) {
  words u;
  u.d = x;
  uint32_t hx = u.w.hi;
  int n = 0;
  if (hx < 0x00100000) {
    u.d *= 0x1p53;
    hx = u.w.hi;
    n = -53;
  }
  n += (int)(hx >> 20) - 0x3ff;
  u.w.hi = 0x3ff00000 | (hx & 0xfffff);
  return u.d * 0x1p-1000 + n * 1e-300;
}

static int failures;

static void check(const char *what, double x, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * fabs(want);
  failures += !ok;
  printf("%-18s x=%-12g %.17g (want %.17g)%s\n", what, x, got, want,
         ok ? "" : "  FAIL");
}

static void stopped(const char *message) {
  _exit(strstr(message, "overflowed where a float is given a new exponent")
            ? 3
            : 4);
}

/* Forward mode at x, in a child process: 3 where it stopped with the
   message. */
static int forward_stops(double x) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    adcc_set_error_handler(stopped);
    volatile double t = __enzyme_fwddiff((void *)rescaled, x, 1.0);
    (void)t;
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 3;
}

int main(void) {
  /* Normal x, and subnormals whose scale 2^(53 + k) is a double. */
  const double exact[] = {0.75, 3e10, 1e-300, 2.5e-308};
  for (unsigned i = 0; i < sizeof exact / sizeof exact[0]; ++i) {
    double x = exact[i];
    double h = 1e-7 * x;
    int e;
    double f = frexp(x, &e);
    double want = ldexp(1.0, -1000 - (e - 1));
    check("value", x, rescaled(x), 2 * f * 0x1p-1000 + (e - 1) * 1e-300,
          1e-15);
    check("reverse", x, __enzyme_autodiff((void *)rescaled, x), want, 1e-15);
    check("forward", x, __enzyme_fwddiff((void *)rescaled, x, 1.0), want,
          1e-15);
    /* (The exponent's term n 1e-300 rounds the values: 1e-5.) */
    check("central difference", x,
          (rescaled(x + h) - rescaled(x - h)) / (2 * h), want, 1e-5);
  }
  /* Subnormals whose tangent passes 2^1024: reverse exact, forward stops. */
  const double deep[] = {1e-310, 3e-320};
  for (unsigned i = 0; i < sizeof deep / sizeof deep[0]; ++i) {
    double x = deep[i];
    int e;
    frexp(x, &e);
    double want = ldexp(1.0, -1000 - (e - 1));
    check("reverse", x, __enzyme_autodiff((void *)rescaled, x), want, 1e-15);
    int ok = forward_stops(x);
    failures += !ok;
    printf("%-18s x=%-12g %s\n", "forward", x,
           ok ? "stopped (tangent past the doubles)" : "  FAIL (no stop)");
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
