/* Idiom corpus, C data structures and control flow as C programmers write
 * them: variable-length arrays, a struct with a flexible array member, a
 * linked list built and walked, a binary tree built and evaluated
 * recursively, a stack-machine interpreter over a bytecode table (a switch
 * on the operation), adaptive Simpson quadrature by recursion through a
 * function pointer, Newton's method to a tolerance with a goto loop, Kahan
 * summation; and <math.h> as numerical C uses it: frexp/ldexp, modf, a
 * table lookup by floor, fmod/remainder, hypot, cbrt, expm1, log1p, atan2,
 * erf, tgamma, lgamma, fma, fdim, copysign, trunc, pow, exp2, log2, log10.
 * Both modes, central differences (probe_check.h). No bug found when
 * written (2026-12-06); Quake's inverse square root (a float's bits shifted
 * as an integer) is a located error in both modes, as it should be. */
#include "probe_check.h"
#include <stdlib.h>
#include <string.h>

static double vla(const double *x) {
  int n = 4;
  double a[n], b[2 * n];
  for (int i = 0; i < n; ++i) a[i] = x[i] * x[i];
  for (int i = 0; i < 2 * n; ++i) b[i] = a[i % n] * (i + 1);
  double s = 0;
  for (int i = 0; i < 2 * n; ++i) s += sin(b[i]);
  return s;
}

struct series { int n; double scale; double c[]; };
static struct series *series_new(int n, double scale) {
  struct series *s = malloc(sizeof *s + n * sizeof(double));
  s->n = n; s->scale = scale;
  return s;
}
static double flex(const double *x) {
  struct series *s = series_new(4, x[3]);
  for (int i = 0; i < s->n; ++i) s->c[i] = x[i] / (i + 1);
  double r = 0, t = 1;
  for (int i = 0; i < s->n; ++i) { r += s->c[i] * t; t *= s->scale; }
  free(s);
  return r;
}

struct node { double v; struct node *next; };
static double list(const double *x) {
  struct node *head = NULL;
  for (int i = 0; i < 4; ++i) {
    struct node *nd = malloc(sizeof *nd);
    nd->v = x[i] * (i + 2); nd->next = head; head = nd;
  }
  double s = 0, w = 1;
  for (struct node *p = head; p; p = p->next) { s += w * p->v * p->v; w += 0.5; }
  while (head) { struct node *nx = head->next; free(head); head = nx; }
  return s;
}

struct tree { double v; struct tree *l, *r; };
static struct tree *build(const double *x, int lo, int hi) {
  if (lo >= hi) return NULL;
  int mid = (lo + hi) / 2;
  struct tree *t = malloc(sizeof *t);
  t->v = x[mid];
  t->l = build(x, lo, mid);
  t->r = build(x, mid + 1, hi);
  return t;
}
static double tree_eval(const struct tree *t, int depth) {
  if (!t) return 1.0;
  return t->v * (depth + 1) + tree_eval(t->l, depth + 1) * tree_eval(t->r, depth + 1);
}
static void tree_free(struct tree *t) { if (t) { tree_free(t->l); tree_free(t->r); free(t); } }
static double tree(const double *x) {
  struct tree *t = build(x, 0, 4);
  double r = tree_eval(t, 0);
  tree_free(t);
  return r;
}

enum op { PUSHX, PUSHC, ADD, MUL, SIN, EXP, DUP, SWAP, END };
struct insn { enum op op; int arg; double c; };
static double run(const struct insn *code, const double *x) {
  double st[16]; int sp = 0;
  for (int pc = 0;; ++pc) {
    const struct insn *in = &code[pc];
    switch (in->op) {
    case PUSHX: st[sp++] = x[in->arg]; break;
    case PUSHC: st[sp++] = in->c; break;
    case ADD: sp--; st[sp - 1] += st[sp]; break;
    case MUL: sp--; st[sp - 1] *= st[sp]; break;
    case SIN: st[sp - 1] = sin(st[sp - 1]); break;
    case EXP: st[sp - 1] = exp(st[sp - 1]); break;
    case DUP: st[sp] = st[sp - 1]; sp++; break;
    case SWAP: { double t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; break; }
    case END: return st[sp - 1];
    }
  }
}
static const struct insn program[] = {
  {PUSHX, 0, 0}, {DUP, 0, 0}, {MUL, 0, 0}, {PUSHX, 1, 0}, {SIN, 0, 0}, {ADD, 0, 0},
  {PUSHC, 0, 0.5}, {PUSHX, 2, 0}, {MUL, 0, 0}, {EXP, 0, 0}, {SWAP, 0, 0}, {MUL, 0, 0},
  {PUSHX, 3, 0}, {ADD, 0, 0}, {END, 0, 0}};
