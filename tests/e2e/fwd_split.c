/* Split forward mode: __enzyme_augmentfwd runs the primal and records what
 * the tangents need, __enzyme_fwdsplit computes the tangents from those
 * records later, without running the primal again (the primal's memory
 * may have changed in between, the primal's writes are not repeated).
 * Arguments of each kind (a floating-point value, duplicated and constant
 * pointers, a constant integer), a result, a loop, a branch, calls of
 * other functions (recursion, through function pointers), memory the
 * function writes, the tape in a caller's buffer (enzyme_allocated,
 * enzyme_tape, __enzyme_augmentsize), one tape read twice (enzyme_nofree),
 * two directions at once (enzyme_width), enzyme_primal_return,
 * enzyme_dupnoneed, a tape of the wrong kind (reported by the runtime),
 * and a registered split derivative (__enzyme_register_splitderivative)
 * called inside the differentiated function. Each tangent is checked
 * against its closed form, central differences and __enzyme_fwddiff. */
#include "fwd_check.h"

#include <adcc_runtime.h>

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_allocated, enzyme_tape, enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
typedef struct {
  void *tape;
  double result;
} tape_result;
tape_result __enzyme_augmentfwd_r(void *, ...);
void __enzyme_augmentfwd_v(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void __enzyme_fwdsplit_v(void *, ...);
typedef struct {
  double primal, tangent;
} primal_tangent;
primal_tangent __enzyme_fwdsplit_pt(void *, ...);

/* --- a scalar: sin x * x^2 ------------------------------------------- */
static double wave(double x) { return sin(x) * x * x; }
static double wave_d(double x) { return cos(x) * x * x + 2 * x * sin(x); }

static void test_scalar(void) {
  double x = 0.7;
  void *tape = __enzyme_augmentfwd((void *)wave, x);
  double d = __enzyme_fwdsplit((void *)wave, x, 1.0, tape);
  CHECK_TANGENT(d, wave_d(x), wave, x);
  CHECK_CLOSE(d, __enzyme_fwddiff((void *)wave, x, 1.0), FWD_TOL_EXACT);
  /* {tape, result}, and {primal, tangent} back (scaled direction) */
  tape_result tr = __enzyme_augmentfwd_r((void *)wave, x);
  CHECK_CLOSE(tr.result, wave(x), FWD_TOL_EXACT);
  primal_tangent pt = __enzyme_fwdsplit_pt((void *)wave, enzyme_primal_return,
                                           x, 2.0, tr.tape);
  CHECK_CLOSE(pt.primal, wave(x), FWD_TOL_EXACT);
  CHECK_CLOSE(pt.tangent, 2 * wave_d(x), FWD_TOL_EXACT);
}

/* --- pointers, a loop, a branch, a call, memory written --------------- *
 * out[0] = sum_i c[i] * x[i]^2 (x[i] > 0) or c[i] * x[i] (otherwise),
 * then x[i] *= 2: the tangent must use x before the doubling, and the
 * primal's writes must not run again. */
static int calls; /* an integer global: no derivative */
__attribute__((noinline)) static double term(const double *x, const double *c,
                                             int i) {
  ++calls;
  return x[i] > 0 ? c[i] * x[i] * x[i] : c[i] * x[i];
}
static void accumulate(double *x, const double *c, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += term(x, c, i);
  out[0] = s;
  for (int i = 0; i < n; ++i)
    x[i] *= 2;
}
enum { N = 4 };
static const double C[N] = {1.5, -2.0, 0.5, 3.0};
static const double X0[N] = {0.3, -0.8, 1.1, 0.9};
static double V[N] = {1.0, 0.5, -1.0, 2.0}; /* the direction */
static double accumulate_line(double t) {
  double x[N], out;
  for (int i = 0; i < N; ++i)
    x[i] = X0[i] + t * V[i];
  accumulate(x, C, &out, N);
  return out;
}
static double accumulate_d(void) {
  double d = 0;
  for (int i = 0; i < N; ++i)
    d += (X0[i] > 0 ? 2 * C[i] * X0[i] : C[i]) * V[i];
  return d;
}

static void test_memory(void) {
  double x[N], dx[N], out = 0, dout = 0;
  memcpy(x, X0, sizeof x);
  double want = accumulate_line(0);
  int before = calls;
  void *tape = __enzyme_augmentfwd((void *)accumulate, enzyme_dup, x, dx,
                                   enzyme_const, C, enzyme_dup, &out, &dout,
                                   enzyme_const, N);
  CHECK_TRUE(calls == before + N);
  CHECK_CLOSE(out, want, FWD_TOL_EXACT);
  CHECK_CLOSE(x[0], 2 * X0[0], FWD_TOL_EXACT);
  /* The program changes the inputs before the tangents: they are those
   * of the recorded point. */
  x[1] = 100;
  memcpy(dx, V, sizeof dx);
  /* (enzyme_dupnoneed: the sweep never writes the primal anyway) */
  __enzyme_fwdsplit_v((void *)accumulate, enzyme_dup, x, dx, enzyme_const, C,
                      enzyme_dupnoneed, &out, &dout, enzyme_const, N, tape);
  CHECK_TRUE(calls == before + N); /* the primal did not run again */
  CHECK_TRUE(x[1] == 100);         /* nor its writes */
  CHECK_CLOSE(out, want, FWD_TOL_EXACT);
  CHECK_TANGENT(dout, accumulate_d(), accumulate_line, 0.0);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], 2 * V[i], FWD_TOL_EXACT); /* x[i] *= 2 */
  /* __enzyme_fwddiff from the same point */
  double y[N], dy[N], o2 = 0, do2 = 0;
  memcpy(y, X0, sizeof y);
  memcpy(dy, V, sizeof dy);
  __enzyme_fwddiff((void *)accumulate, enzyme_dup, y, dy, enzyme_const, C,
                   enzyme_dup, &o2, &do2, enzyme_const, N);
  CHECK_CLOSE(dout, do2, FWD_TOL_EXACT);
}

