/* Derivatives through llama2.c (github.com/karpathy/llama2.c, run.c
 * included unchanged, its main renamed by llama2.sh). run.c's Transformer
 * is a struct of a Config, a TransformerWeights of pointers into one block
 * (the checkpoint's mmap'd floats, laid out by memory_map_weights) and a
 * RunState of calloc'd buffers, among them the key/value cache that
 * forward() fills one position at a time and reads back at every later
 * position; forward() calls matmul (an OpenMP loop), rmsnorm, softmax
 * (a running maximum), expf, sqrtf, powf/cosf/sinf (RoPE), memcpy/memset,
 * and its attention heads are an OpenMP loop too.
 *
 * No checkpoint is read: a tiny model (dim 16, 2 layers, 4 query heads
 * sharing 2 key/value heads, or each with its own, vocabulary 32) is made
 * in memory, its block filled by a fixed generator and mapped by run.c's
 * own memory_map_weights, with and without the classifier shared with the
 * embedding table. The objective is the mean cross-entropy of a token
 * sequence over NPOS positions, each position's logits made by forward()
 * with the cache of the earlier ones and turned into probabilities by
 * run.c's softmax.
 *
 *  1. "weights": the gradient with respect to the whole block (one flat
 *     shadow block mapped by memory_map_weights, the shadow RunState made
 *     by malloc_run_state) by reverse mode, against central differences
 *     (Richardson's, for coordinates in every weight matrix and along
 *     random directions) and forward mode (along the same directions and
 *     coordinates); the gradient of the freq_cis gap the model skips is 0.
 *  2. "embedding": the gradient with respect to an input embedding table
 *     kept apart from the block (the objective stores it into the
 *     Transformer's weights), the other weights' shadows thrown away:
 *     against differences, forward mode and the block gradient of (1) for
 *     the same model; the rows of tokens never read are 0.
 *  3. "inside": the objective of the block alone, which maps it and makes
 *     and frees its RunState itself: reverse mode against differences,
 *     forward mode of width 3 (enzyme_width), and split mode
 *     (__enzyme_augmentfwd, __enzyme_reverse) against __enzyme_autodiff.
 * With OpenMP, every check at 1, 2, 3 and 4 threads. Run by llama2.sh. */
#include "run.c"
#undef main /* llama2.sh renames run.c's main */

#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
typedef struct {
  float d[3];
} float3;
float3 __enzyme_fwddiff3(void *, ...) __asm__("__enzyme_fwddiff");
typedef struct {
  void *tape;
  float value;
} augmented;
augmented __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum {
  DIM = 16,
  HIDDEN = 40,
  LAYERS = 2,
  HEADS = 4,
  VOCAB = 32,
  SEQ = 8,
  NPOS = 6,
  NDIR = 3,
};

static const int tokens[NPOS + 1] = {3, 17, 9, 30, 9, 1, 22};

/* Key/value heads: 2 (two query heads share each) or HEADS. */
static int kv_heads = 2;

static int failures = 0, checks = 0;

