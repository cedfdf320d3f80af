/* An expression tree built inside the differentiated function, the way
 * tinyexpr builds one (github.com/codeplea/tinyexpr; issue 33's real
 * code): nodes allocated with room past their end for their children
 * (`void *kids[1]`, filled by a memcpy of a run-time length), constants
 * parsed from the text by strtod, the operations called through pointers
 * taken from a table that holds libm's sin and exp. Until 2026-12-07 at
 * -O0 the memcpy was refused ("a memory copy whose contents cannot be
 * typed": nothing in the function said the trailing array holds pointers),
 * and strtod at every level ("the external function 'strtod' has no body
 * and no derivative rule"). Analytic values, central differences, forward
 * against reverse, -O0 to -O3. */
#include "rev_check.h"

#include <stdlib.h>

typedef struct node {
  int arity;
  union {
    double value;
    const double *bound;
    double (*fn)(double);
    double (*fn2)(double, double);
  };
  void *kids[1];
} node;

static node *make(int arity, const node *kids[]) {
  const int psize = (int)sizeof(void *) * arity;
  const int size = (int)(sizeof(node) - sizeof(void *)) + psize;
  node *n = malloc(size);
  memset(n, 0, size);
  if (arity && kids)
    memcpy(n->kids, kids, psize);
  n->arity = arity;
  return n;
}

static double mul(double a, double b) { return a * b; }
static double add(double a, double b) { return a + b; }

struct entry {
  const char *name;
  double (*fn)(double);
};
static const struct entry table[] = {{"exp", exp}, {"sin", sin}};

/* arity 0: a constant; -1: a variable; 1, 2: functions. */
static double eval(const node *n) {
  switch (n->arity) {
  case 0:
    return n->value;
  case -1:
    return *n->bound;
  case 1:
    return n->fn(eval(n->kids[0]));
  default:
    return n->fn2(eval(n->kids[0]), eval(n->kids[1]));
  }
}

static void release(node *n) {
  for (int i = 0; i < n->arity; ++i)
    release(n->kids[i]);
  free(n);
}

static int parsed_whole = 1;

static node *constant(const char *text) {
  node *c = make(0, 0);
  char *end;
  c->value = strtod(text, &end);
  parsed_whole &= *end == 0;
  return c;
}

static node *variable(const double *v) {
  node *x = make(0, 0);
  x->arity = -1;
  x->bound = v;
  return x;
}

/* f = sin(c1 * x * y) + exp(c2 * y), c1 and c2 parsed from text. */
static double f(double *v, const char *c1, const char *c2, int which) {
  node *x = variable(&v[0]), *y = variable(&v[1]);
  node *p = make(2, (const node *[]){constant(c1), x});
  p->fn2 = mul;
  node *q = make(2, (const node *[]){p, y});
  q->fn2 = mul;
  node *s = make(1, (const node *[]){q});
  s->fn = table[which].fn;
  node *e = make(2, (const node *[]){constant(c2), variable(&v[1])});
  e->fn2 = mul;
  node *t = make(1, (const node *[]){e});
  t->fn = table[1 - which].fn;
  node *r = make(2, (const node *[]){s, t});
  r->fn2 = add;
  double out = eval(r);
  release(r);
  return out;
}

/* The texts, made at run time (a literal would let strtod be folded). */
static char c1[16], c2[16], c3[16], c4[16];

static double fv(double *v) { return f(v, c1, c2, 1); }

int main(void) {
  snprintf(c1, sizeof c1, "%g", 1.5);
  snprintf(c2, sizeof c2, "%g", -0.25);
  snprintf(c3, sizeof c3, "%g", 0.5);
  snprintf(c4, sizeof c4, "%g", 2.0);
  double v[2] = {0.4, 0.9}, d[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, v, d, enzyme_const, c1,
                    enzyme_const, c2, enzyme_const, 1);
  double a = 1.5 * v[0] * v[1];
  CHECK_CLOSE(d[0], cos(a) * 1.5 * v[1], REV_TOL_EXACT);
  CHECK_CLOSE(d[1], cos(a) * 1.5 * v[0] - 0.25 * exp(-0.25 * v[1]),
              REV_TOL_EXACT);
  for (int i = 0; i < 2; ++i) {
    double vi = v[i], h = 1e-6;
    v[i] = vi + h;
    double up = fv(v);
    v[i] = vi - h;
    double down = fv(v);
    v[i] = vi;
    CHECK_CLOSE(d[i], (up - down) / (2 * h), REV_TOL_FD);
    double t[2] = {0, 0};
    t[i] = 1;
    double fd = __enzyme_fwddiff((void *)f, enzyme_dup, v, t, enzyme_const,
                                 c1, enzyme_const, c2, enzyme_const, 1);
    CHECK_CLOSE(fd, d[i], REV_TOL_EXACT);
  }
  /* The other order: exp of the product, sin of the second term. */
  double g[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, v, g, enzyme_const, c3,
                    enzyme_const, c4, enzyme_const, 0);
  double b = 0.5 * v[0] * v[1];
  CHECK_CLOSE(g[0], exp(b) * 0.5 * v[1], REV_TOL_EXACT);
  CHECK_CLOSE(g[1], exp(b) * 0.5 * v[0] + 2 * cos(2 * v[1]), REV_TOL_EXACT);
  CHECK_TRUE(parsed_whole);
  return check_finish();
}
