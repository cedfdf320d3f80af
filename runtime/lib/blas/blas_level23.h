/*===- blas_level23.h - Rules of gemv, ger and gemm ---------------------===*
 *
 * Included by blas_ops.h once per element type. Each call is first read as
 * a column-major one (a row-major call is the column-major call on the
 * transposes); op(A) is A or its transpose as the call says. The
 * derivative terms are BLAS calls of the program's library; the first
 * term of an output's tangent applies beta, the others add to it.
 *
 *===----------------------------------------------------------------------===*/

static void P(gemv)(char t, int m, int n, R alpha, const R *a, int lda,
                    const R *x, int incx, R beta, R *y, int incy) {
  F(gemv)(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
}

static void P(gemm)(char ta, char tb, int m, int n, int k, R alpha,
                    const R *a, int lda, const R *b, int ldb, R beta, R *c,
                    int ldc) {
  F(gemm)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}

static void P(ger)(int m, int n, R alpha, const R *x, int incx, const R *y,
                   int incy, R *a, int lda) {
  F(ger)(&m, &n, &alpha, x, &incx, y, &incy, a, &lda);
}

/*--- gemv: y = alpha op(A) x + beta y ----------------------------------===*/
/* y' = alpha op(A') x + alpha op(A) x' + alpha' op(A) x + beta y'
 *      + beta' y;
 * Ab += alpha yb x^T (op = N) or alpha x yb^T (op = T),
 * xb += alpha op(A)^T yb, alphab += yb . op(A) x, betab += yb . y,
 * yb = beta yb.
 * In the tape: m, n are A's rows and columns, ta the op, lda, incx, incy. */

static Tape P(gemv_read)(const int *layout, const void *trans, const int *m,
                         const int *n, const R *alpha, const int *lda,
                         const int *incx, const R *beta, const int *incy) {
  Tape h = {0};
  int row = adcc_blas_row_major(layout);
  h.ta = adcc_blas_trans(layout, trans);
  h.m = row ? *n : *m;
  h.n = row ? *m : *n;
  if (row)
    h.ta = adcc_blas_flip(h.ta);
  h.lda = *lda;
  h.incx = *incx;
  h.incy = *incy;
  h.alpha = *alpha;
  h.beta = *beta;
  return h;
}

#define GEMV_PARAMS                                                            \
  const int *layout, const void *trans, const int *m, const int *n,            \
      const R *alpha, const R *dalpha, const R *A, const R *dA,                \
      const int *lda, const R *x, const R *dx, const int *incx,                \
      const R *beta, const R *dbeta, const R *y, R *dy, const int *incy

void P(gemv_fwd)(GEMV_PARAMS) {
  if (!dy)
    return;
  Tape h = P(gemv_read)(layout, trans, m, n, alpha, lda, incx, beta, incy);
  int leny = h.ta == 'N' ? h.m : h.n;
  R b = h.beta;
  if (dA) {
    P(gemv)(h.ta, h.m, h.n, h.alpha, dA, h.lda, x, h.incx, b, dy, h.incy);
    b = 1;
  }
  if (dx) {
    P(gemv)(h.ta, h.m, h.n, h.alpha, A, h.lda, dx, h.incx, b, dy, h.incy);
    b = 1;
  }
  if (dalpha && *dalpha != 0) {
    P(gemv)(h.ta, h.m, h.n, *dalpha, A, h.lda, x, h.incx, b, dy, h.incy);
    b = 1;
  }
  P(vscale)(leny, b, dy, h.incy);
  if (dbeta && *dbeta != 0 && h.beta != 0)
    P(vaxpy)(leny, *dbeta, y, h.incy, dy, h.incy);
}

void *P(gemv_aug)(GEMV_PARAMS, int stable) {
  Tape h = P(gemv_read)(layout, trans, m, n, alpha, lda, incx, beta, incy);
  int lenx = h.ta == 'N' ? h.n : h.m, leny = h.ta == 'N' ? h.m : h.n;
  int keepA = dy && (dx || dalpha), keepx = dy && (dA || dalpha);
  int keepy = dy && dbeta && h.beta != 0; /* (y: the output, copied) */
  size_t size = (keepA && !(stable & 1) ? (size_t)h.m * h.n : 0) +
                (keepx && !(stable & 2) ? (size_t)lenx : 0) +
                (keepy ? (size_t)leny : 0);
  Tape *t = P(tape_new)(&h, size, PREFIX "gemv");
  if (keepA)
    t->a = P(keep_mat)(t, h.m, h.n, A, h.lda, stable & 1, &t->ald);
  if (keepx)
    t->b = P(keep_vec)(t, lenx, x, h.incx, stable & 2, &t->bld);
  if (keepy)
    t->c = P(keep_vec)(t, leny, y, h.incy, 0, &t->cld);
  return t;
}

void P(gemv_rev)(R *dalpha, R *dA, R *dx, R *dbeta, R *dy, void *tape) {
  Tape *t = tape;
  if (!dy) {
    free(t);
    return;
  }
  int leny = t->ta == 'N' ? t->m : t->n;
  if (dA) {
    if (t->ta == 'N')
      P(ger)(t->m, t->n, t->alpha, dy, t->incy, t->b, t->bld, dA, t->lda);
    else
      P(ger)(t->m, t->n, t->alpha, t->b, t->bld, dy, t->incy, dA, t->lda);
  }
  if (dx)
    P(gemv)(adcc_blas_flip(t->ta), t->m, t->n, t->alpha, t->a, t->ald, dy,
            t->incy, 1, dx, t->incx);
  if (dalpha) {
    R *ax = adcc_blas_alloc((size_t)leny * sizeof(R), PREFIX "gemv");
    P(gemv)(t->ta, t->m, t->n, 1, t->a, t->ald, t->b, t->bld, 0, ax, 1);
    *dalpha += P(vdot)(leny, ax, 1, dy, t->incy);
    free(ax);
  }
  if (dbeta && t->c)
    *dbeta += P(vdot)(leny, t->c, 1, dy, t->incy);
  P(vscale)(leny, t->beta, dy, t->incy);
  free(t);
}

/*--- ger: A += alpha x y^T ---------------------------------------------===*/
/* A' += alpha x' y^T + alpha x y'^T + alpha' x y^T;
 * xb += alpha Ab y, yb += alpha Ab^T x, alphab += x^T Ab y (Ab unchanged).
 * In the tape: m, n, lda, incx, incy, alpha; a = x, b = y. */

static Tape P(ger_read)(const int *layout, const int *m, const int *n,
                        const R *alpha, const int *incx, const int *incy,
                        const int *lda) {
  Tape h = {0};
  int row = adcc_blas_row_major(layout);
  h.m = row ? *n : *m;
  h.n = row ? *m : *n;
  h.incx = row ? *incy : *incx;
  h.incy = row ? *incx : *incy;
  h.lda = *lda;
  h.alpha = *alpha;
  h.row = row;
  return h;
}

/* (A row-major call is A^T += alpha y x^T: x and y trade places.) */
#define GER_SWAP(row, x, dx, y, dy)                                            \
  if (row) {                                                                   \
    const R *x_ = x, *dx_ = dx;                                                \
    x = y, dx = dy, y = x_, dy = dx_;                                          \
  }

#define GER_PARAMS                                                             \
  const int *layout, const int *m, const int *n, const R *alpha,               \
      const R *dalpha, const R *x, const R *dx, const int *incx, const R *y,   \
      const R *dy, const int *incy, const R *A, R *dA, const int *lda

void P(ger_fwd)(GER_PARAMS) {
  (void)A;
  if (!dA)
    return;
  Tape h = P(ger_read)(layout, m, n, alpha, incx, incy, lda);
  GER_SWAP(adcc_blas_row_major(layout), x, dx, y, dy)
  if (dx)
    P(ger)(h.m, h.n, h.alpha, dx, h.incx, y, h.incy, dA, h.lda);
  if (dy)
    P(ger)(h.m, h.n, h.alpha, x, h.incx, dy, h.incy, dA, h.lda);
  if (dalpha && *dalpha != 0)
    P(ger)(h.m, h.n, *dalpha, x, h.incx, y, h.incy, dA, h.lda);
}

void *P(ger_aug)(GER_PARAMS, int stable) {
  (void)A;
  Tape h = P(ger_read)(layout, m, n, alpha, incx, incy, lda);
  GER_SWAP(h.row, x, dx, y, dy)
  int stablex = stable & (h.row ? 2 : 1), stabley = stable & (h.row ? 1 : 2);
  int keepx = dA && (dy || dalpha), keepy = dA && (dx || dalpha);
  Tape *t = P(tape_new)(&h,
                        (keepx && !stablex ? (size_t)h.m : 0) +
                            (keepy && !stabley ? (size_t)h.n : 0),
                        PREFIX "ger");
  if (keepx)
    t->a = P(keep_vec)(t, h.m, x, h.incx, stablex, &t->ald);
  if (keepy)
    t->b = P(keep_vec)(t, h.n, y, h.incy, stabley, &t->bld);
  return t;
}

void P(ger_rev)(R *dalpha, R *dx, R *dy, R *dA, void *tape) {
  Tape *t = tape;
  if (t->row) {
    R *d = dx;
    dx = dy, dy = d;
  }
  if (dA) {
    if (dx)
      P(gemv)('N', t->m, t->n, t->alpha, dA, t->lda, t->b, t->bld, 1, dx,
              t->incx);
    if (dy)
      P(gemv)('T', t->m, t->n, t->alpha, dA, t->lda, t->a, t->ald, 1, dy,
              t->incy);
    if (dalpha) {
      R *ay = adcc_blas_alloc((size_t)P(imax1)(t->m) * sizeof(R),
                              PREFIX "ger");
      P(gemv)('N', t->m, t->n, 1, dA, t->lda, t->b, t->bld, 0, ay, 1);
      *dalpha += P(vdot)(t->m, t->a, t->ald, ay, 1);
      free(ay);
    }
  }
  free(t);
}

/*--- gemm: C = alpha op(A) op(B) + beta C ------------------------------===*/
/* C' = alpha op(A') op(B) + alpha op(A) op(B') + alpha' op(A) op(B)
 *      + beta C' + beta' C;
 * op(A)b += alpha Cb op(B)^T, op(B)b += alpha op(A)^T Cb,
 * alphab += <Cb, op(A) op(B)>, betab += <Cb, C>, Cb = beta Cb.
 * C is m x n, op(A) m x k, op(B) k x n. In the tape: m, n, k, ta, tb, lda,
 * ldb, ldc, alpha, beta; a = A, b = B, c = C packed. */

static Tape P(gemm_read)(const int *layout, const void *transa,
                         const void *transb, const int *m, const int *n,
                         const int *k, const R *alpha, const int *lda,
                         const int *ldb, const R *beta, const int *ldc) {
  Tape h = {0};
  h.row = adcc_blas_row_major(layout);
  char ta = adcc_blas_trans(layout, transa), tb = adcc_blas_trans(layout, transb);
  /* (Row-major: C^T = op(B)^T op(A)^T, the column-major call with A and B
   * trading places.) */
  h.ta = h.row ? tb : ta;
  h.tb = h.row ? ta : tb;
  h.m = h.row ? *n : *m;
  h.n = h.row ? *m : *n;
  h.k = *k;
  h.lda = h.row ? *ldb : *lda;
  h.ldb = h.row ? *lda : *ldb;
  h.ldc = *ldc;
  h.alpha = *alpha;
  h.beta = *beta;
  return h;
}

/* The stored rows and columns of A and B. */
static int P(rows_a)(const Tape *h) { return h->ta == 'N' ? h->m : h->k; }
static int P(cols_a)(const Tape *h) { return h->ta == 'N' ? h->k : h->m; }
static int P(rows_b)(const Tape *h) { return h->tb == 'N' ? h->k : h->n; }
static int P(cols_b)(const Tape *h) { return h->tb == 'N' ? h->n : h->k; }

#define GEMM_PARAMS                                                            \
  const int *layout, const void *transa, const void *transb, const int *m,     \
      const int *n, const int *k, const R *alpha, const R *dalpha,             \
      const R *A, const R *dA, const int *lda, const R *B, const R *dB,        \
      const int *ldb, const R *beta, const R *dbeta, const R *C, R *dC,        \
      const int *ldc

#define GEMM_SWAP(row, A, dA, B, dB) GER_SWAP(row, A, dA, B, dB)

void P(gemm_fwd)(GEMM_PARAMS) {
  if (!dC)
    return;
  Tape h = P(gemm_read)(layout, transa, transb, m, n, k, alpha, lda, ldb,
                        beta, ldc);
  GEMM_SWAP(h.row, A, dA, B, dB)
  R b = h.beta;
  const R *terms[3][2] = {{dA, B}, {A, dB}, {A, B}};
  R coef[3] = {h.alpha, h.alpha, dalpha ? *dalpha : 0};
  for (int i = 0; i < 3; ++i) {
    if (!terms[i][0] || !terms[i][1] || coef[i] == 0)
      continue;
    P(gemm)(h.ta, h.tb, h.m, h.n, h.k, coef[i], terms[i][0], h.lda,
            terms[i][1], h.ldb, b, dC, h.ldc);
    b = 1;
  }
  P(mscale)(h.m, h.n, b, dC, h.ldc);
  if (dbeta && *dbeta != 0 && h.beta != 0)
    P(maxpy)(h.m, h.n, *dbeta, C, h.ldc, dC, h.ldc);
}

void *P(gemm_aug)(GEMM_PARAMS, int stable) {
  Tape h = P(gemm_read)(layout, transa, transb, m, n, k, alpha, lda, ldb,
                        beta, ldc);
  GEMM_SWAP(h.row, A, dA, B, dB)
  int stableA = stable & (h.row ? 2 : 1), stableB = stable & (h.row ? 1 : 2);
  size_t sizeA = (size_t)P(rows_a)(&h) * P(cols_a)(&h);
  size_t sizeB = (size_t)P(rows_b)(&h) * P(cols_b)(&h);
  size_t sizeC = (size_t)h.m * h.n;
  int keepA = dC && (dB || dalpha), keepB = dC && (dA || dalpha);
  int keepC = dC && dbeta && h.beta != 0; /* (C: the output, copied) */
  Tape *t = P(tape_new)(&h,
                        (keepA && !stableA ? sizeA : 0) +
                            (keepB && !stableB ? sizeB : 0) +
                            (keepC ? sizeC : 0),
                        PREFIX "gemm");
  if (keepA)
    t->a = P(keep_mat)(t, P(rows_a)(&h), P(cols_a)(&h), A, h.lda, stableA,
                       &t->ald);
  if (keepB)
    t->b = P(keep_mat)(t, P(rows_b)(&h), P(cols_b)(&h), B, h.ldb, stableB,
                       &t->bld);
  if (keepC)
    t->c = P(keep_mat)(t, h.m, h.n, C, h.ldc, 0, &t->cld);
  return t;
}

void P(gemm_rev)(R *dalpha, R *dA, R *dB, R *dbeta, R *dC, void *tape) {
  Tape *t = tape;
  if (!dC) {
    free(t);
    return;
  }
  if (t->row) {
    R *d = dA;
    dA = dB, dB = d;
  }
  int lda = t->ald, ldb = t->bld;
  if (dA) {
    if (t->ta == 'N') /* A += alpha Cb op(B)^T */
      P(gemm)('N', adcc_blas_flip(t->tb), t->m, t->k, t->n, t->alpha, dC,
              t->ldc, t->b, ldb, 1, dA, t->lda);
    else /* A += alpha op(B) Cb^T */
      P(gemm)(t->tb, 'T', t->k, t->m, t->n, t->alpha, t->b, ldb, dC, t->ldc,
              1, dA, t->lda);
  }
  if (dB) {
    if (t->tb == 'N') /* B += alpha op(A)^T Cb */
      P(gemm)(adcc_blas_flip(t->ta), 'N', t->k, t->n, t->m, t->alpha, t->a,
              lda, dC, t->ldc, 1, dB, t->ldb);
    else /* B += alpha Cb^T op(A) */
      P(gemm)('T', t->ta, t->n, t->k, t->m, t->alpha, dC, t->ldc, t->a, lda,
              1, dB, t->ldb);
  }
  if (dalpha) {
    int ldp = P(imax1)(t->m);
    R *ab = adcc_blas_alloc((size_t)ldp * P(imax1)(t->n) * sizeof(R),
                            PREFIX "gemm");
    P(gemm)(t->ta, t->tb, t->m, t->n, t->k, 1, t->a, lda, t->b, ldb, 0, ab,
            ldp);
    *dalpha += P(mdot)(t->m, t->n, ab, ldp, dC, t->ldc);
    free(ab);
  }
  if (dbeta && t->c)
    *dbeta += P(mdot)(t->m, t->n, t->c, t->cld, dC, t->ldc);
  P(mscale)(t->m, t->n, t->beta, dC, t->ldc);
  free(t);
}

/*--- symv: y = alpha S x + beta y, S symmetric from one triangle of A ----===*/
/* y' = alpha S(A') x + alpha S x' + alpha' S x + beta y' + beta' y;
 * the stored triangle's adjoint: A_ij += alpha (yb_i x_j + yb_j x_i) off
 * the diagonal, A_ii += alpha yb_i x_i; xb += alpha S yb,
 * alphab += yb . S x, betab += yb . y, yb = beta yb.
 * In the tape: n, ta (the triangle), lda, incx, incy, alpha, beta; a = A,
 * b = x, c = y. A row-major call is the column-major one on the other
 * triangle (S is its own transpose). */

static void P(symv)(char uplo, int n, R alpha, const R *a, int lda,
                    const R *x, int incx, R beta, R *y, int incy) {
  F(symv)(&uplo, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
}

static Tape P(symv_read)(const int *layout, const void *uplo, const int *n,
                         const R *alpha, const int *lda, const int *incx,
                         const R *beta, const int *incy) {
  /* (Read as a column-major gemv of an n x n matrix, then the triangle.) */
  Tape h = P(gemv_read)(NULL, "N", n, n, alpha, lda, incx, beta, incy);
  h.ta = adcc_blas_uplo(layout, uplo);
  return h;
}

#define SYMV_PARAMS                                                            \
  const int *layout, const void *uplo, const int *n, const R *alpha,           \
      const R *dalpha, const R *A, const R *dA, const int *lda, const R *x,    \
      const R *dx, const int *incx, const R *beta, const R *dbeta,             \
      const R *y, R *dy, const int *incy

void P(symv_fwd)(SYMV_PARAMS) {
  if (!dy)
    return;
  Tape h = P(symv_read)(layout, uplo, n, alpha, lda, incx, beta, incy);
  R b = h.beta;
  const R *terms[3][2] = {{dA, x}, {A, dx}, {A, x}};
  R coef[3] = {h.alpha, h.alpha, dalpha ? *dalpha : 0};
  for (int i = 0; i < 3; ++i) {
    if (!terms[i][0] || !terms[i][1] || coef[i] == 0)
      continue;
    P(symv)(h.ta, h.n, coef[i], terms[i][0], h.lda, terms[i][1], h.incx, b, dy,
            h.incy);
    b = 1;
  }
  P(vscale)(h.n, b, dy, h.incy);
  if (dbeta && *dbeta != 0 && h.beta != 0)
    P(vaxpy)(h.n, *dbeta, y, h.incy, dy, h.incy);
}

void *P(symv_aug)(SYMV_PARAMS, int stable) {
  Tape h = P(symv_read)(layout, uplo, n, alpha, lda, incx, beta, incy);
  int keepA = dy && (dx || dalpha), keepx = dy && (dA || dalpha);
  int keepy = dy && dbeta && h.beta != 0; /* (y: the output, copied) */
  size_t size = (keepA && !(stable & 1) ? (size_t)h.n * h.n : 0) +
                (keepx && !(stable & 2) ? (size_t)h.n : 0) +
                (keepy ? (size_t)h.n : 0);
  Tape *t = P(tape_new)(&h, size, PREFIX "symv");
  if (keepA)
    t->a = P(keep_mat)(t, h.n, h.n, A, h.lda, stable & 1, &t->ald);
  if (keepx)
    t->b = P(keep_vec)(t, h.n, x, h.incx, stable & 2, &t->bld);
  if (keepy)
    t->c = P(keep_vec)(t, h.n, y, h.incy, 0, &t->cld);
  return t;
}

void P(symv_rev)(R *dalpha, R *dA, R *dx, R *dbeta, R *dy, void *tape) {
  Tape *t = tape;
  int n = t->n;
  if (!dy) {
    free(t);
    return;
  }
  if (dA)
    for (int j = 0; j < n; ++j)
      for (int i = t->ta == 'U' ? 0 : j; i < (t->ta == 'U' ? j + 1 : n); ++i) {
        R ybi = dy[adcc_blas_at(n, t->incy, i)];
        R ybj = dy[adcc_blas_at(n, t->incy, j)];
        R xi = t->b[adcc_blas_at(n, t->bld, i)];
        R xj = t->b[adcc_blas_at(n, t->bld, j)];
        dA[(size_t)j * t->lda + i] +=
            t->alpha * (i == j ? ybi * xi : ybi * xj + ybj * xi);
      }
  if (dx)
    P(symv)(t->ta, n, t->alpha, t->a, t->ald, dy, t->incy, 1, dx, t->incx);
  if (dalpha) {
    R *ax = adcc_blas_alloc((size_t)P(imax1)(n) * sizeof(R), PREFIX "symv");
    P(symv)(t->ta, n, 1, t->a, t->ald, t->b, t->bld, 0, ax, 1);
    *dalpha += P(vdot)(n, ax, 1, dy, t->incy);
    free(ax);
  }
  if (dbeta && t->c)
    *dbeta += P(vdot)(n, t->c, t->cld, dy, t->incy);
  P(vscale)(n, t->beta, dy, t->incy);
  free(t);
}
