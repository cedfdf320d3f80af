/*===- blas_syrk.h - Rules of syrk --------------------------------------===*
 *
 * Included by blas_ops.h once per element type, after blas_level23.h.
 *
 * syrk: C = alpha op(A) op(A)^T + beta C on one triangle of C (n x n);
 * op(A) is n x k. With G the adjoint of that triangle (zero elsewhere):
 * C' = alpha (op(A') op(A)^T + op(A) op(A')^T) + alpha' op(A) op(A)^T
 *      + beta C' + beta' C on the triangle;
 * op(A)b += alpha (G + G^T) op(A), alphab += <G, op(A) op(A)^T>,
 * betab += <G, C>, G = beta G (the other triangle's adjoint is untouched:
 * the call does not write it).
 * In the tape: n, k, ta (the op), tb (the triangle), lda, ldc, alpha,
 * beta; a = A, c = C. A row-major call is the column-major one with the
 * other triangle and the other op.
 *
 *===----------------------------------------------------------------------===*/

static void P(syrk)(char uplo, char t, int n, int k, R alpha, const R *a,
                    int lda, R beta, R *c, int ldc) {
  F(syrk)(&uplo, &t, &n, &k, &alpha, a, &lda, &beta, c, &ldc, 1, 1);
}

/* The rows [*lo, *hi) of column j in the triangle \p uplo. */
static void P(tri_rows)(char uplo, int n, int j, int *lo, int *hi) {
  *lo = uplo == 'U' ? 0 : j;
  *hi = uplo == 'U' ? j + 1 : n;
}

/* C = b C on the triangle (b = 0: zeros) */
static void P(tri_scale)(char uplo, int n, R b, R *c, int ldc) {
  for (int j = 0; j < n; ++j) {
    int lo, hi;
    P(tri_rows)(uplo, n, j, &lo, &hi);
    P(mscale)(hi - lo, 1, b, c + (size_t)j * ldc + lo, ldc);
  }
}

/* The sum of X .* Y over the triangle. */
static R P(tri_dot)(char uplo, int n, const R *x, int ldx, const R *y,
                    int ldy) {
  double s = 0;
  for (int j = 0; j < n; ++j) {
    int lo, hi;
    P(tri_rows)(uplo, n, j, &lo, &hi);
    s += P(mdot)(hi - lo, 1, x + (size_t)j * ldx + lo, ldx,
                 y + (size_t)j * ldy + lo, ldy);
  }
  return (R)s;
}

static Tape P(syrk_read)(const int *layout, const void *uplo,
                         const void *trans, const int *n, const int *k,
                         const R *alpha, const int *lda, const R *beta,
                         const int *ldc) {
  Tape h = {0};
  h.row = adcc_blas_row_major(layout);
  h.tb = adcc_blas_uplo(layout, uplo); /* (flipped for row-major) */
  h.ta = adcc_blas_trans(layout, trans);
  if (h.row)
    h.ta = adcc_blas_flip(h.ta);
  h.n = *n;
  h.k = *k;
  h.lda = *lda;
  h.ldc = *ldc;
  h.alpha = *alpha;
  h.beta = *beta;
  return h;
}

#define SYRK_PARAMS                                                            \
  const int *layout, const void *uplo, const void *trans, const int *n,        \
      const int *k, const R *alpha, const R *dalpha, const R *A,               \
      const R *dA, const int *lda, const R *beta, const R *dbeta, const R *C,  \
      R *dC, const int *ldc

void P(syrk_fwd)(SYRK_PARAMS) {
  if (!dC)
    return;
  Tape h = P(syrk_read)(layout, uplo, trans, n, k, alpha, lda, beta, ldc);
  R b = h.beta;
  if (dA) {
    F(syr2k)(&h.tb, &h.ta, &h.n, &h.k, &h.alpha, dA, &h.lda, A, &h.lda, &b, dC,
             &h.ldc, 1, 1);
    b = 1;
  }
  if (dalpha && *dalpha != 0) {
    P(syrk)(h.tb, h.ta, h.n, h.k, *dalpha, A, h.lda, b, dC, h.ldc);
    b = 1;
  }
  P(tri_scale)(h.tb, h.n, b, dC, h.ldc);
  if (dbeta && *dbeta != 0 && h.beta != 0)
    for (int j = 0; j < h.n; ++j) {
      int lo, hi;
      P(tri_rows)(h.tb, h.n, j, &lo, &hi);
      P(maxpy)(hi - lo, 1, *dbeta, C + (size_t)j * h.ldc + lo, h.ldc,
               dC + (size_t)j * h.ldc + lo, h.ldc);
    }
}

void *P(syrk_aug)(SYRK_PARAMS, int stable) {
  Tape h = P(syrk_read)(layout, uplo, trans, n, k, alpha, lda, beta, ldc);
  int rows = h.ta == 'N' ? h.n : h.k, cols = h.ta == 'N' ? h.k : h.n;
  int keepA = dC && (dA || dalpha);
  int keepC = dC && dbeta && h.beta != 0; /* (C: the output, copied) */
  Tape *t = P(tape_new)(&h,
                        (keepA && !(stable & 1) ? (size_t)rows * cols : 0) +
                            (keepC ? (size_t)h.n * h.n : 0),
                        PREFIX "syrk");
  if (keepA)
    t->a = P(keep_mat)(t, rows, cols, A, h.lda, stable & 1, &t->ald);
  if (keepC)
    t->c = P(keep_mat)(t, h.n, h.n, C, h.ldc, 0, &t->cld);
  return t;
}

void P(syrk_rev)(R *dalpha, R *dA, R *dbeta, R *dC, void *tape) {
  Tape *t = tape;
  int n = t->n, ldn = P(imax1)(n);
  if (!dC) {
    free(t);
    return;
  }
  R *s = adcc_blas_alloc((size_t)ldn * ldn * sizeof(R), PREFIX "syrk");
  if (dA) { /* s = G + G^T */
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        s[(size_t)j * ldn + i] = 0;
    for (int j = 0; j < n; ++j) {
      int lo, hi;
      P(tri_rows)(t->tb, n, j, &lo, &hi);
      for (int i = lo; i < hi; ++i) {
        R g = dC[(size_t)j * t->ldc + i];
        s[(size_t)j * ldn + i] += g;
        s[(size_t)i * ldn + j] += g;
      }
    }
    if (t->ta == 'N') /* A (n x k) += alpha s A */
      P(gemm)('N', 'N', n, t->k, n, t->alpha, s, ldn, t->a, t->ald, 1, dA,
              t->lda);
    else /* A (k x n) += alpha A s */
      P(gemm)('N', 'N', t->k, n, n, t->alpha, t->a, t->ald, s, ldn, 1, dA,
              t->lda);
  }
  if (dalpha) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        s[(size_t)j * ldn + i] = 0;
    P(syrk)(t->tb, t->ta, n, t->k, 1, t->a, t->ald, 0, s, ldn);
    *dalpha += P(tri_dot)(t->tb, n, s, ldn, dC, t->ldc);
  }
  free(s);
  if (dbeta && t->c)
    *dbeta += P(tri_dot)(t->tb, n, t->c, t->cld, dC, t->ldc);
  P(tri_scale)(t->tb, n, t->beta, dC, t->ldc);
  free(t);
}
