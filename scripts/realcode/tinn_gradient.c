/* Derivatives through Tinn (github.com/glouw/tinn, Tinn.c compiled
 * unchanged and linked; the derivatives of its functions are made at link
 * time). A Tinn is a struct of pointers and sizes passed by value: all
 * weights in one calloc'd block (the hidden-to-output weights x point into
 * it), two biases shared by each layer, and the hidden and output layers'
 * values; everything in float. The objective is Tinn's own error,
 * 0.5 sum_k (t_k - o_k)^2 of xtpredict's outputs.
 *
 *  1. The gradient with respect to every weight, both biases and the
 *     inputs by reverse mode (the shadow Tinn: the same struct whose
 *     pointers point to zeroed blocks), against central differences (in
 *     double around the float function: to 2 %), against forward mode
 *     (one weight at a time), and against the step xttrain takes for the
 *     weights (w - rate dE/dw; Tinn does not train its biases), also when
 *     the struct itself is the argument of the differentiated function
 *     (passed by value, with its shadow struct).
 *  2. Through training: the error after two xttrain steps (Tinn's
 *     backpropagation, which updates the weights in place through the
 *     struct's pointers) with respect to the initial weights, biases and
 *     inputs, reverse mode against central differences and forward mode.
 * Run by tinn.sh. */
#include "Tinn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { NIPS = 4, NHID = 6, NOPS = 3 };

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.9g, expected %.9g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* Tinn's error of the prediction for input in and target tg. */
static float loss(const Tinn *t, const float *in, const float *tg) {
  const float *o = xtpredict(*t, in);
  float e = 0;
  for (int k = 0; k < t->nops; ++k)
    e += 0.5f * (tg[k] - o[k]) * (tg[k] - o[k]);
  return e;
}

/* The same with the Tinn passed by value. */
static float loss_by_value(Tinn t, const float *in, const float *tg) {
  return loss(&t, in, tg);
}

/* A shadow Tinn: the same sizes, zeroed blocks. */
static Tinn shadow_of(const Tinn *t) {
  Tinn d = *t;
  d.w = calloc(t->nw, sizeof(float));
  d.x = d.w + t->nhid * t->nips;
  d.b = calloc(t->nb, sizeof(float));
  d.h = calloc(t->nhid, sizeof(float));
  d.o = calloc(t->nops, sizeof(float));
  return d;
}

/* A copy of a Tinn (xttrain changes the weights). */
static Tinn copy_of(const Tinn *t) {
  Tinn c = shadow_of(t);
  memcpy(c.w, t->w, sizeof(float) * t->nw);
  memcpy(c.b, t->b, sizeof(float) * t->nb);
  return c;
}

/* Parameter i: a weight (i < nw), a bias, or an input (-1 - i). */
static float *parameter(Tinn *t, float *in, int i) {
  if (i < 0)
    return &in[-1 - i];
  return i < t->nw ? &t->w[i] : &t->b[i - t->nw];
}

static double difference(Tinn *t, float *in, const float *tg, int i) {
  float *p = parameter(t, in, i), v = *p, h = 1e-2f;
  *p = v + h;
  double up = loss(t, in, tg);
  *p = v - h;
  double down = loss(t, in, tg);
  *p = v;
  return (up - down) / (2 * (double)h);
}

static float tangent(Tinn *t, float *in, const float *tg, int i) {
  Tinn d = shadow_of(t);
  float din[NIPS] = {0};
  *parameter(&d, din, i) = 1;
  float r = __enzyme_fwddiff((void *)loss, enzyme_dup, t, &d, enzyme_dup, in,
                             din, enzyme_const, tg);
  xtfree(d);
  return r;
}

