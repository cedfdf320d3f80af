/* The reverse sweep reads argument memory again instead of recording it
 * only where nothing can have written that memory in between.  Each case
 * below would give a wrong gradient if a value were read again after being
 * overwritten: a callee reading memory its caller overwrites afterwards, a
 * function writing through a second pointer that aliases the first (same
 * array passed twice), restrict arguments (where reading again is valid,
 * also when the function or its callees write globals),
 * an in-place update of the input, and split mode where the caller changes
 * the input between the two sweeps.  Closed forms, central differences and
 * forward mode. */
#include "rev_check.h"

#define N 6
/* the loops' bound, read at run time so that -O2 keeps the loops (the
 * reverse sweep reads memory again only inside loops) */
int rev_reload_n = N;

/* callee reads x[i]; the caller overwrites x afterwards */
static double sq_sum(const double *x) {
  double s = 0;
  for (int i = 0; i < rev_reload_n; ++i)
    s += x[i] * x[i];
  return s;
}
static double overwrite_after_call(double *x) {
  double r = sq_sum(x);
  for (int i = 0; i < rev_reload_n; ++i)
    x[i] = 3 * x[i] + 1;
  return r + sq_sum(x);
}
static double overwrite_after_call_copy(const double *x) {
  double y[N];
  for (int i = 0; i < N; ++i)
    y[i] = x[i];
  return overwrite_after_call(y);
}

/* writes out[i] = x[i]^2 while reading x: with out == x the reads must
 * see the values before each write */
static void square_into(const double *x, double *out) {
  for (int i = 0; i < rev_reload_n; ++i)
    out[i] = x[i] * x[i] + x[(i + 1) % N];
}
static double aliased(double *x) {
  square_into(x, x);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += x[i] * (i + 1);
  return s;
}
static double aliased_copy(const double *x0) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  return aliased(x);
}

/* restrict: reading x again is valid, out is written */
static void scale_restrict(const double *restrict x, double *restrict out) {
  for (int i = 0; i < rev_reload_n; ++i)
    out[i] = sin(x[i]) * x[(i + 2) % N];
}
static double restrict_case(const double *x) {
  double out[N];
  scale_restrict(x, out);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += out[i] * out[i];
  return s;
}

/* restrict input read in a loop that also writes a global, directly and
 * in a callee (as lgamma writes signgam): neither can reach x, which is
 * read again */
int rev_reload_calls;
double rev_reload_last;
static __attribute__((noinline)) double counted(double v) {
  ++rev_reload_calls;
  return v * v;
}
static double global_writes(const double *restrict x) {
  double s = 0;
  for (int i = 0; i < rev_reload_n; ++i) {
    s += sin(x[i]) * x[(i + 2) % N] + counted(x[i]);
    rev_reload_last = s;
  }
  return s;
}

/* in-place recurrence on the input */
static double in_place(double *x) {
  for (int i = 1; i < rev_reload_n; ++i)
    x[i] = x[i] * x[i - 1] + sin(x[i]);
  return x[N - 1];
}
static double in_place_copy(const double *x0) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  return in_place(x);
}

/* f may overwrite its argument: it gets a copy; fcopy copies first (for
 * central differences) */
#define check_case(f, fcopy)                                                   \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N], dv[N];                                      \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = 0.2 + 0.6 * rev_rand();                                           \
    double w[N];                                                               \
    memcpy(w, x, sizeof w);                                                    \
    __enzyme_autodiff((void *)f, w, g);                                        \
    printf("%-22s d/dx0 = %.12g\n", #f, g[0]);                                 \
    CHECK_GRAD(fcopy, x, N, g, NULL);                                          \
    rev_dir(g, v, N);                                                          \
    memcpy(w, x, sizeof w);                                                    \
    memcpy(dv, v, sizeof dv); /* f overwrites w and so dv */                   \
    CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)f, w, dv));                    \
  } while (0)

/* split mode: the caller overwrites x between the sweeps */
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
static void split_case(void) {
  double x[N], g[N] = {0}, exact[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.1 * (i + 1);
    exact[i] = 2 * x[i];
  }
  void *tape = __enzyme_augmentfwd((void *)sq_sum, enzyme_dup, x, g);
  for (int i = 0; i < N; ++i)
    x[i] = 100; /* must not change the gradient */
  __enzyme_reverse((void *)sq_sum, enzyme_dup, x, g, 1.0, tape);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(g[i], exact[i], 1e-14);
  printf("split: d/dx0 = %.12g\n", g[0]);
}

int main(void) {
  check_case(overwrite_after_call, overwrite_after_call_copy);
  check_case(aliased, aliased_copy);
  check_case(restrict_case, restrict_case);
  check_case(in_place, in_place_copy);
  check_case(global_writes, global_writes);
  split_case();
  return check_finish();
}
