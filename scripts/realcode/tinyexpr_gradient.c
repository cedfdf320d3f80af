/* Derivatives through tinyexpr (github.com/codeplea/tinyexpr, tinyexpr.c
 * compiled unchanged on its own and linked; the derivatives of its
 * functions are made at link time). te_compile parses an expression into a
 * tree of nodes (malloc'd, a union of a constant, a bound variable's
 * address and a function pointer in each), te_eval evaluates it
 * recursively, calling libm and its own functions through the table's
 * function pointers, and closures with their context pointers. The
 * variables x, y, z are bound by address (te_variable); derivatives with
 * respect to them:
 *
 *  1. "inside": te_compile, te_eval and te_free in the differentiated
 *     function, the variables' addresses duplicated;
 *  2. "tree": the tree compiled outside and passed with a shadow tree, the
 *     same expression compiled with the shadows' addresses and its
 *     constants zeroed (as an Enzyme user makes the shadow of a structure);
 *
 * for expressions that call every function of tinyexpr's table, its
 * operators, user functions of 1 to 7 arguments and closures (one whose
 * context points at an active number), and a long generated sum; reverse
 * mode against central differences (fourth order) and, for some, the
 * analytic gradient; forward mode against reverse mode. Run by
 * tinyexpr.sh. */
#include "tinyexpr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int failures = 0, checks = 0;

static void check(const char *what, const char *src, int i, double got,
                  double want, double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%s] (d/d%c): %.15g, expected %.15g  FAIL\n", what, src,
           "xyz"[i], got, want);
    ++failures;
  }
}

/* ---- user functions and closures --------------------------------------- */

static double lerp(double a, double b, double t) { return a + (b - a) * t; }
static double sum7(double a, double b, double c, double d, double e, double f,
                   double g) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}
static double hypot2(double a, double b) { return sqrt(a * a + b * b); }
/* The closures' context: the first number active (a variable's address),
   the second a constant. */
static double wsum(void *ctx, double a, double b) {
  return *(double *)ctx * a + b;
}
static double scaled(void *ctx, double a) { return *(double *)ctx * a; }
static double param(void *ctx) { return *(double *)ctx; }
static double mix4(void *ctx, double a, double b, double c, double d) {
  const double *k = ctx;
  return k[0] * a * b + c / d;
}

/* One user function and one closure of every arity tinyexpr calls (0 to 7
   arguments): f<k> = sum_i (i+1) a_i^2 / 2 + 1, c<k> = ctx[0] * f<k>. */
static double f0(void) { return 1; }
static double f1(double a) { return a * a / 2 + 1; }
static double f2(double a, double b) { return f1(a) + b * b; }
static double f4(double a, double b, double c, double d) {
  return f2(a, b) + 1.5 * c * c + 2 * d * d;
}
static double f5(double a, double b, double c, double d, double e) {
  return f4(a, b, c, d) + 2.5 * e * e;
}
static double f6(double a, double b, double c, double d, double e, double f) {
  return f5(a, b, c, d, e) + 3 * f * f;
}
static double c3(void *k, double a, double b, double c) {
  return *(double *)k * (f2(a, b) + 1.5 * c * c);
}
static double c5(void *k, double a, double b, double c, double d, double e) {
  return *(double *)k * f5(a, b, c, d, e);
}
static double c6(void *k, double a, double b, double c, double d, double e,
                 double f) {
  return *(double *)k * f6(a, b, c, d, e, f);
}
static double c7(void *k, double a, double b, double c, double d, double e,
                 double f, double g) {
  return *(double *)k * (f6(a, b, c, d, e, f) + 3.5 * g * g);
}

static const double three = 3.0;
static const double mixk[1] = {0.5};

/* The variables x, y, z bound to v[0..2], closures whose context is v[2]
   (active) or a constant. */
static int bind(te_variable *vars, double *v, const double *k3,
                const double *k) {
  te_variable t[] = {
      {"x", &v[0], TE_VARIABLE, 0},
      {"y", &v[1], TE_VARIABLE, 0},
      {"z", &v[2], TE_VARIABLE, 0},
      {"lerp", lerp, TE_FUNCTION3 | TE_FLAG_PURE, 0},
      {"sum7", sum7, TE_FUNCTION7 | TE_FLAG_PURE, 0},
      {"hyp", hypot2, TE_FUNCTION2 | TE_FLAG_PURE, 0},
      {"wsum", wsum, TE_CLOSURE2, &v[2]},
      {"triple", scaled, TE_CLOSURE1 | TE_FLAG_PURE, (void *)k3},
      {"zc", param, TE_CLOSURE0, &v[2]},
      {"mix", mix4, TE_CLOSURE4, (void *)k},
      {"fz", f0, TE_FUNCTION0, 0},
      {"fa", f1, TE_FUNCTION1, 0},
      {"fb", f2, TE_FUNCTION2 | TE_FLAG_PURE, 0},
      {"fd", f4, TE_FUNCTION4 | TE_FLAG_PURE, 0},
      {"fe", f5, TE_FUNCTION5 | TE_FLAG_PURE, 0},
      {"ff", f6, TE_FUNCTION6, 0},
      {"cc", c3, TE_CLOSURE3, &v[2]},
      {"ce", c5, TE_CLOSURE5 | TE_FLAG_PURE, (void *)k3},
      {"cf", c6, TE_CLOSURE6, &v[0]},
      {"cg", c7, TE_CLOSURE7, (void *)k3},
  };
  memcpy(vars, t, sizeof t);
  return (int)(sizeof t / sizeof *t);
}