static void run(int by_value) {
  Tinn t = xtbuild(NIPS, NHID, NOPS);
  float in[NIPS] = {0.9f, -0.3f, 0.4f, 1.2f}, tg[NOPS] = {0.1f, 0.9f, 0.5f};
  /* Larger weights than xtbuild's: the hidden layer away from 1/2. */
  for (int i = 0; i < t.nw; ++i)
    t.w[i] *= 3;
  Tinn d = shadow_of(&t);
  float din[NIPS] = {0};
  if (by_value)
    __enzyme_autodiff((void *)loss_by_value, enzyme_dup, t, d, enzyme_dup, in,
                      din, enzyme_const, tg);
  else
    __enzyme_autodiff((void *)loss, enzyme_dup, &t, &d, enzyme_dup, in, din,
                      enzyme_const, tg);
  /* xttrain's step: w' = w - rate dE/dw. */
  Tinn c = copy_of(&t);
  const float rate = 1.0f;
  xttrain(c, in, tg, rate);
  const char *how = by_value ? " (by value)" : "";
  char what[96];
  for (int i = -NIPS; i < t.nw + t.nb; ++i) {
    float g = *parameter(&d, din, i);
    snprintf(what, sizeof what, "tinn%s: gradient vs differences", how);
    check(what, i, g, difference(&t, in, tg, i), 2e-2);
    snprintf(what, sizeof what, "tinn%s: forward vs reverse", how);
    check(what, i, tangent(&t, in, tg, i), g, 1e-5);
    if (i >= 0 && i < t.nw) {
      snprintf(what, sizeof what, "tinn%s: gradient vs xttrain", how);
      check(what, i, g, (t.w[i] - c.w[i]) / rate, 1e-5);
    }
  }
  /* Every parameter has a gradient (the biases' too). */
  for (int i = 0; i < t.nb; ++i)
    if (d.b[i] == 0) {
      printf("tinn%s: bias %d has gradient 0  FAIL\n", how, i);
      ++failures;
    }
  xtfree(c);
  xtfree(d);
  xtfree(t);
}

/* Through training: the error after two xttrain steps with respect to the
 * initial weights, biases and inputs. */
static float trained_loss(const Tinn *t, const float *in, const float *tg) {
  xttrain(*t, in, tg, 0.5f);
  xttrain(*t, in, tg, 0.5f);
  return loss(t, in, tg);
}

static double trained_difference(const Tinn *t, float *in, const float *tg,
                                  int i) {
  double e[2];
  for (int s = 0; s < 2; ++s) {
    Tinn c = copy_of(t);
    float *p = parameter(&c, in, i), v = *p;
    *p = v + (s ? -1e-2f : 1e-2f);
    e[s] = trained_loss(&c, in, tg);
    *p = v;
    xtfree(c);
  }
  return (e[0] - e[1]) / 2e-2;
}

static void through_training(void) {
  Tinn t = xtbuild(NIPS, NHID, NOPS);
  float in[NIPS] = {0.9f, -0.3f, 0.4f, 1.2f}, tg[NOPS] = {0.1f, 0.9f, 0.5f};
  for (int i = 0; i < t.nw; ++i)
    t.w[i] *= 3;
  Tinn c = copy_of(&t), d = shadow_of(&t);
  float din[NIPS] = {0};
  __enzyme_autodiff((void *)trained_loss, enzyme_dup, &c, &d, enzyme_dup, in,
                    din, enzyme_const, tg);
  for (int i = -NIPS; i < t.nw + t.nb; ++i) {
    float g = *parameter(&d, din, i);
    check("tinn trained: gradient vs differences", i, g,
          trained_difference(&t, in, tg, i), 3e-2);
    Tinn ct = copy_of(&t), dt = shadow_of(&t);
    float tin[NIPS] = {0};
    *parameter(&dt, tin, i) = 1;
    float f = __enzyme_fwddiff((void *)trained_loss, enzyme_dup, &ct, &dt,
                               enzyme_dup, in, tin, enzyme_const, tg);
    check("tinn trained: forward vs reverse", i, f, g, 1e-4);
    xtfree(ct);
    xtfree(dt);
  }
  xtfree(c);
  xtfree(d);
  xtfree(t);
}

int main(void) {
  srand(11);
  run(0);
  run(1);
  through_training();
  printf("tinn: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
