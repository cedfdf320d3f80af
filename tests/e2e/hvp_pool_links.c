/* Second derivatives of functions that store numbers over a pool block's
 * link (a free list's `void *` in the block's first bytes), differentiated
 * twice. Reverse mode marks the shadow bytes of a pointer's shadow and
 * puts back what they held before a number is stored over them
 * (docs/reverse-mode.md, "Shadows of memory reused"); a reverse sweep
 * differentiated again in forward mode must do the same to their tangent
 * bytes, else the tangent of the link's shadow is read as the tangent of
 * the number's adjoint.
 *
 * Part A is adfuzz version 29 seed 125 reduced
 * (tools/adfuzz/examples/v29_hvp_pool_links.c): a packed link at byte 4,
 * under the first double's exponent; forward over reverse gave a Hessian
 * of 2e167 at -O0 and -6e125 at -O1 (the addresses' bits) for 22.2. Part B
 * has two variables and two blocks, one given back (its link over numbers
 * read before) before the other's numbers are stored and read, and the
 * link at byte 2: the high bits of an address under the first double's
 * exponent, so that its tangent read as a number is never small. Part C
 * takes the blocks from the caller's pool, which keeps its links (and
 * their shadows and tangents) from call to call. Parts A and B check each
 * Hessian against its closed form, central differences of the
 * reverse-mode gradient, forward over forward, reverse over forward,
 * reverse over reverse and forward over split reverse mode; part C forward
 * over reverse and reverse over reverse against the closed form, the
 * latter on fresh pools (rr_pool_links_kept.c keeps them from call to
 * call and checks their free lists). */
#include "pool_links.h"

void __enzyme_fwddiff_void(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define TOL_FD 1e-6

struct __attribute__((packed)) lnk4 {
  unsigned tag;
  void *next;
};

/* ---- A: the packed link at byte 4 ---- */

static void pool4_init(struct pool *pl) {
  pl->head = 0;
  for (int i = 3; i >= 0; i--) {
    ((struct lnk4 *)pl->mem[i])->next = pl->head;
    pl->head = pl->mem[i];
  }
}
static void *take4(struct pool *pl) {
  void *b = pl->head;
  pl->head = ((struct lnk4 *)b)->next;
  return b;
}
static void give4(struct pool *pl, void *b) {
  ((struct lnk4 *)b)->next = pl->head;
  pl->head = b;
}

/* x^3 + 9 x^2 */
static double fa(double x) {
  struct pool pl;
  pool4_init(&pl);
  void *b = take4(&pl);
  double *d = (double *)b;
  d[0] = x * x;
  d[1] = 3 * x;
  double t = d[0] * x + d[1] * d[1];
  give4(&pl, b);
  return t;
}
static double grad_a(double x) { return __enzyme_autodiff((void *)fa, x); }
static double tan_a(double x) { return __enzyme_fwddiff((void *)fa, x, 1.0); }
static void out_a(const double *x, double *out) { *out = fa(*x); }
/* the gradient by split mode */
static double split_a(double x) {
  double xs = x, dx = 0, out = 0, dout = 0;
  void *tape = __enzyme_augmentfwd((void *)out_a, enzyme_dup, &xs, &dx,
                                   enzyme_dup, &out, &dout);
  dout = 1;
  __enzyme_reverse((void *)out_a, enzyme_dup, &xs, &dx, enzyme_dup, &out, &dout,
                   tape);
  return dx;
}

static double grad_a_at(const double *v) { return grad_a(v[0]); }

static void check_part_a(void) {
  const double points[] = {0.7, -1.3, 2.1};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; ++p) {
    double x = points[p], exact = 6 * x + 18;
    CHECK_CLOSE(grad_a(x), 3 * x * x + 18 * x, REV_TOL_EXACT);
    double v[1] = {x};
    double fd = fd_partial(grad_a_at, v, 0);
    CHECK_CLOSE(fd, exact, TOL_FD);
    double fwd_rev = __enzyme_fwddiff((void *)grad_a, x, 1.0);
    CHECK_CLOSE(fwd_rev, exact, REV_TOL_EXACT);
    double fwd_fwd = __enzyme_fwddiff((void *)tan_a, x, 1.0);
    CHECK_CLOSE(fwd_fwd, exact, REV_TOL_EXACT);
    double rev_fwd = __enzyme_autodiff((void *)tan_a, x);
    CHECK_CLOSE(rev_fwd, exact, REV_TOL_EXACT);
    double rev_rev = __enzyme_autodiff((void *)grad_a, x);
    CHECK_CLOSE(rev_rev, exact, REV_TOL_EXACT);
    CHECK_CLOSE(split_a(x), 3 * x * x + 18 * x, REV_TOL_EXACT);
    double fwd_split = __enzyme_fwddiff((void *)split_a, x, 1.0);
    CHECK_CLOSE(fwd_split, exact, REV_TOL_EXACT);
  }
}

