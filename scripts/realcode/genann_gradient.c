/* Derivatives through genann (github.com/codeplea/genann, genann.c compiled
 * unchanged and linked; the derivatives of its functions are made at link
 * time). A network is one malloc'd block: the struct, then its weights,
 * the neurons' outputs and the deltas, reached by pointer arithmetic; the
 * activations are called through function pointers held in the struct.
 * The objective is the squared error 0.5 sum_k (t_k - o_k)^2 of
 * genann_run's outputs; the shadow network is a genann_copy of the network
 * with its numbers zeroed (the same function pointers).
 *
 *  1. For each activation whose derivative genann_train knows exactly (the
 *     sigmoid, tanh, ReLU in the hidden layers; sigmoid or linear output)
 *     and for 0, 1 and 3 hidden layers: the gradient with respect to every
 *     weight and input by reverse mode, against central differences,
 *     against forward mode (one weight at a time), and against the step
 *     genann_train takes (w - lr dE/dw, so (w - w') / lr is the gradient).
 *     And through training: the loss after two genann_train steps with
 *     respect to the initial weights and the input (backpropagation
 *     differentiated: the activations' derivatives chosen by comparing
 *     function pointers, weights updated in place), reverse mode against
 *     central differences and forward mode.
 *  2. genann's default activation, genann_act_sigmoid_cached, is a lookup
 *     in a table of 4096 sigmoid values: a step function of its argument,
 *     whose derivative is 0 wherever it is defined. adcc differentiates it
 *     as written (as Enzyme does): the weights of the layers below a cached
 *     activation get a gradient of 0, and adcc says so when it compiles
 *     (a warning at the conversion that indexes the table). Checked: the
 *     gradient is 0 for those weights and matches central differences
 *     taken within a step of the table; the output layer's weights, above
 *     the last activation, still get their exact gradient.
 *  3. The cached activation with a derivative given by the program: a
 *     custom derivative registered for genann_act_sigmoid_cached (Enzyme's
 *     __enzyme_register_derivative_* and __enzyme_register_gradient_*
 *     globals) giving y (1 - y) at the cached output y, which is what
 *     genann_train uses: the gradient then equals genann_train's step.
 * Run by genann.sh. */
#include "genann.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* The squared error of the network's outputs for input x and target t. */
static double loss(const genann *ann, const double *x, const double *t) {
  const double *o = genann_run(ann, x);
  double e = 0;
  for (int k = 0; k < ann->outputs; ++k)
    e += 0.5 * (t[k] - o[k]) * (t[k] - o[k]);
  return e;
}

/* Doubles in the block after the struct: weights, outputs, deltas. */
static size_t numbers(const genann *ann) {
  return ann->total_weights + ann->total_neurons +
         (ann->total_neurons - ann->inputs);
}

/* A shadow network: a copy whose numbers are zero. */
static genann *shadow_of(const genann *ann) {
  genann *d = genann_copy(ann);
  memset(d->weight, 0, sizeof(double) * numbers(ann));
  return d;
}

/* The gradient of the loss with respect to the weights (gw) and the
 * inputs (gx) by reverse mode. */
static void gradient(const genann *ann, const double *x, const double *t,
                     double *gw, double *gx) {
  genann *d = shadow_of(ann);
  memset(gx, 0, sizeof(double) * ann->inputs);
  __enzyme_autodiff((void *)loss, enzyme_dup, ann, d, enzyme_dup, x, gx,
                    enzyme_const, t);
  memcpy(gw, d->weight, sizeof(double) * ann->total_weights);
  genann_free(d);
}

/* The derivative of the loss along weight i (or input -1 - i) by forward
 * mode. */
static double tangent(const genann *ann, const double *x, const double *t,
                      int i) {
  genann *d = shadow_of(ann);
  double *dx = calloc(ann->inputs, sizeof(double));
  if (i >= 0)
    d->weight[i] = 1;
  else
    dx[-1 - i] = 1;
  double r = __enzyme_fwddiff((void *)loss, enzyme_dup, ann, d, enzyme_dup,
                              x, dx, enzyme_const, t);
  free(dx);
  genann_free(d);
  return r;
}

