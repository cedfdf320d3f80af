/*===- blas_trsv.h - Rules of trsv --------------------------------------===*
 *
 * Included by blas_ops.h once per element type, after blas_syrk.h.
 *
 * trsv: x = op(T)^-1 x, T the triangle of A (n x n; with a unit diagonal
 * when diag says so, A's diagonal then unread). With x the solution:
 * x' = op(T)^-1 (x'_in - op(T') x), T' the same triangle of A';
 * b = op(T)^-T xb (the adjoint of the right-hand side, xb = b after), and
 * T's adjoint -= b x^T (op = N) or x b^T (op = T), on the triangle (off
 * the diagonal for a unit one).
 * In the tape: n, ta (the op), tb (the triangle), diag, lda, incx; a = A,
 * b = the solution. A row-major call is the column-major one with the
 * other triangle and the other op.
 *
 *===----------------------------------------------------------------------===*/

static void P(trsv)(char uplo, char t, char diag, int n, const R *a, int lda,
                    R *x, int incx) {
  F(trsv)(&uplo, &t, &diag, &n, a, &lda, x, &incx, 1, 1, 1);
}

static Tape P(trsv_read)(const int *layout, const void *uplo,
                         const void *trans, const void *diag, const int *n,
                         const int *lda, const int *incx) {
  Tape h = {0};
  h.tb = adcc_blas_uplo(layout, uplo); /* (flipped for row-major) */
  h.ta = adcc_blas_trans(layout, trans);
  if (adcc_blas_row_major(layout))
    h.ta = adcc_blas_flip(h.ta);
  h.diag = adcc_blas_diag(layout, diag);
  h.n = *n;
  h.lda = *lda;
  h.incx = *incx;
  return h;
}

/* The solution of the call, contiguous, in \p to. */
static R *P(solution)(const Tape *h, const R *a, const R *x, R *to) {
  P(vpack)(h->n, x, h->incx, to);
  P(trsv)(h->tb, h->ta, h->diag, h->n, a, h->lda, to, 1);
  return to;
}

#define TRSV_PARAMS                                                            \
  const int *layout, const void *uplo, const void *trans, const void *diag,    \
      const int *n, const R *A, const R *dA, const int *lda, const R *x,       \
      R *dx, const int *incx

void P(trsv_fwd)(TRSV_PARAMS) {
  if (!dx)
    return;
  Tape h = P(trsv_read)(layout, uplo, trans, diag, n, lda, incx);
  if (dA) { /* x'_in -= op(T') x */
    size_t size = (size_t)P(imax1)(h.n) * sizeof(R);
    R *sol = P(solution)(&h, A, x, adcc_blas_alloc(size, PREFIX "trsv"));
    R *w = adcc_blas_alloc(size, PREFIX "trsv");
    for (int i = 0; i < h.n; ++i)
      w[i] = sol[i];
    /* (A unit diagonal: op(T' + I) x - x.) */
    F(trmv)(&h.tb, &h.ta, &h.diag, &h.n, dA, &h.lda, w, &(int){1}, 1, 1, 1);
    if (h.diag == 'U')
      P(vaxpy)(h.n, -1, sol, 1, w, 1);
    P(vaxpy)(h.n, -1, w, 1, dx, h.incx);
    free(w);
    free(sol);
  }
  P(trsv)(h.tb, h.ta, h.diag, h.n, A, h.lda, dx, h.incx);
}

void *P(trsv_aug)(TRSV_PARAMS, int stable) {
  Tape h = P(trsv_read)(layout, uplo, trans, diag, n, lda, incx);
  int keepA = dx != NULL, keepx = dx && dA;
  Tape *t = P(tape_new)(&h,
                        (keepA && !(stable & 1) ? (size_t)h.n * h.n : 0) +
                            (keepx ? (size_t)h.n : 0),
                        PREFIX "trsv");
  if (keepA)
    t->a = P(keep_mat)(t, h.n, h.n, A, h.lda, stable & 1, &t->ald);
  if (keepx) /* (the solution, before the call makes it) */
    t->b = P(solution)(&h, A, x, P(tape_take)(t, h.n));
  return t;
}

void P(trsv_rev)(R *dA, R *dx, void *tape) {
  Tape *t = tape;
  int n = t->n;
  if (dx) {
    P(trsv)(t->tb, adcc_blas_flip(t->ta), t->diag, n, t->a, t->ald, dx,
            t->incx);
    for (int j = 0; dA && j < n; ++j) {
      int lo, hi;
      P(tri_rows)(t->tb, n, j, &lo, &hi);
      for (int i = lo; i < hi; ++i) {
        if (i == j && t->diag == 'U')
          continue;
        /* (op = N: T_ij x_j b_i; op = T: T_ij x_i b_j) */
        int bi = t->ta == 'N' ? i : j, xi = t->ta == 'N' ? j : i;
        dA[(size_t)j * t->lda + i] -=
            dx[adcc_blas_at(n, t->incx, bi)] * t->b[xi];
      }
    }
  }
  free(t);
}
