/* Random numbers drawn from a state the caller owns (erand48, nrand48,
 * jrand48, rand_r: the C library's generators, whose results are
 * constants of the derivative) in differentiated code: smallpt's path
 * tracer draws its directions with erand48 on a three-short state per
 * image row, local to the function differentiated, and was refused
 * ("cannot differentiate 'erand48'"). Checked: a
 * Monte Carlo sum whose samples come from erand48, whose picks of a table
 * entry come from nrand48 and rand_r, and a recursion that draws at each
 * level whether to go on (Russian roulette), in reverse and forward mode,
 * against the analytic derivative computed from the same draws replayed,
 * and the caller's state advanced exactly as the primal advances it. */
#define _DEFAULT_SOURCE
#include "check.h"

#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define SAMPLES 16

static const double table[5] = {0.5, 1.25, -0.75, 2.0, 1.5};

/* sum_i c_k(i) sin(a u_i) + b u_i^2, (a, b) = p, u_i from erand48, k(i)
 * from nrand48 or rand_r. */
static double integrand(const double *p, unsigned short *xi, unsigned *seed) {
  double a = p[0], b = p[1];
  double sum = 0;
  for (int i = 0; i < SAMPLES; ++i) {
    double u = erand48(xi);
    long pick = (i & 1) ? nrand48(xi) : (long)rand_r(seed);
    double c = table[pick % 5];
    if (jrand48(xi) < 0)
      c = -c;
    sum += c * sin(a * u) + b * u * u;
  }
  return sum;
}

/* Russian roulette: go on with probability q, dividing by q. */
static double roulette(double a, unsigned short *xi, int depth) {
  double u = erand48(xi);
  double here = a * a * u;
  if (depth > 1 && erand48(xi) >= 0.7)
    return here;
  return here + a * roulette(a, xi, depth + 1) / 0.7;
}

static double walk(double a, unsigned short *xi) {
  return roulette(a, xi, 0);
}

/* The state local to the differentiated function, as smallpt keeps one
 * per image row (the form that was refused). */
static double rows(const double *p) {
  double sum = 0;
  for (int row = 1; row < 4; ++row) {
    unsigned short xi[3] = {0, 0, (unsigned short)(row * row * row)};
    unsigned seed = (unsigned)row;
    sum += integrand(p, xi, &seed) + walk(p[0], xi);
  }
  return sum;
}

/* The analytic derivatives from the same draws. */
static void integrand_partials(double a, unsigned short *xi, unsigned *seed,
                               double *da, double *db) {
  *da = *db = 0;
  for (int i = 0; i < SAMPLES; ++i) {
    double u = erand48(xi);
    long pick = (i & 1) ? nrand48(xi) : (long)rand_r(seed);
    double c = table[pick % 5];
    if (jrand48(xi) < 0)
      c = -c;
    *da += c * u * cos(a * u);
    *db += u * u;
  }
}

/* value and derivative of roulette by the chain rule, from the draws */
static double roulette_partial(double a, unsigned short *xi, int depth,
                               double *d) {
  double u = erand48(xi);
  double here = a * a * u, dhere = 2 * a * u;
  if (depth > 1 && erand48(xi) >= 0.7) {
    *d = dhere;
    return here;
  }
  double dr;
  double r = roulette_partial(a, xi, depth + 1, &dr);
  *d = dhere + (r + a * dr) / 0.7;
  return here + a * r / 0.7;
}

int main(void) {
  const unsigned short start[3] = {0x1234, 0xabcd, 0x330e};
  double a = 1.3, b = 0.4;

  /* Reverse mode, the states advanced once as by the primal. */
  unsigned short xi[3], xi_primal[3];
  unsigned seed = 7, seed_primal = 7;
  memcpy(xi, start, sizeof xi);
  memcpy(xi_primal, start, sizeof xi);
  double p[2] = {a, b};
  double value = integrand(p, xi_primal, &seed_primal);
  double da = 0, db = 0;
  {
    unsigned short xi_want[3];
    unsigned seed_want = 7;
    memcpy(xi_want, start, sizeof xi_want);
    integrand_partials(a, xi_want, &seed_want, &da, &db);
  }
  double grad[2] = {0, 0};
  __enzyme_autodiff((void *)integrand, enzyme_dup, p, grad, enzyme_const, xi,
                    enzyme_const, &seed);
  CHECK_CLOSE(grad[0], da, 1e-12);
  CHECK_CLOSE(grad[1], db, 1e-12);
  CHECK_TRUE(memcmp(xi, xi_primal, sizeof xi) == 0);
  CHECK_TRUE(seed == seed_primal);

  /* Forward mode: d/da and d/db. */
  for (int j = 0; j < 2; ++j) {
    double dir[2] = {j == 0, j == 1};
    memcpy(xi, start, sizeof xi);
    seed = 7;
    double t = __enzyme_fwddiff((void *)integrand, enzyme_dup, p, dir,
                                enzyme_const, xi, enzyme_const, &seed);
    CHECK_CLOSE(t, j == 0 ? da : db, 1e-12);
    CHECK_TRUE(memcmp(xi, xi_primal, sizeof xi) == 0);
    CHECK_TRUE(seed == seed_primal);
  }
  CHECK_TRUE(value != 0);

  /* The recursion, for several states: reverse and forward against the
   * chain rule, and the state left where the primal leaves it. */
  for (int k = 0; k < 6; ++k) {
    unsigned short s0[3] = {(unsigned short)(17 * k + 1), 0x5eed,
                            (unsigned short)(k * k * k)};
    unsigned short s_want[3], s_rev[3], s_fwd[3], s_primal[3];
    memcpy(s_want, s0, sizeof s0);
    memcpy(s_rev, s0, sizeof s0);
    memcpy(s_fwd, s0, sizeof s0);
    memcpy(s_primal, s0, sizeof s0);
    double dwant;
    double want = roulette_partial(a, s_want, 0, &dwant);
    CHECK_CLOSE(walk(a, s_primal), want, 1e-12);
    double drev = __enzyme_autodiff((void *)walk, enzyme_out, a,
                                    enzyme_const, s_rev);
    CHECK_CLOSE(drev, dwant, 1e-12);
    double dfwd = __enzyme_fwddiff((void *)walk, enzyme_dup, a, 1.0,
                                   enzyme_const, s_fwd);
    CHECK_CLOSE(dfwd, dwant, 1e-12);
    CHECK_TRUE(memcmp(s_rev, s_primal, sizeof s0) == 0);
    CHECK_TRUE(memcmp(s_fwd, s_primal, sizeof s0) == 0);
  }
  /* The local states. */
  double want_rows[2] = {0, 0};
  for (int row = 1; row < 4; ++row) {
    unsigned short xi_row[3] = {0, 0, (unsigned short)(row * row * row)};
    unsigned seed_row = (unsigned)row;
    double pa, pb, dw;
    integrand_partials(a, xi_row, &seed_row, &pa, &pb);
    roulette_partial(a, xi_row, 0, &dw);
    want_rows[0] += pa + dw;
    want_rows[1] += pb;
  }
  double grad_rows[2] = {0, 0};
  __enzyme_autodiff((void *)rows, enzyme_dup, p, grad_rows);
  CHECK_CLOSE(grad_rows[0], want_rows[0], 1e-12);
  CHECK_CLOSE(grad_rows[1], want_rows[1], 1e-12);
  for (int j = 0; j < 2; ++j) {
    double dir[2] = {j == 0, j == 1};
    double t = __enzyme_fwddiff((void *)rows, enzyme_dup, p, dir);
    CHECK_CLOSE(t, want_rows[j], 1e-12);
  }
  return check_finish();
}
