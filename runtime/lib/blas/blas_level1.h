/*===- blas_level1.h - Rules of dot, axpy, scal, copy, nrm2, asum -------===*
 *
 * Included by blas_ops.h once per element type. In the math, x and y are
 * the vectors as BLAS reads them (element i at adcc_blas_at), x' their
 * tangents, xb their adjoints.
 *
 *===----------------------------------------------------------------------===*/

/*--- dot: r = x . y ----------------------------------------------------===*/
/* r' = x' . y + x . y';  xb += rb y, yb += rb x */

R P(dot_fwd)(const int *n, const R *x, const R *dx, const int *incx,
             const R *y, const R *dy, const int *incy) {
  R t = 0;
  if (dx)
    t += P(vdot)(*n, dx, *incx, y, *incy);
  if (dy)
    t += P(vdot)(*n, x, *incx, dy, *incy);
  return t;
}

void *P(dot_aug)(const int *n, const R *x, const R *dx, const int *incx,
                 const R *y, const R *dy, const int *incy, int stable) {
  int keepx = dy != NULL, keepy = dx != NULL;
  Tape *t = P(tape_new)(NULL,
                        (size_t)(keepx && !(stable & 1) ? *n : 0) +
                            (keepy && !(stable & 2) ? *n : 0),
                        PREFIX "dot");
  t->n = *n;
  t->incx = *incx;
  t->incy = *incy;
  if (keepx)
    t->a = P(keep_vec)(t, *n, x, *incx, stable & 1, &t->ald);
  if (keepy)
    t->b = P(keep_vec)(t, *n, y, *incy, stable & 2, &t->bld);
  return t;
}

void P(dot_rev)(R *dx, R *dy, R rb, void *tape) {
  Tape *t = tape;
  if (dx)
    P(vaxpy)(t->n, rb, t->b, t->bld, dx, t->incx);
  if (dy)
    P(vaxpy)(t->n, rb, t->a, t->ald, dy, t->incy);
  free(t);
}

/*--- axpy: y += a x ----------------------------------------------------===*/
/* y' += a x' + a' x;  ab += x . yb, xb += a yb (yb unchanged) */

void P(axpy_fwd)(const int *n, const R *a, const R *da, const R *x,
                 const R *dx, const int *incx, const R *y, R *dy,
                 const int *incy) {
  (void)y;
  if (!dy)
    return;
  if (dx)
    P(vaxpy)(*n, *a, dx, *incx, dy, *incy);
  if (da && *da != 0)
    P(vaxpy)(*n, *da, x, *incx, dy, *incy);
}

void *P(axpy_aug)(const int *n, const R *a, const R *da, const R *x,
                  const R *dx, const int *incx, const R *y, R *dy,
                  const int *incy, int stable) {
  (void)dx, (void)y;
  int keep = dy && da;
  Tape *t = P(tape_new)(NULL, keep && !(stable & 1) ? (size_t)*n : 0,
                        PREFIX "axpy");
  t->n = *n;
  t->incx = *incx;
  t->incy = *incy;
  t->alpha = *a;
  if (keep)
    t->a = P(keep_vec)(t, *n, x, *incx, stable & 1, &t->ald);
  return t;
}

void P(axpy_rev)(R *da, R *dx, R *dy, void *tape) {
  Tape *t = tape;
  if (dy) {
    if (da)
      *da += P(vdot)(t->n, t->a, t->ald, dy, t->incy);
    if (dx)
      P(vaxpy)(t->n, t->alpha, dy, t->incy, dx, t->incx);
  }
  free(t);
}

/*--- scal: x = a x (nothing for incx <= 0, as BLAS) --------------------===*/
/* x' = a x' + a' x;  ab += x . xb, xb = a xb */

void P(scal_fwd)(const int *n, const R *a, const R *da, const R *x, R *dx,
                 const int *incx) {
  if (!dx || *incx <= 0)
    return;
  P(vscale)(*n, *a, dx, *incx);
  if (da && *da != 0)
    P(vaxpy)(*n, *da, x, *incx, dx, *incx);
}

void *P(scal_aug)(const int *n, const R *a, const R *da, const R *x,
                  const R *dx, const int *incx, int stable) {
  (void)stable; /* (x is the call's output: always copied) */
  int keep = dx && da && *incx > 0;
  Tape *t = P(tape_new)(NULL, keep ? (size_t)*n : 0, PREFIX "scal");
  t->n = *n;
  t->incx = *incx;
  t->alpha = *a;
  if (keep)
    t->a = P(vpack)(*n, x, *incx, P(tape_take)(t, *n));
  return t;
}