static double interp(const double *x) { return run(program, x); }

static double simpson(double (*f)(double, const double *), const double *p, double a,
                      double b, double fa, double fm, double fb, double whole, double eps,
                      int depth) {
  double m = (a + b) / 2, lm = (a + m) / 2, rm = (m + b) / 2;
  double flm = f(lm, p), frm = f(rm, p);
  double left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb);
  if (depth <= 0 || fabs(left + right - whole) <= 15 * eps)
    return left + right + (left + right - whole) / 15;
  return simpson(f, p, a, m, fa, flm, fm, left, eps / 2, depth - 1) +
         simpson(f, p, m, b, fm, frm, fb, right, eps / 2, depth - 1);
}
static double integrand(double t, const double *p) { return exp(-p[0] * t * t) * cos(p[1] * t); }
static double quad(const double *x) {
  double a = 0, b = x[2], fa = integrand(a, x), fb = integrand(b, x), fm = integrand(b / 2, x);
  return simpson(integrand, x, a, b, fa, fm, fb, b / 6 * (fa + 4 * fm + fb), 1e-9, 8) * x[3];
}

static double newton(const double *x) {
  /* the root of y^3 + x0 y - x1 = 0 by Newton's method to a tolerance */
  double y = 1.0;
  int it = 0;
again:
  {
    double f = y * y * y + x[0] * y - x[1], df = 3 * y * y + x[0];
    double step = f / df;
    y -= step;
    if (fabs(step) > 1e-14 && ++it < 100) goto again;
  }
  return y * x[2] + x[3];
}

static double kahan(const double *x) {
  double s = 0, c = 0;
  for (int i = 0; i < 64; ++i) {
    double term = x[i % 4] * x[(i + 1) % 4] / (i + 1);
    double y = term - c, t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

static double frex(const double *x) {
  int e; double m = frexp(x[0] * 3.0, &e);
  return ldexp(m * m, e) + modf(x[1] * 2.5, &(double){0}) ;
}
static const double tab[9] = {0, 0.8, 1.5, 2.1, 2.6, 3.0, 3.3, 3.5, 3.6};
static double lerp_table(const double *x) {
  double t = x[0] * 4.0; int i = (int)floor(t); double f = t - i;
  if (i < 0) i = 0; if (i > 7) i = 7;
  return (tab[i] * (1 - f) + tab[i + 1] * f) * x[1];
}
static double fm(const double *x) { return fmod(x[0] * 7.0, 2.0) * x[1] + remainder(x[1] * 5, 3.0); }
static double hyp(const double *x) { return hypot(x[0], x[1]) + cbrt(x[0] * x[1]) + expm1(x[0]) * log1p(x[1]) + atan2(x[1], x[0]) + erf(x[0]) + tgamma(x[1] + 2) + lgamma(x[1] + 2); }
static double fmaa(const double *x) { return fma(x[0], x[1], x[0]) + fdim(x[0], x[1]) + copysign(x[0], -1.0) + trunc(x[1]) * x[0] + pow(x[0], 2.5) + exp2(x[1]) + log2(x[0]) + log10(x[1]); }
int main(void) {
  PROBE(vla, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(flex, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(list, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(tree, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(interp, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(quad, 4, 0.8, 1.3, 1.5, 0.4);
  PROBE(newton, 4, 0.8, 1.3, 1.5, 0.4);
  PROBE(kahan, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(frex, 2, 0.3, 0.7);
  PROBE(lerp_table, 2, 0.3, 0.7);
  PROBE(fm, 2, 0.3, 0.7);
  PROBE(hyp, 2, 0.3, 0.7);
  PROBE(fmaa, 2, 0.3, 0.7);
  return check_finish();
}