/* ---- B: two variables, two blocks, the link at byte 2 ---- */

/* (pool2_init, take2 and give2: pool_links.h) */

/* g = x y sin x + y^3, h = x cos y, f = g (x + y) + h^2 */
static double fb(double x, double y) {
  struct pool pl;
  pool2_init(&pl);
  double *d1 = (double *)take2(&pl);
  double *d2 = (double *)take2(&pl);
  d1[0] = x * y;
  d1[1] = sin(x);
  d2[0] = d1[0] * d1[1] + y * y * y;
  give2(&pl, d1); /* its link over d1[0] and d1[1] */
  d2[1] = x * cos(y);
  double t = d2[0] * (x + y) + d2[1] * d2[1];
  give2(&pl, d2);
  return t;
}

static void exact_b(double x, double y, double G[2], double H[2][2]) {
  double s = x + y, g = x * y * sin(x) + y * y * y, h = x * cos(y);
  double gx = y * sin(x) + x * y * cos(x), gy = x * sin(x) + 3 * y * y;
  double gxx = 2 * y * cos(x) - x * y * sin(x);
  double gxy = sin(x) + x * cos(x), gyy = 6 * y;
  double hx = cos(y), hy = -x * sin(y), hxy = -sin(y), hyy = -x * cos(y);
  G[0] = gx * s + g + 2 * h * hx;
  G[1] = gy * s + g + 2 * h * hy;
  H[0][0] = gxx * s + 2 * gx + 2 * hx * hx;
  H[0][1] = H[1][0] = gxy * s + gx + gy + 2 * hx * hy + 2 * h * hxy;
  H[1][1] = gyy * s + 2 * gy + 2 * hy * hy + 2 * h * hyy;
}

static double fb_at(const double *v) { return fb(v[0], v[1]); }

static void grad_b(const double *v, double *g) {
  rev_two r = __enzyme_autodiff2((void *)fb, v[0], v[1]);
  g[0] = r.a;
  g[1] = r.b;
}
static double grad_b0(const double *v) {
  double g[2];
  grad_b(v, g);
  return g[0];
}
static double grad_b1(const double *v) {
  double g[2];
  grad_b(v, g);
  return g[1];
}
/* the derivative of fb in the direction w */
static double tan_b(const double *v, const double *w) {
  return __enzyme_fwddiff((void *)fb, v[0], w[0], v[1], w[1]);
}
static void out_b(const double *v, double *out) { *out = fb(v[0], v[1]); }
/* the gradient by split mode */
static void split_b(const double *v, double *g) {
  double out = 0, dout = 0;
  g[0] = g[1] = 0;
  void *tape = __enzyme_augmentfwd((void *)out_b, enzyme_dup, v, g, enzyme_dup,
                                   &out, &dout);
  dout = 1;
  __enzyme_reverse((void *)out_b, enzyme_dup, v, g, enzyme_dup, &out, &dout,
                   tape);
}