static void check(const char *what, long i, double got, double want,
                  double atol, double rtol) {
  ++checks;
  if (!(fabs(got - want) <= atol + rtol * fabs(want))) {
    printf("%s [%ld]: %.9g, expected %.9g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* A fixed generator: uniform in [-1, 1). */
static uint64_t state = 88172645463325252ull;
static float uniform(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (float)((state >> 40) * (2.0 / 16777216.0) - 1.0);
}

static Config config(void) {
  Config c = {DIM, HIDDEN, LAYERS, HEADS, kv_heads, VOCAB, SEQ};
  return c;
}

/* The floats memory_map_weights lays out, the classifier included when it
 * is not shared. */
static long block_size(int shared) {
  const long kv = DIM * kv_heads / HEADS, head = DIM / HEADS;
  long n = (long)VOCAB * DIM + 2L * LAYERS * DIM +
           LAYERS * (2L * DIM * DIM + 2L * DIM * kv + 3L * DIM * HIDDEN) + DIM +
           SEQ * head;
  return shared ? n : n + (long)VOCAB * DIM;
}

/* A Transformer over block, as build_transformer makes one over a
 * checkpoint: the weights mapped by memory_map_weights, the RunState by
 * malloc_run_state (zeroed buffers: a shadow's too). */
static void make(Transformer *t, float *block, int shared) {
  memset(t, 0, sizeof *t);
  t->config = config();
  memory_map_weights(&t->weights, &t->config, block, shared);
  malloc_run_state(&t->state, &t->config);
  t->fd = -1;
  t->data = block;
  t->file_size = block_size(shared) * (ssize_t)sizeof(float);
}

/* Weights of a trained model's sizes: rmsnorm gains near 1, matrices
 * scaled by their fan-in. */
static float *random_block(int shared) {
  long n = block_size(shared);
  float *b = calloc(n, sizeof(float));
  Transformer t;
  make(&t, b, shared);
  TransformerWeights *w = &t.weights;
  for (long i = 0; i < n; ++i)
    b[i] = uniform();
  for (long i = 0; i < LAYERS * DIM; ++i) {
    w->rms_att_weight[i] = 1 + 0.3f * uniform();
    w->rms_ffn_weight[i] = 1 + 0.3f * uniform();
  }
  for (long i = 0; i < DIM; ++i)
    w->rms_final_weight[i] = 1 + 0.3f * uniform();
  float *mats[] = {w->wq, w->wk, w->wv, w->wo, w->w1, w->w3, w->w2};
  const long kv = DIM * kv_heads / HEADS;
  long sizes[] = {DIM * DIM,    DIM * kv,     DIM * kv,    DIM * DIM,
                  DIM * HIDDEN, DIM * HIDDEN, DIM * HIDDEN};
  float scales[] = {0.6f, 0.6f, 0.5f, 0.4f, 0.5f, 0.5f, 0.25f};
  for (int m = 0; m < 7; ++m)
    for (long i = 0; i < LAYERS * sizes[m]; ++i)
      mats[m][i] *= scales[m];
  /* The gap of freq_cis (read by nobody): its values must not matter. */
  float *gap = w->rms_final_weight + DIM;
  for (long i = 0; i < SEQ * DIM / HEADS; ++i)
    gap[i] = 1e3f;
  free_run_state(&t.state);
  return b;
}

/* The objective: mean cross-entropy of the next token over NPOS
 * positions, the key/value cache carried from position to position. */
static float sequence_loss(Transformer *t, const int *tok, int npos) {
  float loss = 0;
  for (int pos = 0; pos < npos; ++pos) {
    float *logits = forward(t, tok[pos], pos);
    softmax(logits, t->config.vocab_size);
    loss -= logf(logits[tok[pos + 1]]);
  }
  return loss / npos;
}

/* The same with the input embedding table apart from the block. */
static float embedding_loss(float *table, Transformer *t, const int *tok,
                            int npos) {
  t->weights.token_embedding_table = table;
  return sequence_loss(t, tok, npos);
}

static float loss_of_block(float *block, int shared) {
  Transformer t;
  make(&t, block, shared);
  float l = sequence_loss(&t, tokens, NPOS);
  free_run_state(&t.state);
  return l;
}

static float loss_of_table(float *block, float *table) {
  Transformer t;
  make(&t, block, 0);
  float l = embedding_loss(table, &t, tokens, NPOS);
  free_run_state(&t.state);
  return l;
}

/* Central differences with Richardson's extrapolation along dir (the
 * objective in float: steps of 10^-2). */
typedef float (*objective)(float *, float *, int);

static float block_objective(float *block, float *aux, int shared) {
  (void)aux;
  return loss_of_block(block, shared);
}

static float table_objective(float *table, float *block, int shared) {
  (void)shared;
  return loss_of_table(block, table);
}

static double difference(objective f, float *x, long n, const float *dir,
                         float *aux, int shared) {
  float *saved = malloc(n * sizeof(float));
  memcpy(saved, x, n * sizeof(float));
  double h = 1e-2, v[4];
  const double steps[4] = {h, -h, 2 * h, -2 * h};
  for (int s = 0; s < 4; ++s) {
    for (long i = 0; i < n; ++i)
      x[i] = saved[i] + (float)(steps[s] * dir[i]);
    v[s] = f(x, aux, shared);
  }
  memcpy(x, saved, n * sizeof(float));
  free(saved);
  return (8 * (v[0] - v[1]) - (v[2] - v[3])) / (12 * h);
}

static float *direction(long n) {
  float *d = malloc(n * sizeof(float));
  double norm = 0;
  for (long i = 0; i < n; ++i) {
    d[i] = uniform();
    norm += d[i] * d[i];
  }
  for (long i = 0; i < n; ++i)
    d[i] /= sqrt(norm);
  return d;
}

static double dot(const float *a, const float *b, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += (double)a[i] * b[i];
  return s;
}

/* Coordinates of the block to probe: a few in every weight region. */
static long probes(const Transformer *t, const float *block, long *out) {
  const TransformerWeights *w = &t->weights;
  const float *starts[] = {w->token_embedding_table + tokens[0] * DIM,
                           w->token_embedding_table + tokens[2] * DIM,
                           w->rms_att_weight,
                           w->wq,
                           w->wk,
                           w->wv,
                           w->wo,
                           w->rms_ffn_weight,
                           w->w1,
                           w->w2,
                           w->w3,
                           w->rms_final_weight,
                           w->wcls};
  const long kv = DIM * kv_heads / HEADS;
  const long extents[] = {DIM,
                          DIM,
                          LAYERS * DIM,
                          LAYERS * DIM * DIM,
                          LAYERS * DIM * kv,
                          LAYERS * DIM * kv,
                          LAYERS * DIM * DIM,
                          LAYERS * DIM,
                          LAYERS * DIM * HIDDEN,
                          LAYERS * DIM * HIDDEN,
                          LAYERS * DIM * HIDDEN,
                          DIM,
                          VOCAB * DIM};
  long n = 0;
  for (int r = 0; r < 13; ++r)
    for (int k = 0; k < 3; ++k)
      out[n++] = (starts[r] - block) + (extents[r] * (2 * k + 1)) / 6;
  return n;
}

static void weights(int shared, const char *mode) {
  char tag[96];
  snprintf(tag, sizeof tag, "weights (%s classifier, %d kv heads)%s",
           shared ? "shared" : "own", kv_heads, mode);
  long n = block_size(shared);
  float *block = random_block(shared);
  float *grad = calloc(n, sizeof(float));
  Transformer t, dt;
  make(&t, block, shared);
  make(&dt, grad, shared);
  __enzyme_autodiff((void *)sequence_loss, enzyme_dup, &t, &dt, enzyme_const,
                    tokens, enzyme_const, NPOS);
  char what[128];
  snprintf(what, sizeof what, "%s: gradient vs differences", tag);
  long at[64];
  long np = probes(&t, block, at);
  float *e = calloc(n, sizeof(float));
  double gmax = 0;
  for (long i = 0; i < n; ++i)
    gmax = fmax(gmax, fabs(grad[i]));
  for (long k = 0; k < np; ++k) {
    e[at[k]] = 1;
    double fd = difference(block_objective, block, n, e, NULL, shared);
    check(what, at[k], grad[at[k]], fd, 5e-4 * gmax, 1e-3);
    Transformer dd;
    make(&dd, e, shared);
    float tan = __enzyme_fwddiff((void *)sequence_loss, enzyme_dup, &t, &dd,
                                 enzyme_const, tokens, enzyme_const, NPOS);
    free_run_state(&dd.state);
    char fw[160];
    snprintf(fw, sizeof fw, "%s: forward vs reverse", tag);
    check(fw, at[k], tan, grad[at[k]], 1e-5 * gmax, 1e-4);
    e[at[k]] = 0;
  }
  for (int d = 0; d < NDIR; ++d) {
    float *dir = direction(n);
    double g = dot(grad, dir, n);
    double fd = difference(block_objective, block, n, dir, NULL, shared);
    check(what, -1 - d, g, fd, 5e-4 * gmax, 2e-3);
    Transformer dd;
    make(&dd, dir, shared);
    float tan = __enzyme_fwddiff((void *)sequence_loss, enzyme_dup, &t, &dd,
                                 enzyme_const, tokens, enzyme_const, NPOS);
    free_run_state(&dd.state);
    char fw[160];
    snprintf(fw, sizeof fw, "%s: forward along a direction", tag);
    check(fw, d, tan, g, 1e-5 * gmax, 1e-4);
    free(dir);
  }
  /* Nobody reads the freq_cis gap, nor the rows of tokens not in the
   * input (unless the classifier shares them). */
  float *gap = dt.weights.rms_final_weight + DIM;
  for (long i = 0; i < SEQ * DIM / HEADS; ++i)
    if (gap[i] != 0) {
      printf("%s: the freq_cis gap has gradient %g  FAIL\n", tag, gap[i]);
      ++failures;
      break;
    }
  if (!shared)
    for (int r = 0; r < VOCAB; ++r) {
      int used = 0;
      for (int p = 0; p < NPOS; ++p)
        used |= tokens[p] == r;
      for (int i = 0; i < DIM && !used; ++i)
        if (dt.weights.token_embedding_table[r * DIM + i] != 0) {
          printf("%s: unused row %d has a gradient  FAIL\n", tag, r);
          ++failures;
          break;
        }
    }
  if (gmax == 0) {
    printf("%s: the gradient is 0  FAIL\n", tag);
    ++failures;
  }
  free(e);
  free_run_state(&t.state);
  free_run_state(&dt.state);
  free(grad);
  free(block);
}

static void embedding(const char *mode) {
  long n = block_size(0), nt = (long)VOCAB * DIM;
  float *block = random_block(0);
  float *table = malloc(nt * sizeof(float)), *whole = malloc(n * sizeof(float));
  memcpy(table, block, nt * sizeof(float));
  memcpy(whole, block, n * sizeof(float));
  /* The block's own table is never read: poison it. */
  for (long i = 0; i < nt; ++i)
    block[i] = 1e30f;
  float *dtable = calloc(nt, sizeof(float));
  float *scratch = calloc(n, sizeof(float));
  Transformer t, dt;
  make(&t, block, 0);
  make(&dt, scratch, 0);
  __enzyme_autodiff((void *)embedding_loss, enzyme_dup, table, dtable,
                    enzyme_dup, &t, &dt, enzyme_const, tokens, enzyme_const,
                    NPOS);
  /* The whole block's gradient for the same model. */
  float *gwhole = calloc(n, sizeof(float));
  Transformer tw, dtw;
  make(&tw, whole, 0);
  make(&dtw, gwhole, 0);
  __enzyme_autodiff((void *)sequence_loss, enzyme_dup, &tw, &dtw, enzyme_const,
                    tokens, enzyme_const, NPOS);
  double gmax = 0;
  for (long i = 0; i < nt; ++i)
    gmax = fmax(gmax, fabs(dtable[i]));
  char what[128];
  for (long i = 0; i < nt; ++i) {
    snprintf(what, sizeof what, "embedding%s: table vs block gradient", mode);
    check(what, i, dtable[i], gwhole[i], 1e-6 * gmax, 1e-5);
  }
  /* The other weights' shadows got the block's gradient too. */
  for (long i = nt; i < n; ++i) {
    snprintf(what, sizeof what, "embedding%s: weights vs block gradient", mode);
    check(what, i, scratch[i], gwhole[i], 1e-6 * gmax, 1e-5);
  }
  float *e = calloc(nt, sizeof(float));
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 4; ++k) {
      long i = tokens[2 * p] * DIM + 5 * k;
      e[i] = 1;
      double fd = difference(table_objective, table, nt, e, block, 0);
      snprintf(what, sizeof what, "embedding%s: gradient vs differences", mode);
      check(what, i, dtable[i], fd, 5e-4 * gmax, 1e-3);
      float *ds = calloc(n, sizeof(float));
      Transformer dd;
      make(&dd, ds, 0);
      float tan = __enzyme_fwddiff((void *)embedding_loss, enzyme_dup, table, e,
                                   enzyme_dup, &t, &dd, enzyme_const, tokens,
                                   enzyme_const, NPOS);
      snprintf(what, sizeof what, "embedding%s: forward vs reverse", mode);
      check(what, i, tan, dtable[i], 1e-5 * gmax, 1e-4);
      free_run_state(&dd.state);
      free(ds);
      e[i] = 0;
    }
  float *dir = direction(nt);
  double g = dot(dtable, dir, nt);
  snprintf(what, sizeof what, "embedding%s: gradient vs differences", mode);
  check(what, -1, g, difference(table_objective, table, nt, dir, block, 0),
        5e-4 * gmax, 2e-3);
  float *ds = calloc(n, sizeof(float));
  Transformer dd;
  make(&dd, ds, 0);
  float tan = __enzyme_fwddiff((void *)embedding_loss, enzyme_dup, table, dir,
                               enzyme_dup, &t, &dd, enzyme_const, tokens,
                               enzyme_const, NPOS);
  snprintf(what, sizeof what, "embedding%s: forward along a direction", mode);
  check(what, -1, tan, g, 1e-5 * gmax, 1e-4);
  for (int r = 0; r < VOCAB; ++r) {
    int used = 0;
    for (int p = 0; p < NPOS; ++p)
      used |= tokens[p] == r;
    for (int i = 0; i < DIM && !used; ++i)
      if (dtable[r * DIM + i] != 0) {
        printf("embedding%s: unused row %d has a gradient  FAIL\n", mode, r);
        ++failures;
        break;
      }
  }
  free_run_state(&dd.state);
  free(ds);
  free(dir);
  free(e);
  free_run_state(&t.state);
  free_run_state(&dt.state);
  free_run_state(&tw.state);
  free_run_state(&dtw.state);
  free(whole);
  free(gwhole);
  free(scratch);
  free(dtable);
  free(table);
  free(block);
}

/* The objective as a user of Enzyme writes it around run.c: the block
 * alone is the argument; the Transformer, mapped over it, and its
 * RunState are made and freed inside. */
static float block_loss(float *block, const int *tok, int npos) {
  Transformer t;
  make(&t, block, 0);
  float l = sequence_loss(&t, tok, npos);
  free_run_state(&t.state);
  return l;
}

static void inside(const char *mode) {
  long n = block_size(0);
  float *block = random_block(0), *grad = calloc(n, sizeof(float));
  float *split = calloc(n, sizeof(float));
  __enzyme_autodiff((void *)block_loss, enzyme_dup, block, grad, enzyme_const,
                    tokens, enzyme_const, NPOS);
  augmented a =
      __enzyme_augmentfwd((void *)block_loss, enzyme_dup, block, split,
                          enzyme_const, tokens, enzyme_const, NPOS);
  __enzyme_reverse((void *)block_loss, enzyme_dup, block, split, enzyme_const,
                   tokens, enzyme_const, NPOS, 1.0f, a.tape);
  double gmax = 0;
  for (long i = 0; i < n; ++i)
    gmax = fmax(gmax, fabs(grad[i]));
  char what[128];
  snprintf(what, sizeof what, "inside%s: primal of the split sweep", mode);
  check(what, 0, a.value, block_loss(block, tokens, NPOS), 0, 1e-6);
  snprintf(what, sizeof what, "inside%s: split vs autodiff", mode);
  for (long i = 0; i < n; ++i)
    check(what, i, split[i], grad[i], 1e-6 * gmax, 1e-5);
  float *dir[3];
  for (int d = 0; d < 3; ++d)
    dir[d] = direction(n);
  float3 tan = __enzyme_fwddiff3((void *)block_loss, enzyme_width, 3,
                                 enzyme_dup, block, dir[0], dir[1], dir[2],
                                 enzyme_const, tokens, enzyme_const, NPOS);
  for (int d = 0; d < 3; ++d) {
    double g = dot(grad, dir[d], n);
    snprintf(what, sizeof what, "inside%s: gradient vs differences", mode);
    check(what, d, g, difference(block_objective, block, n, dir[d], NULL, 0),
          5e-4 * gmax, 2e-3);
    snprintf(what, sizeof what, "inside%s: forward (width 3) vs reverse", mode);
    check(what, d, tan.d[d], g, 1e-5 * gmax, 1e-4);
    free(dir[d]);
  }
  if (gmax == 0) {
    printf("inside%s: the gradient is 0  FAIL\n", mode);
    ++failures;
  }
  free(split);
  free(grad);
  free(block);
}

int main(void) {
  int teams[] = {1, 2, 3, 4};
  int nteams = 1;
#ifdef _OPENMP
  nteams = 4;
#endif
  for (int k = 0; k < nteams; ++k) {
    char mode[32] = "";
#ifdef _OPENMP
    omp_set_num_threads(teams[k]);
    snprintf(mode, sizeof mode, " (%d threads)", teams[k]);
#endif
    state = 88172645463325252ull;
    kv_heads = 2;
    weights(0, mode);
    weights(1, mode);
    embedding(mode);
    inside(mode);
    /* Every query head with its own key/value head, the classifier
     * shared (the layout of the TinyStories checkpoints). */
    kv_heads = HEADS;
    weights(1, mode);
  }
  (void)teams;
  printf("llama2: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
