/* Derivatives of Rodinia's backprop (openmp/backprop/backprop.c, included
 * unchanged: K&R definitions with float parameters, implicit int, OpenMP
 * loops that set their own thread count, arrays of row pointers, a
 * reduction whose result nobody reads): two training steps of a 64-16-1
 * network (bpnn_train: feed-forward, output and hidden errors with
 * absolute values, weight updates with momentum), then bpnn_feedforward;
 * the gradient of the output and both errors with respect to the initial
 * weights, inputs and target by reverse mode, forward mode along a
 * direction against it, and central differences (in float). Run by
 * rodinia.sh. */
#include "backprop.c"

#include "rodinia_check.h"

float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

enum { IN = 64, HID = 16, OUT = 1 };

/* Every float of a network's arrays, in a fixed order. */
static float *slot(BPNN *n, int k) {
  int w1 = (IN + 1) * (HID + 1), w2 = (HID + 1) * (OUT + 1);
  if (k < IN + 1)
    return &n->input_units[k];
  k -= IN + 1;
  if (k < OUT + 1)
    return &n->target[k];
  k -= OUT + 1;
  if (k < w1)
    return &n->input_weights[k / (HID + 1)][k % (HID + 1)];
  k -= w1;
  return &n->hidden_weights[k / (OUT + 1)][k % (OUT + 1)];
}
enum { SLOTS = IN + 1 + OUT + 1 + (IN + 1) * (HID + 1) + (HID + 1) * (OUT + 1) };

/* Trains a copy of init (net: its arrays overwritten) twice and returns a
   weighted sum of the trained network's output and the last errors. */
static float objective(BPNN *init, BPNN *net) {
  for (int k = 0; k < SLOTS; ++k)
    *slot(net, k) = *slot(init, k);
  for (int i = 0; i <= IN; ++i)
    for (int j = 0; j <= HID; ++j)
      net->input_prev_weights[i][j] = 0;
  for (int i = 0; i <= HID; ++i)
    for (int j = 0; j <= OUT; ++j)
      net->hidden_prev_weights[i][j] = 0;
  float eo, eh;
  bpnn_train(net, &eo, &eh);
  bpnn_train(net, &eo, &eh);
  bpnn_feedforward(net);
  float h = 0;
  for (int j = 1; j <= HID; ++j)
    h += 0.05f * j * net->hidden_units[j];
  return net->output_units[1] + h + 3 * eo + 5 * eh;
}

static BPNN *zeroed(void) {
  BPNN *n = bpnn_internal_create(IN, HID, OUT);
  for (int k = 0; k < SLOTS; ++k)
    *slot(n, k) = 0;
  return n;
}

int main(void) {
  srand(7);
  BPNN *init = bpnn_create(IN, HID, OUT), *net = bpnn_create(IN, HID, OUT);
  for (int i = 1; i <= IN; ++i)
    init->input_units[i] = (float)rand() / RAND_MAX;
  /* Small weights: with bpnn_create's (0..1) the hidden units saturate. */
  for (int k = IN + 1 + OUT + 1; k < SLOTS; ++k)
    *slot(init, k) = 0.2f * (*slot(init, k) - 0.5f);
  init->target[1] = 0.9f;
  BPNN *dinit = zeroed(), *dnet = zeroed();
  __enzyme_autodiff((void *)objective, enzyme_dup, init, dinit, enzyme_dup,
                    net, dnet);
  double scale = 0;
  for (int k = 0; k < SLOTS; ++k)
    scale = fmax(scale, fabs(*slot(dinit, k)));

  BPNN *tinit = zeroed(), *tnet = zeroed();
  double dot = 0;
  for (int k = 0; k < SLOTS; ++k) {
    float v = (float)cos(0.37 * k);
    *slot(tinit, k) = v;
    dot += v * (double)*slot(dinit, k);
  }
  float tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, init, tinit,
                                   enzyme_dup, net, tnet);
  rodinia_check("forward against reverse", tangent, dot, 1e-4, scale);

  char what[64];
  /* Inputs and input weights, the target, hidden weights. */
  int probes[] = {1, 98, 195, 292, 389, 486, 583, 680, 777, 874, 971, 1068,
                  1165, IN + 2, SLOTS - 1, SLOTS - 8, SLOTS - 20};
  for (size_t i = 0; i < sizeof probes / sizeof *probes; ++i) {
    int k = probes[i];
    float *p = slot(init, k), x = *p, h = 1e-2f;
    *p = x + h;
    double up = objective(init, net);
    *p = x - h;
    double down = objective(init, net);
    *p = x;
    snprintf(what, sizeof what, "d/d slot %d", k);
    rodinia_check(what, *slot(dinit, k), (up - down) / (2 * h), 2e-2, 0.02 * scale);
  }
  return rodinia_done("backprop");
}
