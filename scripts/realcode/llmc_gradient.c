/* Derivatives through llm.c's GPT-2 (github.com/karpathy/llm.c,
 * train_gpt2.c included unchanged with -DTESTING, as its test_gpt2.c
 * does). A GPT2 is a struct of the config, ParameterTensors (16 pointers
 * into one malloc'd block, set by malloc_and_point_parameters through a
 * table of pointers to the fields), ActivationTensors (23 pointers into a
 * second block), cached inputs and targets, and the mean loss, which
 * gpt2_forward stores into the struct: encoder, layernorm, matmul (a tiled
 * loop when B*T is a multiple of 8, a naive one otherwise; OpenMP loops,
 * collapse(2)), causal attention (collapse(3), a running maximum from
 * -10000), GELU (tanhf), softmax over a padded vocabulary, cross-entropy.
 * llm.c writes the backward pass by hand (gpt2_backward), which gives the
 * gradient to compare with.
 *
 * No checkpoint is read: a tiny model (4 channels a head, 2 heads, 2
 * layers, vocabulary 29 padded to 32, context 8) is made as
 * gpt2_build_from_checkpoint makes one, its parameters from a fixed
 * generator. For B*T = 8 (the tiled matmul) and B*T = 5 (the naive one),
 * the gradient of the mean loss with respect to every parameter (the
 * shadow GPT2 a copy whose parameter and activation pointers point into
 * zeroed blocks) by reverse mode, against gpt2_backward's gradient
 * (every parameter), central differences (Richardson's, coordinates in
 * every tensor and random directions) and forward mode; and the same for
 * the loss after two AdamW steps (gpt2_backward and gpt2_update inside the
 * differentiated function: the initial parameters' gradient through
 * llm.c's own training). With OpenMP, every check at 1, 2 and 4 threads.
 * Run by llmc.sh. */
#include "train_gpt2.c"

/* llmc/rand.h defines these C99 `inline`, without an external definition,
 * which calls at -O0 (a level llm.c never builds at) need: a declaration
 * with `extern` makes this file's definitions external. */
extern unsigned long long randint64(mt19937_state *state);
extern float randfloat32(mt19937_state *state);
extern double randfloat64(mt19937_state *state);

#ifdef _OPENMP
#include <omp.h>
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

static int failures = 0, checks = 0;