void P(scal_rev)(R *da, R *dx, void *tape) {
  Tape *t = tape;
  if (dx && t->incx > 0) {
    if (da)
      *da += P(vdot)(t->n, t->a, 1, dx, t->incx);
    P(vscale)(t->n, t->alpha, dx, t->incx);
  }
  free(t);
}

/*--- copy: y = x -------------------------------------------------------===*/
/* y' = x';  xb += yb, yb = 0 */

void P(copy_fwd)(const int *n, const R *x, const R *dx, const int *incx,
                 const R *y, R *dy, const int *incy) {
  (void)x, (void)y;
  if (!dy)
    return;
  for (int i = 0; i < *n; ++i)
    dy[adcc_blas_at(*n, *incy, i)] =
        dx ? dx[adcc_blas_at(*n, *incx, i)] : 0;
}

void *P(copy_aug)(const int *n, const R *x, const R *dx, const int *incx,
                  const R *y, R *dy, const int *incy, int stable) {
  (void)x, (void)dx, (void)y, (void)dy, (void)stable;
  Tape *t = P(tape_new)(NULL, 0, PREFIX "copy");
  t->n = *n;
  t->incx = *incx;
  t->incy = *incy;
  return t;
}

void P(copy_rev)(R *dx, R *dy, void *tape) {
  Tape *t = tape;
  if (dy) {
    if (dx)
      P(vaxpy)(t->n, 1, dy, t->incy, dx, t->incx);
    P(vscale)(t->n, 0, dy, t->incy);
  }
  free(t);
}

/*--- nrm2: r = sqrt(x . x) ---------------------------------------------===*/
/* r' = x . x' / r;  xb += (rb / r) x; 0 at x = 0, as sqrt's rule */

static double P(norm)(int n, const R *x, int incx) {
  return sqrt((double)P(vdot)(n, x, incx, x, incx));
}

R P(nrm2_fwd)(const int *n, const R *x, const R *dx, const int *incx) {
  if (!dx)
    return 0;
  double r = P(norm)(*n, x, *incx);
  return r == 0 ? 0 : (R)(P(vdot)(*n, x, *incx, dx, *incx) / r);
}

void *P(nrm2_aug)(const int *n, const R *x, const R *dx, const int *incx,
                  int stable) {
  Tape *t = P(tape_new)(NULL, dx && !(stable & 1) ? (size_t)*n : 0,
                        PREFIX "nrm2");
  t->n = *n;
  t->incx = *incx;
  if (dx)
    t->a = P(keep_vec)(t, *n, x, *incx, stable & 1, &t->ald);
  return t;
}

void P(nrm2_rev)(R *dx, R rb, void *tape) {
  Tape *t = tape;
  if (dx) {
    double r = P(norm)(t->n, t->a, t->ald);
    if (r != 0)
      P(vaxpy)(t->n, (R)(rb / r), t->a, t->ald, dx, t->incx);
  }
  free(t);
}

/*--- asum: r = sum |x_i| (0 for incx <= 0, as BLAS) --------------------===*/
/* r' = sum sign(x_i) x'_i;  xb_i += sign(x_i) rb, with fabs's sign:
 * copysign(1, x), +1 at +0 and -1 at -0 (docs/rules.md) */

R P(asum_fwd)(const int *n, const R *x, const R *dx, const int *incx) {
  if (!dx || *incx <= 0)
    return 0;
  double s = 0;
  for (int i = 0; i < *n; ++i) {
    ptrdiff_t at = adcc_blas_at(*n, *incx, i);
    s += copysign(1.0, (double)x[at]) * dx[at];
  }
  return (R)s;
}

void *P(asum_aug)(const int *n, const R *x, const R *dx, const int *incx,
                  int stable) {
  int keep = dx && *incx > 0;
  Tape *t = P(tape_new)(NULL, keep && !(stable & 1) ? (size_t)*n : 0,
                        PREFIX "asum");
  t->n = *n;
  t->incx = *incx;
  if (keep)
    t->a = P(keep_vec)(t, *n, x, *incx, stable & 1, &t->ald);
  return t;
}

void P(asum_rev)(R *dx, R rb, void *tape) {
  Tape *t = tape;
  if (dx && t->incx > 0)
    for (int i = 0; i < t->n; ++i)
      dx[adcc_blas_at(t->n, t->incx, i)] +=
          (R)copysign(1.0, (double)t->a[adcc_blas_at(t->n, t->ald, i)]) * rb;
  free(t);
}