/* ---- the differentiated functions -------------------------------------- */

/* 1. Compile, evaluate and free inside. */
static double eval_inside(const char *src, double *v) {
  te_variable vars[20];
  int n = bind(vars, v, &three, mixk), err = 0;
  te_expr *e = te_compile(src, vars, n, &err);
  if (!e)
    return NAN;
  double r = te_eval(e);
  te_free(e);
  return r;
}

/* 2. A tree made outside (its shadow too). */
static double eval_tree(const te_expr *e) { return te_eval(e); }

/* ---- the shadow of a tree ---------------------------------------------- */

/* Zeroes the constants of the shadow tree \p d (the same shape as the
   primal tree, which a te_expr's type gives). */
static void zero_constants(te_expr *d) {
  int type = d->type & 0x1F;
  if (type == 1) { /* tinyexpr.c's TE_CONSTANT */
    d->value = 0;
    return;
  }
  int arity = (type & (TE_FUNCTION0 | TE_CLOSURE0)) ? (type & 7) : 0;
  for (int i = 0; i < arity; ++i)
    zero_constants(d->parameters[i]);
}

static double zero_k3 = 0, zero_k[1] = {0};

/* The shadow of the tree of \p src: compiled against \p dv (the
   closures' contexts their shadows: the shadow of v[2], or a zero for a
   constant context), its constants zeroed. */
static te_expr *shadow_tree(const char *src, double *dv) {
  /* (A reverse derivative adds the constants' adjoints there.) */
  zero_k3 = 0;
  zero_k[0] = 0;
  te_variable vars[20];
  int n = bind(vars, dv, &zero_k3, zero_k);
  te_expr *d = te_compile(src, vars, n, 0);
  zero_constants(d);
  return d;
}

/* ---- the cases --------------------------------------------------------- */

typedef void (*analytic_fn)(const double *v, double *g);

/* sin(x)^2 + exp(y*x) / sqrt(1+y^2) + atan2(x,y) */
static void analytic_main(const double *v, double *g) {
  double x = v[0], y = v[1], s = sqrt(1 + y * y), ex = exp(y * x);
  double r2 = x * x + y * y;
  g[0] = 2 * sin(x) * cos(x) + y * ex / s + y / r2;
  g[1] = x * ex / s - ex * y / (s * s * s) - x / r2;
  g[2] = 0;
}

/* lerp(x, y, z/2) + wsum(x, y) + triple(y) + zc + hyp(x, z)
   + sum7(x, y, z, x*y, y*z, z*x, 1) + mix(x, y, z, 2)
   with wsum(a,b) = z a + b, triple(a) = 3 a, zc = z, mix = 0.5 a b + c/d. */
static void analytic_user(const double *v, double *g) {
  double x = v[0], y = v[1], z = v[2], h = sqrt(x * x + z * z);
  g[0] = (1 - z / 2) + z + x / h + (1 + 4 * y + 6 * z) + 0.5 * y;
  g[1] = z / 2 + 1 + 3 + (2 + 4 * x + 5 * z) + 0.5 * x;
  g[2] = (y - x) / 2 + x + 1 + z / h + (3 + 5 * y + 6 * x) + 0.5;
}

/* sum_{k=1}^{K} sin(k*x + y/k) * z */
#define LONG_TERMS 60
static void analytic_long(const double *v, double *g) {
  g[0] = g[1] = g[2] = 0;
  for (int k = 1; k <= LONG_TERMS; ++k) {
    double a = k * v[0] + v[1] / k;
    g[0] += k * cos(a) * v[2];
    g[1] += cos(a) / k * v[2];
    g[2] += sin(a);
  }
}

struct expr_case {
  const char *src;
  analytic_fn analytic;
};

static char long_src[LONG_TERMS * 32];