static void check(const char *what, long i, double got, double want,
                  double atol, double rtol) {
  ++checks;
  if (!(fabs(got - want) <= atol + rtol * fabs(want))) {
    printf("%s [%ld]: %.9g, expected %.9g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

static uint64_t state = 88172645463325252ull;
static float uniform(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (float)((state >> 40) * (2.0 / 16777216.0) - 1.0);
}

enum { MAXT = 8, VOCAB = 29, PADDED = 32, LAYERS = 2, HEADS = 2, CH = 8 };

/* A model as gpt2_build_from_checkpoint makes one, its parameters drawn. */
static void build(GPT2 *m) {
  memset(m, 0, sizeof *m);
  m->config.max_seq_len = MAXT;
  m->config.vocab_size = VOCAB;
  m->config.padded_vocab_size = PADDED;
  m->config.num_layers = LAYERS;
  m->config.num_heads = HEADS;
  m->config.channels = CH;
  fill_in_parameter_sizes(m->param_sizes, m->config);
  m->num_parameters = 0;
  for (int i = 0; i < NUM_PARAMETER_TENSORS; ++i)
    m->num_parameters += m->param_sizes[i];
  m->params_memory = malloc_and_point_parameters(&m->params, m->param_sizes);
  /* Layernorm gains near 1, the rest of a trained model's sizes. */
  long at = 0;
  for (int t = 0; t < NUM_PARAMETER_TENSORS; ++t) {
    int gain = t == 2 || t == 8 || t == 14;
    float scale = t == 0 || t == 1 ? 0.8f : gain ? 0.2f : 0.4f;
    for (size_t i = 0; i < m->param_sizes[t]; ++i)
      m->params_memory[at++] = (gain ? 1 : 0) + scale * uniform();
  }
  m->mean_loss = -1.0f;
}

/* The shadow: the same struct, its parameters and activations in zeroed
 * blocks, its own buffers for the cached tokens, its mean loss 0 (a
 * shadow's every number is 0: left at the primal's loss, the adjoint of
 * the stored loss would start from it). */
static GPT2 shadow_of(const GPT2 *m, const float *params) {
  GPT2 d = *m;
  d.params_memory = malloc_and_point_parameters(&d.params, d.param_sizes);
  if (params)
    memcpy(d.params_memory, params, m->num_parameters * sizeof(float));
  else
    memset(d.params_memory, 0, m->num_parameters * sizeof(float));
  d.acts_memory = malloc_and_point_activations(&d.acts, d.act_sizes);
  memset(d.acts_memory, 0, m->num_activations * sizeof(float));
  d.inputs = calloc(m->batch_size * m->seq_len, sizeof(int));
  d.targets = calloc(m->batch_size * m->seq_len, sizeof(int));
  d.grads_memory = d.grads_acts_memory = d.m_memory = d.v_memory = NULL;
  d.mean_loss = 0;
  return d;
}

/* For trained_loss: the gradients and the AdamW state allocated as llm.c
 * does (by a step of rate 0, then put back to their start), and their
 * shadows, zeroed. */
static void prepare_training(GPT2 *m, GPT2 *d, const float *params) {
  long n = m->num_parameters;
  gpt2_zero_grad(m);
  gpt2_backward(m);
  gpt2_update(m, 0, 0.9f, 0.999f, 1e-3f, 0, 1);
  memcpy(m->params_memory, params, n * sizeof(float));
  memset(m->m_memory, 0, n * sizeof(float));
  memset(m->v_memory, 0, n * sizeof(float));
  d->grads_memory = malloc_and_point_parameters(&d->grads, d->param_sizes);
  d->grads_acts_memory =
      malloc_and_point_activations(&d->grads_acts, d->act_sizes);
  d->m_memory = calloc(n, sizeof(float));
  d->v_memory = calloc(n, sizeof(float));
  memset(d->grads_memory, 0, n * sizeof(float));
  memset(d->grads_acts_memory, 0, m->num_activations * sizeof(float));
}

static void free_shadow(GPT2 *d) {
  free(d->params_memory);
  free(d->acts_memory);
  free(d->inputs);
  free(d->targets);
  free(d->grads_memory);
  free(d->grads_acts_memory);
  free(d->m_memory);
  free(d->v_memory);
}

/* The objective: gpt2_forward's mean loss. */
static float loss(GPT2 *m, int *in, int *tg, int B, int T) {
  gpt2_forward(m, in, tg, B, T);
  return m->mean_loss;
}

/* The loss after two AdamW steps of llm.c's own training. */
static float trained_loss(GPT2 *m, int *in, int *tg, int B, int T) {
  for (int step = 1; step <= 2; ++step) {
    gpt2_forward(m, in, tg, B, T);
    gpt2_zero_grad(m);
    gpt2_backward(m);
    gpt2_update(m, 1e-2f, 0.9f, 0.999f, 3e-2f, 1e-2f, step);
  }
  gpt2_forward(m, in, tg, B, T);
  return m->mean_loss;
}

/* The requests, one a function (the function differentiated must be
 * known where the request is). */
static void gradient(int trained, GPT2 *m, GPT2 *d, int *in, int *tg, int B,
                     int T) {
  if (trained)
    __enzyme_autodiff((void *)trained_loss, enzyme_dup, m, d, enzyme_const, in,
                      enzyme_const, tg, enzyme_const, B, enzyme_const, T);
  else
    __enzyme_autodiff((void *)loss, enzyme_dup, m, d, enzyme_const, in,
                      enzyme_const, tg, enzyme_const, B, enzyme_const, T);
}

static float tangent(int trained, GPT2 *m, GPT2 *d, int *in, int *tg, int B,
                     int T) {
  if (trained)
    return __enzyme_fwddiff((void *)trained_loss, enzyme_dup, m, d,
                            enzyme_const, in, enzyme_const, tg, enzyme_const, B,
                            enzyme_const, T);
  return __enzyme_fwddiff((void *)loss, enzyme_dup, m, d, enzyme_const, in,
                          enzyme_const, tg, enzyme_const, B, enzyme_const, T);
}

typedef float (*objective)(GPT2 *, int *, int *, int, int);

/* f at params + h dir, on a fresh copy of the model. */
static double value_at(objective f, const GPT2 *m0, const float *dir, double h,
                       int *in, int *tg, int B, int T) {
  GPT2 m;
  memset(&m, 0, sizeof m);
  m.config = m0->config;
  memcpy(m.param_sizes, m0->param_sizes, sizeof m.param_sizes);
  m.num_parameters = m0->num_parameters;
  m.params_memory = malloc_and_point_parameters(&m.params, m.param_sizes);
  for (size_t i = 0; i < m.num_parameters; ++i)
    m.params_memory[i] = m0->params_memory[i] + (float)(h * dir[i]);
  m.mean_loss = -1.0f;
  double v = f(&m, in, tg, B, T);
  gpt2_free(&m);
  return v;
}

static double difference(objective f, const GPT2 *m, const float *dir, int *in,
                         int *tg, int B, int T) {
  double h = 1e-2;
  double a = value_at(f, m, dir, h, in, tg, B, T);
  double b = value_at(f, m, dir, -h, in, tg, B, T);
  double c = value_at(f, m, dir, 2 * h, in, tg, B, T);
  double d = value_at(f, m, dir, -2 * h, in, tg, B, T);
  return (8 * (a - b) - (c - d)) / (12 * h);
}

/* A model ready for differentiation: the activations allocated by a first
 * forward pass (gpt2_forward allocates them lazily). */
static GPT2 ready(const GPT2 *m0, int *in, int *tg, int B, int T) {
  GPT2 m;
  memset(&m, 0, sizeof m);
  m.config = m0->config;
  memcpy(m.param_sizes, m0->param_sizes, sizeof m.param_sizes);
  m.num_parameters = m0->num_parameters;
  m.params_memory = malloc_and_point_parameters(&m.params, m.param_sizes);
  memcpy(m.params_memory, m0->params_memory, m.num_parameters * sizeof(float));
  m.mean_loss = -1.0f;
  gpt2_forward(&m, in, tg, B, T);
  return m;
}

static void run(int B, int T, int trained, const char *mode) {
  char tag[96];
  snprintf(tag, sizeof tag, "gpt2 B=%d T=%d%s%s", B, T,
           trained ? " (two AdamW steps)" : "", mode);
  objective f = trained ? trained_loss : loss;
  GPT2 m0;
  build(&m0);
  int in[MAXT * 2], tg[MAXT * 2];
  for (int i = 0; i < B * T; ++i) {
    in[i] = (7 * i + 3) % VOCAB;
    tg[i] = (11 * i + 5) % VOCAB;
  }
  long n = m0.num_parameters;
  GPT2 m = ready(&m0, in, tg, B, T);
  GPT2 d = shadow_of(&m, NULL);
  if (trained)
    prepare_training(&m, &d, m0.params_memory);
  gradient(trained, &m, &d, in, tg, B, T);
  float *grad = d.params_memory;
  double gmax = 0;
  for (long i = 0; i < n; ++i)
    gmax = fmax(gmax, fabs(grad[i]));
  char what[160];
  if (!trained) {
    /* llm.c's own backward pass. */
    GPT2 h = ready(&m0, in, tg, B, T);
    gpt2_zero_grad(&h);
    gpt2_backward(&h);
    snprintf(what, sizeof what, "%s: gradient vs gpt2_backward", tag);
    for (long i = 0; i < n; ++i)
      check(what, i, grad[i], h.grads_memory[i], 1e-5 * gmax, 1e-4);
    gpt2_free(&h);
  }
  /* Coordinates in every tensor, and directions. */
  float *e = calloc(n, sizeof(float));
  long start = 0;
  for (int t = 0; t < NUM_PARAMETER_TENSORS; ++t) {
    for (int k = 0; k < 2; ++k) {
      long i = start + (long)(m.param_sizes[t] * (2 * k + 1)) / 4;
      if (t == 0)
        i = in[k] * CH + k; /* a row the input reads */
      e[i] = 1;
      snprintf(what, sizeof what, "%s: gradient vs differences", tag);
      check(what, i, grad[i], difference(f, &m0, e, in, tg, B, T), 5e-4 * gmax,
            2e-3);
      GPT2 c = ready(&m0, in, tg, B, T), dc = shadow_of(&c, e);
      if (trained)
        prepare_training(&c, &dc, m0.params_memory);
      float tan = tangent(trained, &c, &dc, in, tg, B, T);
      snprintf(what, sizeof what, "%s: forward vs reverse", tag);
      check(what, i, tan, grad[i], 1e-5 * gmax, 1e-4);
      free_shadow(&dc);
      gpt2_free(&c);
      e[i] = 0;
    }
    start += m.param_sizes[t];
  }
  for (int k = 0; k < 2; ++k) {
    double norm = 0, g = 0;
    for (long i = 0; i < n; ++i) {
      e[i] = uniform();
      norm += e[i] * e[i];
    }
    for (long i = 0; i < n; ++i) {
      e[i] /= sqrt(norm);
      g += (double)grad[i] * e[i];
    }
    snprintf(what, sizeof what, "%s: gradient vs differences", tag);
    check(what, -1 - k, g, difference(f, &m0, e, in, tg, B, T), 5e-4 * gmax,
          2e-3);
  }
  if (gmax == 0) {
    printf("%s: the gradient is 0  FAIL\n", tag);
    ++failures;
  }
  free(e);
  free_shadow(&d);
  gpt2_free(&m);
  gpt2_free(&m0);
}

int main(void) {
  int teams[] = {1, 2, 4}, nteams = 1;
#ifdef _OPENMP
  nteams = 3;
#endif
  for (int k = 0; k < nteams; ++k) {
    char mode[32] = "";
#ifdef _OPENMP
    omp_set_num_threads(teams[k]);
    snprintf(mode, sizeof mode, " (%d threads)", teams[k]);
#endif
    state = 88172645463325252ull;
    run(2, 4, 0, mode);
    run(1, 5, 0, mode);
    run(2, 4, 1, mode);
  }
  (void)teams;
  printf("llm.c: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
