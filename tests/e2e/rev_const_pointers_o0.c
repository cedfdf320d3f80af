/* Pointers to constant data (enzyme_const arguments) kept in memory that
 * also holds derivatives, at every level (issue 33, item 5). Their shadow
 * there is null; a shadow pointer read back from such memory may be null
 * at run time, and accesses through it are guarded: an adjoint added
 * through a null shadow is dropped, a tangent read through one is zero.
 * Before, these crashed at -O0 (and the tables were an error from -O1):
 *   - a closure holding a constant pointer and the active state (as
 *     Boost.Odeint's stages hold the system and the state);
 *   - a stack slot holding a constant pointer whose address a helper
 *     returns (`wave(x, *ref(&p), n)`);
 *   - a table that mixes constant and duplicated pointers;
 *   - a table that a function which is not inlined fills with constant
 *     pointers;
 *   - forward over reverse, a tangent stored through a recorded pointer
 *     whose tangent is null (an inner gradient buffer the outer request
 *     passes enzyme_const).
 * Checked against closed forms, central differences and, in both modes,
 * forward against reverse. */
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

enum { N = 4 };

static double pc[2 * N]; /* constant parameters */

/* --- a closure with a constant pointer and the state ------------------- */
struct closure {
  const double *p;
  double *state;
  int n;
};

__attribute__((noinline)) static double energy(const struct closure *c) {
  double s = 0;
  for (int i = 0; i < c->n; ++i)
    s += c->p[i] * c->state[i] * c->state[i] + sin(c->state[i]);
  return s;
}

static double closure_f(const double *p, double *x, int n) {
  struct closure c = {p, x, n};
  return energy(&c);
}

/* --- a slot whose address a helper returns ----------------------------- */
__attribute__((noinline)) static double *const *ref(double *const *p) {
  return p;
}

__attribute__((noinline)) static double wave(const double *x, const double *p,
                                             int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * p[i];
  return s;
}

static double wave_f(const double *p, double *x, int n) {
  double *q = (double *)p;
  return wave(x, *ref(&q), n);
}

/* --- a table of constant and duplicated pointers ------------------------ */
__attribute__((noinline)) static double weighted(double **t, int n) {
  double s = 0;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < n; ++i)
      s += (k + 1) * t[k][i] * t[k][i] * t[1 - k][i];
  return s;
}

static double mixed_f(const double *p, double *x, int n) {
  double *t[2];
  t[0] = (double *)p;
  t[1] = x;
  return weighted(t, n);
}

/* --- a table filled by a function that is not inlined ------------------- */
__attribute__((noinline)) static void fill(double **t, const double *p,
                                           int n) {
  t[0] = (double *)p;
  t[1] = (double *)p + n;
}

static double filled_f(const double *p, double *x, int n) {
  double *t[2];
  fill(t, p, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[0][i] * x[i] + t[1][i] * x[i] * x[i];
  return s;
}

/* --- tables with a constant global table in them (adfuzz v5 seeds 50,
 * 53: the global's address has no shadow; filled by a function that is
 * not inlined, -O2 propagates the table into the filler's body, and the
 * caller no longer passes it) ----------------------------------------- */
static const double K[N] = {0.5, -1.25, 2.0, 0.75};

static double ktable_f(const double *p, double *x, int n) {
  (void)p;
  const double *t[2];
  t[0] = K;
  t[1] = x;
  double s = 0;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < n; ++i)
      s += t[k][i] * t[1 - k][i] * x[i];
  return s;
}

__attribute__((noinline)) static void fill_k(const double **t,
                                             const double *a,
                                             const double *b) {
  t[0] = a;
  t[1] = b;
}

static double kfilled_f(const double *p, double *x, int n) {
  (void)p;
  const double *t[2];
  fill_k(t, K, x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[0][i] * t[1][i] * t[1][i];
  return s;
}

/* --- a table filled by a function that is not inlined with a pointer it
 * did not get: one an inactive function returns, one read from a global
 * (a crash at every level before), one a differentiated getter returns - */
static double weights[N] = {1.5, -0.5, 2.5, 0.25};
static const double *weights_at;
__attribute__((noinline)) static double *lookup(int k) { return weights + k; }
void *__enzyme_inactivefn[] = {(void *)lookup};

/* a getter with a body, differentiated, returning a constant table's
 * address (a crash at -O0 before: its result was not taken for a pointer
 * found by the callee) */
static const double G[N] = {0.5, 1.5, -1.0, 2.0};
__attribute__((noinline)) static const double *getter(int k) { return G + k; }

__attribute__((noinline)) static void fill_found(const double **t,
                                                 const double *x) {
  t[0] = lookup(0);
  t[1] = x;
  t[2] = weights_at;
  t[3] = getter(0);
}

static double found_f(const double *p, double *x, int n) {
  (void)p;
  const double *t[4];
  fill_found(t, x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[0][i] * t[1][i] * t[1][i] + t[2][i] * t[1][i] + t[3][i] * t[1][i];
  return s;
}

/* closed forms of the gradients in x */
static void found_grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = 2 * weights[i] * x[i] + weights[i] + G[i];
}
static void ktable_grad(const double *x, double *g) {
  /* s = 2 sum K x^2 */
  for (int i = 0; i < N; ++i)
    g[i] = 4 * K[i] * x[i];
}
static void kfilled_grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = 2 * K[i] * x[i];
}
static void closure_grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = 2 * pc[i] * x[i] + cos(x[i]);
}
static void wave_grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = cos(x[i]) * pc[i];
}
static void mixed_grad(const double *x, double *g) {
  /* s = sum p^2 x + 2 x^2 p */
  for (int i = 0; i < N; ++i)
    g[i] = pc[i] * pc[i] + 4 * x[i] * pc[i];
}
static void filled_grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = pc[i] + 2 * pc[N + i] * x[i];
}

