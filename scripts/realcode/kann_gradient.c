/* Derivatives through KANN (Heng Li's neural network library in C,
 * github.com/attractivechaos/kann: kautodiff.c, its computational graph
 * with its own backpropagation, and kann.c, the layers and the model),
 * both files unchanged, compiled each on its own (the derivatives made at
 * link time) or included into this file with -DKANN_ONE_FILE. What the
 * derivatives go through: a graph of kad_node_t built inside the
 * differentiated function by kann's layer functions (calloc'd nodes,
 * arrays of child pointers, weights drawn by kann's generator and then
 * overwritten), kad_compile's topological sort (in-place counters in the
 * nodes), kad_ext_collate moving every variable into one realloc'd block
 * and pointing the nodes at it, feeds bound by storing the caller's
 * pointers into nodes, kad_sync_dim reallocating each node's values for
 * the batch size, the forward pass through kad_op_list (a table of
 * function pointers called with an action code), float BLAS with SSE
 * intrinsics (kad_sdot, kad_saxpy), softmax, layer normalization, 1-D
 * convolution and max pooling, GRU and LSTM cells unrolled by kann_unroll
 * (nodes shared through `pre` pointers), and kann_delete.
 *
 * The loss is kann_cost's value for a batch; its gradient with respect to
 * the model's parameters (kann's own block layout) and to the inputs by
 * reverse mode is checked against kann's own gradient (kann_cost with
 * cal_grad), central differences and forward mode, for six models: an MLP
 * with ReLU, tanh and softmax cross-entropy; sigmoid, layer normalization
 * and binary cross-entropy; sin and mean squared error; a GRU and an LSTM
 * (layer-normalized, learned initial state) unrolled over 3 steps; a 1-D
 * convolution with ReLU and max pooling. The recurrent models (kann_unroll
 * copies each node's parameter block) are built apart, with -DKANN_RNN, so
 * that a refusal of one build leaves the other's checks. Run by kann.sh. */
#include "kann.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef KANN_ONE_FILE
#include KANN_ONE_FILE
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { MAXVAR = 1024, MAXIN = 256 };

static int failures = 0, checks = 0, kinks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.9g, expected %.9g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

enum kind { MLP, CEB, MSE, GRU, LSTM, CONV };

struct net {
  const char *name;
  enum kind kind;
  int n_in, n_out, batch, len; /* len: steps an RNN is unrolled over */
  int n_x, n_y;                /* floats of the inputs and truths */
  float y[MAXIN];              /* the truths: constant */
};

/* The model, its weights drawn by kann's own generator (the same seed each
 * time: the driver's starting point). */
static kann_t *build(const struct net *s) {
  kad_node_t *t;
  kann_srand(11);
  switch (s->kind) {
  case MLP:
    t = kann_layer_input(s->n_in);
    t = kad_relu(kann_layer_dense(t, 7));
    t = kad_tanh(kann_layer_dense(t, 6));
    t = kann_layer_cost(t, s->n_out, KANN_C_CEM);
    break;
  case CEB:
    t = kann_layer_input(s->n_in);
    t = kad_sigm(kann_layer_dense(t, 6));
    t = kann_layer_layernorm(t);
    t = kann_layer_cost(t, s->n_out, KANN_C_CEB);
    break;
  case MSE:
    t = kann_layer_input(s->n_in);
    t = kad_sin(kann_layer_dense(t, 5));
    t = kann_layer_cost(t, s->n_out, KANN_C_MSE);
    break;
  case GRU:
    t = kann_layer_input(s->n_in);
    t = kann_layer_gru(t, 4, 0);
    t = kann_layer_cost(t, s->n_out, KANN_C_CEM);
    break;
  case LSTM:
    t = kann_layer_input(s->n_in);
    t = kann_layer_lstm(t, 3, KANN_RNN_NORM | KANN_RNN_VAR_H0);
    t = kann_layer_cost(t, s->n_out, KANN_C_MSE);
    break;
  case CONV:
  default:
    t = kad_feed(3, 1, 2, s->n_in / 2), t->ext_flag |= KANN_F_IN;
    t = kad_relu(kann_layer_conv1d(t, 3, 3, 1, 0));
    t = kad_max1d(t, 2, 2, 0);
    t = kann_layer_cost(t, s->n_out, KANN_C_CEM);
    break;
  }
  return kann_new(t, 0);
}

/* kann_cost of the batch x (len steps of batch x n_in floats) for the
 * parameters params, everything made and freed here. With grad, kann's
 * own gradient of the parameters into grad. */
static float run_cost(const struct net *s, const float *params,
                      const float *x, float *grad) {
  kann_t *ann = build(s), *run = ann;
  float *xs[8], *ys[8];
  memcpy(ann->x, params, sizeof(float) * kann_size_var(ann));
#ifdef KANN_RNN
  if (s->len > 1)
    run = kann_unroll(ann, s->len);
#endif
  for (int k = 0; k < s->len; ++k) {
    xs[k] = (float *)x + k * s->batch * s->n_in;
    ys[k] = (float *)s->y + k * s->batch * s->n_out;
  }
  kann_feed_bind(run, KANN_F_IN, 0, xs);
  kann_feed_bind(run, KANN_F_TRUTH, 0, ys);
  kann_set_batch_size(run, s->batch);
  kann_switch(run, 0);
  float cost = kann_cost(run, 0, grad != 0);
  if (grad)
    memcpy(grad, ann->g, sizeof(float) * kann_size_var(ann));
  if (run != ann)
    kann_delete_unrolled(run);
  kann_delete(ann);
  return cost;
}