/* Central difference of the loss along weight i (or input -1 - i). */
static double difference(genann *ann, double *x, const double *t, int i,
                         double h) {
  double *p = i >= 0 ? &ann->weight[i] : &x[-1 - i];
  double v = *p;
  *p = v + h;
  double up = loss(ann, x, t);
  *p = v - h;
  double down = loss(ann, x, t);
  *p = v;
  return (up - down) / (2 * h);
}

/* The gradient genann_train's step implies: (w - w') / lr. */
static void train_gradient(const genann *ann, const double *x,
                           const double *t, double *g) {
  const double lr = 0.5;
  genann *c = genann_copy(ann);
  genann_train(c, x, t, lr);
  for (int i = 0; i < ann->total_weights; ++i)
    g[i] = (ann->weight[i] - c->weight[i]) / lr;
  genann_free(c);
}

static genann *network(int layers, genann_actfun hidden, genann_actfun out,
                       double scale) {
  genann *ann = genann_init(3, layers, 4, 2);
  for (int i = 0; i < ann->total_weights; ++i)
    ann->weight[i] *= scale;
  ann->activation_hidden = hidden;
  ann->activation_output = out;
  return ann;
}

static const double x0[3] = {0.7, -0.4, 1.3};
static const double t0[2] = {0.25, 0.8};

/* 1. Activations whose derivative genann_train knows exactly. */
static void exact(const char *name, int layers, genann_actfun hidden,
                  genann_actfun out) {
  genann *ann = network(layers, hidden, out, 2.0);
  double x[3];
  memcpy(x, x0, sizeof x);
  int n = ann->total_weights;
  double *gw = malloc(sizeof(double) * n), *tw = malloc(sizeof(double) * n);
  double gx[3];
  gradient(ann, x, t0, gw, gx);
  train_gradient(ann, x, t0, tw);
  char what[96];
  for (int i = 0; i < n; ++i) {
    snprintf(what, sizeof what, "%s, %d layers: dE/dw vs genann_train", name,
             layers);
    check(what, i, gw[i], tw[i], 1e-12);
    snprintf(what, sizeof what, "%s, %d layers: dE/dw vs differences", name,
             layers);
    check(what, i, gw[i], difference(ann, x, t0, i, 1e-6), 1e-6);
    snprintf(what, sizeof what, "%s, %d layers: dE/dw forward vs reverse",
             name, layers);
    check(what, i, tangent(ann, x, t0, i), gw[i], 1e-12);
  }
  for (int j = 0; j < 3; ++j) {
    snprintf(what, sizeof what, "%s, %d layers: dE/dx vs differences", name,
             layers);
    check(what, j, gx[j], difference(ann, x, t0, -1 - j, 1e-6), 1e-6);
    snprintf(what, sizeof what, "%s, %d layers: dE/dx forward vs reverse",
             name, layers);
    check(what, j, tangent(ann, x, t0, -1 - j), gx[j], 1e-12);
  }
  free(gw);
  free(tw);
  genann_free(ann);
}

/* 1b. Through training: the loss after two genann_train steps (its
 * backpropagation, the activations' derivatives chosen by comparing
 * function pointers, the weights updated in place) with respect to the
 * initial weights and the input, by reverse mode against central
 * differences and forward mode. */
static double trained_loss(const genann *ann, const double *x,
                           const double *t) {
  genann_train(ann, x, t, 0.8);
  genann_train(ann, x, t, 0.8);
  return loss(ann, x, t);
}

static double trained_difference(const genann *ann, double *x,
                                 const double *t, int i, double h) {
  genann *c = genann_copy(ann);
  double *p = i >= 0 ? &c->weight[i] : &x[-1 - i];
  double v = *p, w[2];
  for (int s = 0; s < 2; ++s) {
    memcpy(c->weight, ann->weight, sizeof(double) * ann->total_weights);
    *p = v + (s ? -h : h);
    w[s] = trained_loss(c, x, t);
  }
  *p = v;
  genann_free(c);
  return (w[0] - w[1]) / (2 * h);
}