static double closure_x(const double *x) {
  return closure_f(pc, (double *)x, N);
}
static double wave_x(const double *x) { return wave_f(pc, (double *)x, N); }
static double mixed_x(const double *x) { return mixed_f(pc, (double *)x, N); }
static double ktable_x(const double *x) {
  return ktable_f(pc, (double *)x, N);
}
static double kfilled_x(const double *x) {
  return kfilled_f(pc, (double *)x, N);
}
static double found_x(const double *x) {
  return found_f(pc, (double *)x, N);
}
static double filled_x(const double *x) {
  return filled_f(pc, (double *)x, N);
}

/* reverse against the closed form and central differences, forward along
 * a direction against the gradient (a macro: the differentiated function
 * must be known where it is asked for) */
#define CHECK_ONE(what, f, fx, exact)                                          \
  do {                                                                         \
    double x_[N], g_[N] = {0}, want_[N], v_[N];                                \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      x_[i_] = rev_rand();                                                     \
    __enzyme_autodiff((void *)f, enzyme_const, pc, enzyme_dup, x_, g_,         \
                      enzyme_const, N);                                        \
    exact(x_, want_);                                                          \
    CHECK_GRAD(fx, x_, N, g_, want_);                                          \
    double dir_ = rev_dir(g_, v_, N);                                          \
    double tan_ = __enzyme_fwddiff((void *)f, enzyme_const, pc, enzyme_dup,    \
                                   x_, v_, enzyme_const, N);                   \
    CHECK_CLOSE(tan_, dir_, REV_TOL_DOT);                                      \
    printf("%s: d/dx0 = %.12f\n", what, g_[0]);                               \
  } while (0)

/* --- the getter's pointer stored by a callee into a struct the caller
 * passes enzyme_dup (its shadow gets null there; a crash at -O0 before) -- */
struct holder {
  const double *coef;
  double *work;
};
__attribute__((noinline)) static void setup_holder(struct holder *h) {
  h->coef = getter(1);
}
static double holder_f(double *x, struct holder *h, int n) {
  setup_holder(h);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    h->work[i] = x[i] * x[i];
    s += h->coef[i] * h->work[i];
  }
  return s;
}
static void check_holder(void) {
  double x[N - 1], g[N - 1] = {0}, v[N - 1], work[N - 1], dwork[N - 1] = {0};
  for (int i = 0; i < N - 1; ++i) {
    x[i] = rev_rand();
    v[i] = rev_rand();
  }
  struct holder h = {0, work}, dh = {0, dwork};
  __enzyme_autodiff((void *)holder_f, enzyme_dup, x, g, enzyme_dup, &h, &dh,
                    enzyme_const, N - 1);
  double dir = 0;
  for (int i = 0; i < N - 1; ++i) {
    CHECK_CLOSE(g[i], 2 * G[i + 1] * x[i], REV_TOL_EXACT);
    dir += g[i] * v[i];
  }
  struct holder th = {0, work}, dth = {0, dwork};
  double tan = __enzyme_fwddiff((void *)holder_f, enzyme_dup, x, v, enzyme_dup,
                                &th, &dth, enzyme_const, N - 1);
  CHECK_CLOSE(tan, dir, REV_TOL_DOT);
}

/* --- forward over reverse, the gradient buffer constant outside ---------- */
static double hf(const double *__restrict__ x, const double *__restrict__ p,
                 int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * x[i] * x[i] * x[i];
  return s;
}

/* the value, and the gradient into g */
static double value_and_grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)hf, enzyme_dup, x, g, enzyme_const, pc,
                    enzyme_const, n);
  return hf(x, pc, n);
}

static void check_fwd_over_rev(void) {
  double x[N], v[N], g[N];
  for (int i = 0; i < N; ++i)
    x[i] = rev_rand(), v[i] = rev_rand();
  /* g is constant to the outer request: its tangents are not wanted */
  double tan = __enzyme_fwddiff((void *)value_and_grad, enzyme_dup, x, v,
                                enzyme_const, g, enzyme_const, N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(g[i], 3 * pc[i] * x[i] * x[i], REV_TOL_EXACT);
    want += 3 * pc[i] * x[i] * x[i] * v[i];
  }
  CHECK_CLOSE(tan, want, REV_TOL_EXACT);
  double h = 1e-6, xp[N], xm[N];
  for (int i = 0; i < N; ++i)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  double fd = (hf(xp, pc, N) - hf(xm, pc, N)) / (2 * h);
  CHECK_CLOSE(tan, fd, REV_TOL_FD);
}

int main(void) {
  for (int i = 0; i < 2 * N; ++i)
    pc[i] = 1 + 0.5 * rev_rand();
  CHECK_ONE("closure", closure_f, closure_x, closure_grad);
  CHECK_ONE("wave", wave_f, wave_x, wave_grad);
  CHECK_ONE("mixed", mixed_f, mixed_x, mixed_grad);
  CHECK_ONE("filled", filled_f, filled_x, filled_grad);
  CHECK_ONE("constant table", ktable_f, ktable_x, ktable_grad);
  CHECK_ONE("constant table filled", kfilled_f, kfilled_x, kfilled_grad);
  weights_at = weights;
  CHECK_ONE("found pointers", found_f, found_x, found_grad);
  check_holder();
  check_fwd_over_rev();
  return check_finish();
}
