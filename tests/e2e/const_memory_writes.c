/* Memory passed enzyme_const that the differentiated function overwrites
 * with values that have derivatives and reads back within the call: the
 * call gets a scratch shadow for it (zero at the start, discarded at the
 * end), in reverse and forward mode. A value read back directly (d/dw = 9
 * at s0 = 1.5, w0 = 2), a recurrence whose state lives in the constant
 * buffer across loop iterations and across calls of a function that is not
 * inlined, a pointer into the middle of the buffer read at negative
 * offsets, a struct, and primal effects kept (the buffer holds the new
 * state afterwards). Checked against closed forms and central differences
 * of the primal, restarted from the same state. */
#include "check.h"

#include <string.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out;

/* out = (s0 w0)^2 */
double square_back(double *s, double *w) {
  s[0] = s[0] * w[0];
  return s[0] * s[0];
}

enum { N = 3, T = 4 };

__attribute__((noinline)) void cell(double *h, const double *w, double x) {
  for (int i = 0; i < N; ++i)
    h[i] = tanh(w[i] * h[i] + x * (i + 1));
}

/* An LSTM-like recurrence: the state h (constant input) is updated T
 * times, in place, by a function of its own. */
double recurrence(double *h, const double *w, const double *xs) {
  for (int t = 0; t < T; ++t)
    cell(h, w, xs[t]);
  double out = 0;
  for (int i = 0; i < N; ++i)
    out += h[i] * h[i];
  return out;
}

/* The same written inline, the state in a stack-free loop. */
double recurrence_inline(double *h, const double *w, const double *xs) {
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < N; ++i)
      h[i] = sin(w[i] * h[i]) + xs[t];
  return h[0] * h[1] + h[2];
}

/* mid points into the middle of the buffer: mid[-1] and mid[1] are written
 * from mid[0]'s new value and read back. */
double offsets(double *mid, double *w) {
  mid[0] = mid[0] * w[0];
  mid[-1] = mid[0] * mid[-1];
  mid[1] = mid[-1] + w[0] * mid[1];
  return mid[-1] * mid[1];
}

struct body {
  double pos, vel;
  int steps;
};

/* Explicit Euler steps kept in a constant struct. */
double euler(struct body *b, double *k) {
  for (int i = 0; i < 5; ++i) {
    b->vel -= 0.1 * k[0] * b->pos;
    b->pos += 0.1 * b->vel;
    b->steps++;
  }
  return b->pos;
}

typedef double (*fn2)(double *, double *);

/* Central difference of f(state, w) in w[j], each evaluation from a fresh
 * copy of the constant state. */
static double central(fn2 f, const double *state, int n, double *w, int j) {
  double s[8], h = 1e-6, keep = w[j];
  memcpy(s, state, n * sizeof *s);
  w[j] = keep + h;
  double up = f(s, w);
  memcpy(s, state, n * sizeof *s);
  w[j] = keep - h;
  double down = f(s, w);
  w[j] = keep;
  return (up - down) / (2 * h);
}

static double recurrence2(double *h, double *w) {
  static const double xs[T] = {0.3, -0.2, 0.5, 0.1};
  return recurrence(h, w, xs);
}
static double recurrence_inline2(double *h, double *w) {
  static const double xs[T] = {0.3, -0.2, 0.5, 0.1};
  return recurrence_inline(h, w, xs);
}
static double offsets2(double *s, double *w) { return offsets(s + 1, w); }

/* Reverse and forward gradients of f in w against central differences;
 * the state after the derivative call equals the primal's. (A macro: a
 * request names its function at compile time.) */
#define CHECK_AGAINST_DIFFERENCES(f, state, n, w, nw)                          \
  do {                                                                         \
    double s_[8], after_[8], dw_[8] = {0};                                     \
    memcpy(after_, state, (n) * sizeof *s_);                                   \
    f(after_, w);                                                              \
    memcpy(s_, state, (n) * sizeof *s_);                                       \
    __enzyme_autodiff((void *)f, enzyme_const, s_, enzyme_dup, w, dw_);        \
    for (int i_ = 0; i_ < (n); ++i_)                                           \
      CHECK_CLOSE(s_[i_], after_[i_], 1e-14);                                  \
    for (int j_ = 0; j_ < (nw); ++j_) {                                        \
      double fd_ = central(f, state, n, w, j_);                                \
      CHECK_CLOSE(dw_[j_], fd_, 1e-6);                                         \
      double dir_[8] = {0};                                                    \
      dir_[j_] = 1;                                                            \
      memcpy(s_, state, (n) * sizeof *s_);                                     \
      double tangent_ =                                                        \
          __enzyme_fwddiff((void *)f, enzyme_const, s_, enzyme_dup, w, dir_);  \
      CHECK_CLOSE(tangent_, fd_, 1e-6);                                        \
      CHECK_CLOSE(tangent_, dw_[j_], 1e-12);                                   \
    }                                                                          \
  } while (0)

int main(void) {
  /* d/dw (s0 w0)^2 = 2 s0^2 w0 = 9 */
  double s[1] = {1.5}, w[1] = {2}, dw[1] = {0};
  __enzyme_autodiff((void *)square_back, enzyme_const, s, enzyme_dup, w, dw);
  CHECK_CLOSE(dw[0], 9.0, 1e-15);
  CHECK_CLOSE(s[0], 3.0, 1e-15);
  s[0] = 1.5;
  double dir[1] = {1};
  double t = __enzyme_fwddiff((void *)square_back, enzyme_const, s,
                              enzyme_dup, w, dir);
  CHECK_CLOSE(t, 9.0, 1e-15);
  /* A second call starts from the state the first left, as a constant. */
  dw[0] = 0;
  __enzyme_autodiff((void *)square_back, enzyme_const, s, enzyme_dup, w, dw);
  CHECK_CLOSE(dw[0], 2 * 3.0 * 3.0 * 2, 1e-14);

  const double h0[N] = {0.2, -0.4, 0.7};
  double wr[N] = {0.9, 1.3, -0.6};
  CHECK_AGAINST_DIFFERENCES(recurrence2, h0, N, wr, N);
  CHECK_AGAINST_DIFFERENCES(recurrence_inline2, h0, N, wr, N);
  const double m0[3] = {0.5, 1.25, -0.75};
  double wo[1] = {1.7};
  CHECK_AGAINST_DIFFERENCES(offsets2, m0, 3, wo, 1);

  /* The struct: pos(k) against central differences, forward and reverse. */
  struct body b = {1.0, 0.0, 0};
  double k[1] = {2.0}, dk[1] = {0};
  __enzyme_autodiff((void *)euler, enzyme_const, &b, enzyme_dup, k, dk);
  CHECK_TRUE(b.steps == 5);
  double h = 1e-6, up, down;
  b = (struct body){1.0, 0.0, 0};
  k[0] = 2.0 + h;
  up = euler(&b, k);
  b = (struct body){1.0, 0.0, 0};
  k[0] = 2.0 - h;
  down = euler(&b, k);
  k[0] = 2.0;
  CHECK_CLOSE(dk[0], (up - down) / (2 * h), 1e-6);
  b = (struct body){1.0, 0.0, 0};
  double dk1[1] = {1};
  CHECK_CLOSE(__enzyme_fwddiff((void *)euler, enzyme_const, &b, enzyme_dup,
                               k, dk1),
              dk[0], 1e-12);
  return check_finish();
}