static void check_part_b(void) {
  const double points[][2] = {{0.7, -0.4}, {-1.2, 0.9}, {2.3, 1.6}};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; ++p) {
    double v[2] = {points[p][0], points[p][1]}, G[2], H[2][2];
    exact_b(v[0], v[1], G, H);
    double g[2];
    grad_b(v, g);
    CHECK_GRAD(fb_at, v, 2, g, G);
    split_b(v, g);
    CHECK_CLOSE(g[0], G[0], REV_TOL_EXACT);
    CHECK_CLOSE(g[1], G[1], REV_TOL_EXACT);
    CHECK_CLOSE(fd_partial(grad_b0, v, 0), H[0][0], TOL_FD);
    CHECK_CLOSE(fd_partial(grad_b0, v, 1), H[0][1], TOL_FD);
    CHECK_CLOSE(fd_partial(grad_b1, v, 0), H[1][0], TOL_FD);
    CHECK_CLOSE(fd_partial(grad_b1, v, 1), H[1][1], TOL_FD);
    /* reverse over reverse: rows 0 and 1 */
    double r0[2] = {0, 0}, r1[2] = {0, 0};
    __enzyme_autodiff_void((void *)grad_b0, enzyme_dup, v, r0);
    __enzyme_autodiff_void((void *)grad_b1, enzyme_dup, v, r1);
    for (int j = 0; j < 2; ++j) {
      CHECK_CLOSE(r0[j], H[0][j], REV_TOL_EXACT);
      CHECK_CLOSE(r1[j], H[1][j], REV_TOL_EXACT);
    }
    for (int i = 0; i < 2; ++i) {
      double dv[2] = {0, 0}, hg[2] = {0, 0}, rv[2] = {0, 0};
      dv[i] = 1;
      /* forward over reverse: column i */
      __enzyme_fwddiff_void((void *)grad_b, enzyme_dup, v, dv, enzyme_dup, g,
                            hg);
      CHECK_CLOSE(hg[0], H[0][i], REV_TOL_EXACT);
      CHECK_CLOSE(hg[1], H[1][i], REV_TOL_EXACT);
      /* forward over split reverse */
      hg[0] = hg[1] = 0;
      __enzyme_fwddiff_void((void *)split_b, enzyme_dup, v, dv, enzyme_dup, g,
                            hg);
      CHECK_CLOSE(hg[0], H[0][i], REV_TOL_EXACT);
      CHECK_CLOSE(hg[1], H[1][i], REV_TOL_EXACT);
      /* reverse over forward: the gradient of the derivative along e_i */
      __enzyme_autodiff_void((void *)tan_b, enzyme_dup, v, rv, enzyme_const,
                             dv);
      CHECK_CLOSE(rv[0], H[0][i], REV_TOL_EXACT);
      CHECK_CLOSE(rv[1], H[1][i], REV_TOL_EXACT);
      /* forward over forward: e_j' H e_i */
      for (int j = 0; j < 2; ++j) {
        double dw[2] = {0, 0};
        dw[j] = 1;
        double ff = __enzyme_fwddiff((void *)tan_b, enzyme_dup, v, dw,
                                     enzyme_const, dv);
        CHECK_CLOSE(ff, H[j][i], REV_TOL_EXACT);
      }
    }
  }
}

/* ---- C: the caller's pool, kept from call to call ---- */

/* (fc, x^3 + 9 x^2, and grad_c: pool_links.h) */
/* the pool, its shadow, and their tangents: linked alike */
static struct pool pc, dpc, tpc, tdpc;
/* for reverse over reverse: the pool, its shadow, their adjoints */
static struct pool rpc, rdpc, apc, adpc;

static void check_part_c(void) {
  pool2_init(&pc);
  pool2_init(&dpc);
  pool2_init(&tpc);
  pool2_init(&tdpc);
  const double points[] = {0.7, -1.3, 2.1, 0.7};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; ++p) {
    double x = points[p], exact = 6 * x + 18;
    CHECK_CLOSE(grad_c(&pc, &dpc, x), 3 * x * x + 18 * x, REV_TOL_EXACT);
    double h = __enzyme_fwddiff((void *)grad_c, enzyme_dup, &pc, &tpc,
                                enzyme_dup, &dpc, &tdpc, x, 1.0);
    CHECK_CLOSE(h, exact, REV_TOL_EXACT);
    /* reverse over reverse, on fresh pools: adjoints start from zero */
    struct pool *fresh[] = {&rpc, &rdpc, &apc, &adpc};
    for (int k = 0; k < 4; ++k) {
      memset(fresh[k], 0, sizeof(struct pool));
      pool2_init(fresh[k]);
    }
    double hr = __enzyme_autodiff((void *)grad_c, enzyme_dup, &rpc, &apc,
                                  enzyme_dup, &rdpc, &adpc, x);
    CHECK_CLOSE(hr, exact, REV_TOL_EXACT);
  }
}

int main(void) {
  check_part_a();
  check_part_b();
  check_part_c();
  return check_finish();
}