/* --- a tape in the caller's buffer, read twice ------------------------ *
 * r = x0 * exp(x1) / (1 + x0^2) */
static double ratio(const double *x) {
  return x[0] * exp(x[1]) / (1 + x[0] * x[0]);
}
static double R0[2] = {0.6, -0.4};
static double ratio_line0(double t) {
  double x[2] = {R0[0] + t, R0[1]};
  return ratio(x);
}
static double ratio_line1(double t) {
  double x[2] = {R0[0], R0[1] + t};
  return ratio(x);
}

static void test_tape_buffer(void) {
  double x[2] = {R0[0], R0[1]}, dx[2] = {0, 0};
  unsigned long size = __enzyme_augmentsize((void *)ratio, enzyme_dup);
  void *buffer = malloc(size);
  __enzyme_augmentfwd_v((void *)ratio, enzyme_allocated, size, enzyme_tape,
                        buffer, enzyme_dup, x, dx);
  double a = x[0], b = x[1], q = 1 + a * a;
  double d0_exact = exp(b) * (1 - a * a) / (q * q);
  double d1_exact = a * exp(b) / q;
  /* two directions from one tape: the first keeps it */
  dx[0] = 1;
  double d0 = __enzyme_fwdsplit((void *)ratio, enzyme_nofree, enzyme_dup, x,
                                dx, enzyme_tape, buffer);
  dx[0] = 0, dx[1] = 1;
  double d1 = __enzyme_fwdsplit((void *)ratio, enzyme_dup, x, dx,
                                enzyme_tape, buffer);
  CHECK_TANGENT(d0, d0_exact, ratio_line0, 0.0);
  CHECK_TANGENT(d1, d1_exact, ratio_line1, 0.0);
  CHECK_CLOSE(d1, __enzyme_fwddiff((void *)ratio, enzyme_dup, x, dx),
              FWD_TOL_EXACT);
  free(buffer);
}

/* --- a registered split derivative inside the function ---------------- *
 * cube(x) = x^3 has a rule whose augmented function records x in its
 * tape; its split derivative reads it back (and counts its calls). */
__attribute__((noinline)) static double cube(double x) { return x * x * x; }
typedef struct {
  void *tape;
  double result;
} cube_aug_result;
static cube_aug_result cube_aug(double x) {
  double *t = (double *)malloc(sizeof(double));
  *t = x;
  cube_aug_result r = {t, x * x * x};
  return r;
}
static int split_rule_calls;
static double cube_fwdsplit(double x, double dx, void *tape) {
  (void)x;
  double x0 = *(double *)tape;
  free(tape);
  ++split_rule_calls;
  return 3 * x0 * x0 * dx;
}
void *__enzyme_register_splitderivative_cube[] = {
    (void *)cube, (void *)cube_aug, (void *)cube_fwdsplit};
/* g(x) = cube(sin x) + x */
static double uses_cube(double x) { return cube(sin(x)) + x; }
static double uses_cube_d(double x) {
  return 3 * sin(x) * sin(x) * cos(x) + 1;
}

static void test_registered(void) {
  double x = 0.9;
  void *tape = __enzyme_augmentfwd((void *)uses_cube, x);
  double d = __enzyme_fwdsplit((void *)uses_cube, x, 1.0, tape);
  CHECK_TRUE(split_rule_calls == 1);
  CHECK_TANGENT(d, uses_cube_d(x), uses_cube, x);
  CHECK_CLOSE(d, __enzyme_fwddiff((void *)uses_cube, x, 1.0), FWD_TOL_EXACT);
}

/* --- recursion: each level's tangent sweep reads its own records ------ *
 * nest(x, 0) = x, nest(x, k) = sin(nest(x, k - 1)) x */
static double nest(double x, int k) {
  return k == 0 ? x : sin(nest(x, k - 1)) * x;
}
static double nest5(double x) { return nest(x, 5); }
static double nest_d(double x, int k) {
  double f = x, d = 1;
  for (int i = 0; i < k; ++i) {
    d = cos(f) * d * x + sin(f);
    f = sin(f) * x;
  }
  return d;
}

