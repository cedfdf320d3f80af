/*===- blas_vectors.h - Loops over strided vectors and matrices ---------===*
 *
 * Included by blas_ops.h once per element type (R, P(name)): the level-1
 * pieces the rules need, as BLAS indexes vectors (blas_internal.h), and
 * the packing, scaling and inner products of column-major matrices.
 *
 *===----------------------------------------------------------------------===*/

/* x . y */
static R P(vdot)(int n, const R *x, int incx, const R *y, int incy) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (double)x[adcc_blas_at(n, incx, i)] * y[adcc_blas_at(n, incy, i)];
  return (R)s;
}

/* y += a x */
static void P(vaxpy)(int n, R a, const R *x, int incx, R *y, int incy) {
  for (int i = 0; i < n; ++i)
    y[adcc_blas_at(n, incy, i)] += a * x[adcc_blas_at(n, incx, i)];
}

/* x = a x; a = 0 writes zeros (what x held does not matter, as for beta =
 * 0 in BLAS). */
static void P(vscale)(int n, R a, R *x, int incx) {
  if (a == 1)
    return;
  for (int i = 0; i < n; ++i)
    x[adcc_blas_at(n, incx, i)] = a == 0 ? 0 : a * x[adcc_blas_at(n, incx, i)];
}

/* A copy of the vector, contiguous, in \p to. */
static R *P(vpack)(int n, const R *x, int incx, R *to) {
  for (int i = 0; i < n; ++i)
    to[i] = x[adcc_blas_at(n, incx, i)];
  return to;
}

/* A copy of the rows x cols matrix with leading dimension ld, packed with
 * leading dimension rows, in \p to. */
static R *P(mpack)(int rows, int cols, const R *a, int ld, R *to) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      to[(size_t)j * rows + i] = a[(size_t)j * ld + i];
  return to;
}

/* C = b C (b = 0: zeros) */
static void P(mscale)(int rows, int cols, R b, R *c, int ld) {
  if (b == 1)
    return;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      c[(size_t)j * ld + i] = b == 0 ? 0 : b * c[(size_t)j * ld + i];
}

/* Y += a X */
static void P(maxpy)(int rows, int cols, R a, const R *x, int ldx, R *y,
                     int ldy) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      y[(size_t)j * ldy + i] += a * x[(size_t)j * ldx + i];
}

/* sum of X .* Y */
static R P(mdot)(int rows, int cols, const R *x, int ldx, const R *y,
                 int ldy) {
  double s = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      s += (double)x[(size_t)j * ldx + i] * y[(size_t)j * ldy + i];
  return (R)s;
}

static int P(imax1)(int v) { return v > 1 ? v : 1; }