static void trained(const char *name, int layers, genann_actfun hidden,
                    genann_actfun out) {
  genann *ann = network(layers, hidden, out, 2.0);
  double x[3];
  memcpy(x, x0, sizeof x);
  int n = ann->total_weights;
  genann *c = genann_copy(ann), *d = shadow_of(ann);
  double gx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)trained_loss, enzyme_dup, c, d, enzyme_dup, x, gx,
                    enzyme_const, t0);
  char what[96];
  for (int i = -3; i < n; ++i) {
    double g = i >= 0 ? d->weight[i] : gx[-1 - i];
    snprintf(what, sizeof what, "trained %s, %d layers: vs differences", name,
             layers);
    check(what, i, g, trained_difference(ann, x, t0, i, 1e-6), 1e-5);
    genann *ct = genann_copy(ann), *dt = shadow_of(ann);
    double tx[3] = {0, 0, 0};
    if (i >= 0)
      dt->weight[i] = 1;
    else
      tx[-1 - i] = 1;
    double f = __enzyme_fwddiff((void *)trained_loss, enzyme_dup, ct, dt,
                                enzyme_dup, x, tx, enzyme_const, t0);
    snprintf(what, sizeof what, "trained %s, %d layers: forward vs reverse",
             name, layers);
    check(what, i, f, g, 1e-10);
    genann_free(ct);
    genann_free(dt);
  }
  genann_free(c);
  genann_free(d);
  genann_free(ann);
}

/* 2. The default, cached sigmoid, differentiated as written: a step
 * function, whose derivative is 0. With a linear output layer
 * (\p linear_out), the output layer's weights get their exact gradient,
 * the same as genann_train's step there. */
static void cached(int layers, int linear_out) {
  genann *ann = network(layers, genann_act_sigmoid_cached,
                        linear_out ? genann_act_linear
                                   : genann_act_sigmoid_cached,
                        1.0);
  double x[3];
  memcpy(x, x0, sizeof x);
  int n = ann->total_weights;
  double *gw = malloc(sizeof(double) * n), *tw = malloc(sizeof(double) * n);
  double gx[3];
  gradient(ann, x, t0, gw, gx);
  train_gradient(ann, x, t0, tw);
  /* The output layer's weights come after every other weight. */
  int first_out = linear_out
                      ? n - 2 * ((layers ? ann->hidden : ann->inputs) + 1)
                      : n;
  char what[96];
  for (int i = 0; i < n; ++i) {
    /* Within one step of the table (30 / 4096) the loss is constant in a
     * weight below an activation; a step of 1e-9 stays inside it unless
     * the weight sits on a jump. */
    snprintf(what, sizeof what,
             "cached sigmoid, %d layers%s: dE/dw vs differences", layers,
             linear_out ? ", linear output" : "");
    check(what, i, gw[i], difference(ann, x, t0, i, 1e-9), 1e-5);
    snprintf(what, sizeof what,
             "cached sigmoid, %d layers%s: dE/dw forward vs reverse", layers,
             linear_out ? ", linear output" : "");
    check(what, i, tangent(ann, x, t0, i), gw[i], 1e-12);
    if (i < first_out) {
      snprintf(what, sizeof what,
               "cached sigmoid, %d layers%s: dE/dw is 0 below the table",
               layers, linear_out ? ", linear output" : "");
      check(what, i, gw[i], 0, 0);
    } else {
      snprintf(what, sizeof what,
               "cached sigmoid, %d layers, linear output: vs genann_train",
               layers);
      check(what, i, gw[i], tw[i], 1e-12);
      if (gw[i] == 0) {
        printf("cached sigmoid: output weight %d has gradient 0  FAIL\n", i);
        ++failures;
      }
    }
  }
  for (int j = 0; j < 3; ++j) {
    snprintf(what, sizeof what,
             "cached sigmoid, %d layers%s: dE/dx vs differences", layers,
             linear_out ? ", linear output" : "");
    check(what, j, gx[j], difference(ann, x, t0, -1 - j, 1e-9), 1e-5);
    snprintf(what, sizeof what,
             "cached sigmoid, %d layers%s: dE/dx forward vs reverse", layers,
             linear_out ? ", linear output" : "");
    check(what, j, tangent(ann, x, t0, -1 - j), gx[j], 1e-12);
    /* (The inputs are below the table unless they feed a linear output
     * directly.) */
    if (layers > 0 || !linear_out) {
      snprintf(what, sizeof what,
               "cached sigmoid, %d layers%s: dE/dx is 0 below the table",
               layers, linear_out ? ", linear output" : "");
      check(what, j, gx[j], 0, 0);
    }
  }
  free(gw);
  free(tw);
  genann_free(ann);
}