static void test_recursion(void) {
  double x = 0.8;
  void *tape = __enzyme_augmentfwd((void *)nest, x, enzyme_const, 5);
  double d = __enzyme_fwdsplit((void *)nest, x, 1.0, enzyme_const, 5, tape);
  CHECK_TANGENT(d, nest_d(x, 5), nest5, x);
  CHECK_CLOSE(d, __enzyme_fwddiff((void *)nest, x, 1.0, enzyme_const, 5),
              FWD_TOL_EXACT);
}

/* --- calls through a function pointer: each target's sweeps ---------- */
static double twice_sin(double x) { return 2 * sin(x); }
static double cube_plain(double x) { return x * x * x; }
static double apply_sum(double (*fn)(double), const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += fn(x[i]);
  return s;
}
static double PX[3] = {0.2, -0.5, 1.1}, PD[3] = {1.0, 2.0, -1.0};
static double apply_line(double t) {
  double x[3];
  for (int i = 0; i < 3; ++i)
    x[i] = PX[i] + t * PD[i];
  return apply_sum(twice_sin, x, 3) + apply_sum(cube_plain, x, 3);
}

static void test_function_pointers(void) {
  double x[3], dx[3];
  memcpy(x, PX, sizeof x);
  memcpy(dx, PD, sizeof dx);
  void *t1 = __enzyme_augmentfwd((void *)apply_sum, enzyme_const, twice_sin,
                                 enzyme_dup, x, dx, enzyme_const, 3);
  void *t2 = __enzyme_augmentfwd((void *)apply_sum, enzyme_const, cube_plain,
                                 enzyme_dup, x, dx, enzyme_const, 3);
  x[0] = 7;
  double d = __enzyme_fwdsplit((void *)apply_sum, enzyme_const, twice_sin,
                               enzyme_dup, x, dx, enzyme_const, 3, t1);
  d += __enzyme_fwdsplit((void *)apply_sum, enzyme_const, cube_plain,
                         enzyme_dup, x, dx, enzyme_const, 3, t2);
  double exact = 0;
  for (int i = 0; i < 3; ++i)
    exact += (2 * cos(PX[i]) + 3 * PX[i] * PX[i]) * PD[i];
  CHECK_TANGENT(d, exact, apply_line, 0.0);
}

/* --- two directions at once (enzyme_width) -------------------------- *
 * ratio's tangents along e0 and e1 from one recorded run */
typedef struct {
  double d[2];
} two;
two __enzyme_fwdsplit_2(void *, ...);
extern int enzyme_width;

static void test_width(void) {
  double x[2] = {R0[0], R0[1]}, e0[2] = {1, 0}, e1[2] = {0, 1};
  void *tape = __enzyme_augmentfwd((void *)ratio, enzyme_width, 2, enzyme_dup,
                                   x, e0, e1);
  x[0] = -3; /* changed before the tangents */
  two t = __enzyme_fwdsplit_2((void *)ratio, enzyme_width, 2, enzyme_dup, x,
                              e0, e1, tape);
  double a = R0[0], b = R0[1], q = 1 + a * a;
  CHECK_TANGENT(t.d[0], exp(b) * (1 - a * a) / (q * q), ratio_line0, 0.0);
  CHECK_TANGENT(t.d[1], a * exp(b) / q, ratio_line1, 0.0);
}

/* --- a tape of the wrong kind: the runtime stops the program ----------- *
 * (caught here by an error handler that jumps back) */
static jmp_buf caught;
static char message[512];
static void catch_error(const char *m) {
  strncpy(message, m, sizeof message - 1);
  longjmp(caught, 1);
}
static double only_reverse(double x) { return x * x; }

static void test_wrong_tape(void) {
  double x = 0.5;
  adcc_error_handler old = adcc_set_error_handler(catch_error);
  /* recorded for wave, read by uses_cube's tangent sweep */
  void *tape = __enzyme_augmentfwd((void *)wave, x);
  message[0] = 0;
  if (!setjmp(caught))
    __enzyme_fwdsplit((void *)uses_cube, x, 1.0, tape);
  CHECK_TRUE(strstr(message, "__enzyme_fwdsplit of 'uses_cube:d:1' was given "
                             "the tape that __enzyme_augmentfwd recorded for "
                             "'wave:d:1'") != NULL);
  /* split reverse mode's tape */
  void *reverse_tape = __enzyme_augmentfwd((void *)only_reverse, x);
  message[0] = 0;
  if (!setjmp(caught))
    __enzyme_fwdsplit((void *)wave, x, 1.0, reverse_tape);
  CHECK_TRUE(strstr(message, "the tape of a split reverse sweep") != NULL);
  adcc_set_error_handler(old);
  printf("wrong tapes reported\n");
}

int main(void) {
  test_scalar();
  test_memory();
  test_tape_buffer();
  test_registered();
  test_recursion();
  test_function_pointers();
  test_width();
  test_wrong_tape();
  return check_finish();
}