static const struct expr_case cases[] = {
    {"sin(x)^2 + exp(y*x) / sqrt(1+y^2) + atan2(x,y)", analytic_main},
    {"abs(x-y)*cos(z) + acos(x)*asin(y) + atan(z)", 0},
    {"ceil(z)*x + floor(z)*y + cosh(x)*sinh(y) + tanh(z)", 0},
    {"e^x + pi*y + exp(-z) + e()*pi()", 0},
    {"ln(x) + log(y) + log10(z) + ln(x*y*z)", 0},
    {"fac(4)*x + ncr(6,2)*y + npr(5,2)*z + fac(z+2)*x + ncr(z+5,2)*y", 0},
    {"pow(x,y) + x^z + z^-y + -x^2 + 2^x^y", 0},
    {"sqrt(x*y+z) + tan(x) + x%y + z%x + (x+z)%(y+1)", 0},
    {"-x + +y - -z, x*y, x/y*z", 0},
    {"lerp(x, y, z/2) + wsum(x, y) + triple(y) + zc + hyp(x, z)"
     " + sum7(x, y, z, x*y, y*z, z*x, 1) + mix(x, y, z, 2)",
     analytic_user},
    {"fz + fa(x) + fb(x, y) + fd(x, y, z, 1) + fe(1, 2, x, y, z)"
     " + ff(x, y, z, x, y, z) + cc(x, y, 2) + ce(z, 1, y, x, 2)"
     " + cf(x, y, z, 1, 2, 3) + cg(x, 1, y, 2, z, 3, x*y) + fb(1, 2)",
     0},
    {"sin(cos(tan(x*0.3)))*exp(sin(y)) / (1 + z^2) - atan2(-y, -z)", 0},
    {"x*y*z / (x + y + z) + abs(-z) * cosh(-x) - sinh(y - z)", 0},
    {"abs(x - y) + 2*(z*x) - triple(triple(x)) + wsum(wsum(x,y), zc)", 0},
    {long_src, analytic_long},
};

/* f'(v_i) by fourth-order central differences of eval_inside. */
static double differences(const char *src, double *v, int i) {
  double vi = v[i], h = 1e-4 * (1 + fabs(vi)), f[4];
  static const double steps[4] = {-2, -1, 1, 2};
  for (int s = 0; s < 4; ++s) {
    v[i] = vi + steps[s] * h;
    f[s] = eval_inside(src, v);
  }
  v[i] = vi;
  return (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
}

static void run_case(const struct expr_case *c, const double *point,
                     const char *mode) {
  double v[3], dv[3] = {0, 0, 0}, g[3], want[3];
  memcpy(v, point, sizeof v);
  int inside = !strcmp(mode, "inside");
  te_expr *tree = 0, *dtree = 0;
  char what[64];
  if (inside) {
    __enzyme_autodiff((void *)eval_inside, enzyme_const, c->src, enzyme_dup, v,
                      dv);
  } else {
    te_variable vars[20];
    int n = bind(vars, v, &three, mixk);
    tree = te_compile(c->src, vars, n, 0);
    dtree = shadow_tree(c->src, dv);
    __enzyme_autodiff((void *)eval_tree, enzyme_dup, tree, dtree);
  }
  memcpy(g, dv, sizeof g);
  for (int i = 0; i < 3; ++i) {
    snprintf(what, sizeof what, "%s reverse vs differences", mode);
    check(what, c->src, i, g[i], differences(c->src, v, i), 1e-6);
  }
  if (c->analytic) {
    c->analytic(v, want);
    snprintf(what, sizeof what, "%s reverse vs analytic", mode);
    for (int i = 0; i < 3; ++i)
      check(what, c->src, i, g[i], want[i], 1e-11);
  }
  for (int i = 0; i < 3; ++i) {
    double t[3] = {0, 0, 0}, fd;
    t[i] = 1;
    if (inside) {
      fd = __enzyme_fwddiff((void *)eval_inside, enzyme_const, c->src,
                            enzyme_dup, v, t);
    } else {
      te_free(dtree);
      dtree = shadow_tree(c->src, t);
      fd = __enzyme_fwddiff((void *)eval_tree, enzyme_dup, tree, dtree);
    }
    snprintf(what, sizeof what, "%s forward vs reverse", mode);
    check(what, c->src, i, fd, g[i], 1e-11);
  }
  if (!inside) {
    /* The primal through the tree agrees with the one compiled inside. */
    snprintf(what, sizeof what, "%s value", mode);
    check(what, c->src, 0, eval_tree(tree), eval_inside(c->src, v), 0);
    te_free(tree);
    te_free(dtree);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "inside";
  if (strcmp(mode, "inside") && strcmp(mode, "tree")) {
    fprintf(stderr, "usage: %s [inside|tree] [EXPRESSION]\n", argv[0]);
    return 2;
  }
  char *p = long_src;
  for (int k = 1; k <= LONG_TERMS; ++k)
    p += sprintf(p, "%ssin(%d*x + y/%d)*z", k > 1 ? " + " : "", k, k);
  if (argc > 2) { /* one expression of the caller's */
    struct expr_case one = {argv[2], 0};
    run_case(&one, (const double[]){0.37, 0.61, 1.3}, mode);
    printf("tinyexpr (%s): %d checks, %d failures\n", mode, checks, failures);
    return failures != 0;
  }
  static const double points[][3] = {
      {0.37, 0.61, 1.3}, {-0.42, 0.25, 2.7}, {0.8, -0.55, 0.45}};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; ++c)
    for (unsigned q = 0; q < sizeof points / sizeof *points; ++q) {
      /* ln and the logs need positive arguments, ncr and fac z + 2 >= 0. */
      int positive = points[q][0] > 0 && points[q][1] > 0;
      if (!positive && (strstr(cases[c].src, "ln(") ||
                        strstr(cases[c].src, "pow(x,y)")))
        continue;
      run_case(&cases[c], points[q], mode);
    }
  printf("tinyexpr (%s): %d checks, %d failures\n", mode, checks, failures);
  return failures != 0;
}