#ifdef GENANN_CACHED_RULE
/* 3. The cached sigmoid with the derivative genann_train uses, given by
 * custom rules: forward y (1 - y) da, reverse da += y (1 - y) dy. */
static double cached_fwd(const genann *ann, const genann *dann, double a,
                         double da) {
  (void)dann;
  double y = genann_act_sigmoid_cached(ann, a);
  return y * (1 - y) * da;
}

static double cached_aug(const genann *ann, const genann *dann, double a) {
  (void)dann;
  return genann_act_sigmoid_cached(ann, a);
}

static double cached_rev(const genann *ann, const genann *dann, double a,
                         double dy) {
  (void)dann;
  double y = genann_act_sigmoid_cached(ann, a);
  return y * (1 - y) * dy;
}

void *__enzyme_register_derivative_cached[] = {
    (void *)genann_act_sigmoid_cached, (void *)cached_fwd};
void *__enzyme_register_gradient_cached[] = {
    (void *)genann_act_sigmoid_cached, (void *)cached_aug,
    (void *)cached_rev};

static void cached_with_rule(int layers) {
  genann *ann = network(layers, genann_act_sigmoid_cached,
                        genann_act_sigmoid_cached, 1.0);
  double x[3];
  memcpy(x, x0, sizeof x);
  int n = ann->total_weights;
  double *gw = malloc(sizeof(double) * n), *tw = malloc(sizeof(double) * n);
  double gx[3];
  gradient(ann, x, t0, gw, gx);
  train_gradient(ann, x, t0, tw);
  char what[96];
  for (int i = 0; i < n; ++i) {
    snprintf(what, sizeof what,
             "cached sigmoid with a rule, %d layers: vs genann_train", layers);
    check(what, i, gw[i], tw[i], 1e-12);
    snprintf(what, sizeof what,
             "cached sigmoid with a rule, %d layers: forward vs reverse",
             layers);
    check(what, i, tangent(ann, x, t0, i), gw[i], 1e-12);
  }
  free(gw);
  free(tw);
  genann_free(ann);
}

#endif

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "all";
  int all = !strcmp(part, "all");
  srand(7);
  if (all || !strcmp(part, "exact")) {
    int layers[] = {0, 1, 3};
    for (int l = 0; l < 3; ++l) {
      exact("sigmoid", layers[l], genann_act_sigmoid, genann_act_sigmoid);
      exact("tanh/linear", layers[l], genann_act_tanh, genann_act_linear);
      exact("relu/sigmoid", layers[l], genann_act_relu, genann_act_sigmoid);
    }
  }
  if (all || !strcmp(part, "train")) {
    trained("sigmoid", 1, genann_act_sigmoid, genann_act_sigmoid);
    trained("tanh/linear", 2, genann_act_tanh, genann_act_linear);
    trained("sigmoid", 0, genann_act_sigmoid, genann_act_sigmoid);
  }
#ifndef GENANN_CACHED_RULE
  if (all || !strcmp(part, "cached")) {
    for (int l = 0; l < 3; l += 2) {
      cached(l, 0);
      cached(l, 1);
    }
  }
#else
  if (all || !strcmp(part, "rule")) {
    cached_with_rule(0);
    cached_with_rule(2);
  }
#endif
  printf("genann %s: %d checks, %d failures\n", part, checks, failures);
  return failures != 0;
}