static float loss(const struct net *s, const float *params, const float *x) {
  return run_cost(s, params, x, 0);
}

static unsigned long long rng_state;
static double uniform(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Central differences of the loss along coordinate j (parameters, then
 * inputs), with the first of three steps at which the one-sided
 * differences agree; *kink set when they disagree at all three: a ReLU or
 * a max pooling changes its branch that close, where differences say
 * nothing of the derivative (counted, not checked). */
static float central(const struct net *s, const float *p, const float *x,
                     int np, int j, int *kink) {
  float p1[MAXVAR], p2[MAXVAR], x1[MAXIN], x2[MAXIN];
  double mid = loss(s, p, x), c = 0;
  *kink = 1;
  for (float h = 1e-2f; *kink && h > 1e-3f; h /= 3) {
    memcpy(p1, p, sizeof(float) * np);
    memcpy(p2, p, sizeof(float) * np);
    memcpy(x1, x, sizeof(float) * s->n_x);
    memcpy(x2, x, sizeof(float) * s->n_x);
    float *v1 = j < np ? p1 : x1, *v2 = j < np ? p2 : x2;
    int at = j < np ? j : j - np;
    v1[at] += h;
    v2[at] -= h;
    double up = loss(s, p1, x1), down = loss(s, p2, x2);
    double right = (up - mid) / h, left = (mid - down) / h;
    c = (up - down) / (2 * h);
    *kink = fabs(right - left) > 0.01 * (1 + fabs(c));
  }
  return (float)c;
}

static void run_net(struct net s, unsigned seed) {
  kann_t *ann = build(&s);
  int np = kann_size_var(ann);
  float p[MAXVAR], x[MAXIN], own[MAXVAR];
  memcpy(p, ann->x, sizeof(float) * np);
  kann_delete(ann);
  rng_state = seed;
  s.n_x = s.len * s.batch * s.n_in;
  s.n_y = s.len * s.batch * s.n_out;
  for (int i = 0; i < s.n_x; ++i)
    x[i] = (float)(2 * uniform() - 1);
  for (int k = 0; k < s.len * s.batch; ++k) {
    float *y = s.y + k * s.n_out;
    int hot = (int)(uniform() * s.n_out);
    for (int i = 0; i < s.n_out; ++i)
      y[i] = s.kind == MSE || s.kind == LSTM ? (float)(2 * uniform() - 1)
             : s.kind == CEB                 ? (float)(uniform() < 0.5)
                                             : (float)(i == hot);
  }
  float value = run_cost(&s, p, x, own);
  char what[128];
  snprintf(what, sizeof what, "%s value", s.name);
  check(what, 0, isfinite(value) ? 0 : 1, 0, 0);

  float gp[MAXVAR] = {0}, gx[MAXIN] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &s, enzyme_dup, p, gp,
                    enzyme_dup, x, gx);
  for (int j = 0; j < np + s.n_x; ++j) {
    float g = j < np ? gp[j] : gx[j - np];
    if (j < np) {
      snprintf(what, sizeof what, "%s reverse vs kann's gradient", s.name);
      check(what, j, g, own[j], 1e-4);
    }
    int kink;
    float fd = central(&s, p, x, np, j, &kink);
    snprintf(what, sizeof what, "%s reverse vs differences", s.name);
    if (kink)
      ++kinks;
    else
      check(what, j, g, fd, 1e-2);
    float dp[MAXVAR] = {0}, dx[MAXIN] = {0};
    if (j < np)
      dp[j] = 1;
    else
      dx[j - np] = 1;
    float t = __enzyme_fwddiff((void *)loss, enzyme_const, &s, enzyme_dup, p,
                               dp, enzyme_dup, x, dx);
    snprintf(what, sizeof what, "%s forward vs reverse", s.name);
    check(what, j, t, g, 1e-4);
  }
  printf("%s: %d parameters, %d inputs, cost %g\n", s.name, np, s.n_x,
         value);
}

int main(void) {
#ifdef KANN_RNN
  run_net((struct net){"gru", GRU, 2, 2, 2, 3, 0, 0, {0}}, 4);
  run_net((struct net){"lstm", LSTM, 2, 2, 2, 3, 0, 0, {0}}, 5);
#else
  run_net((struct net){"mlp", MLP, 5, 3, 4, 1, 0, 0, {0}}, 1);
  run_net((struct net){"ceb", CEB, 4, 2, 3, 1, 0, 0, {0}}, 2);
  run_net((struct net){"mse", MSE, 3, 2, 4, 1, 0, 0, {0}}, 3);
  run_net((struct net){"conv1d", CONV, 16, 3, 2, 1, 0, 0, {0}}, 6);
#endif
  printf("kann: %d checks, %d failed (%d difference checks left out at "
         "kinks)\n",
         checks, failures, kinks);
  return failures != 0;
}
