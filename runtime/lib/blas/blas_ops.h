/*===- blas_ops.h - The BLAS rules of one element type ------------------===*
 *
 * Included by blas_double.c and blas_float.c with
 *   R          the element type (double, float),
 *   PREFIX     BLAS's letter for it ("d", "s"),
 *   P(name)    the rule's name (adcc_blas_d##name),
 *   F(name)    the Fortran BLAS routine (d##name##_).
 * For each routine `op` of the rules: P(op_fwd) adds the output's tangent
 * (and returns the result's tangent for dot, nrm2, asum); P(op_aug)
 * records what P(op_rev) needs and returns it as the tape; P(op_rev) adds
 * the adjoints of the inputs (the shadows of the floating-point arguments,
 * in order, then the result's adjoint, then the tape) and frees the tape.
 * All run before the program's own call of the routine, which
 * generated code makes right after P(op_fwd) and P(op_aug). P(op_aug)
 * takes last a mask of the arrays (bit i: the i-th array argument) that
 * nothing writes before the reverse runs (adcc's reverse emitter knows):
 * those are read again by the reverse instead of copied.
 *
 *===----------------------------------------------------------------------===*/

#include "blas_internal.h"

#include <math.h>
#include <stdlib.h>

/* The Fortran routines the rules call, with the hidden lengths of their
 * character arguments as gfortran passes them. */
void F(gemv)(const char *trans, const int *m, const int *n, const R *alpha,
             const R *a, const int *lda, const R *x, const int *incx,
             const R *beta, R *y, const int *incy, size_t trans_len);
void F(gemm)(const char *transa, const char *transb, const int *m,
             const int *n, const int *k, const R *alpha, const R *a,
             const int *lda, const R *b, const int *ldb, const R *beta, R *c,
             const int *ldc, size_t transa_len, size_t transb_len);
void F(symv)(const char *uplo, const int *n, const R *alpha, const R *a,
             const int *lda, const R *x, const int *incx, const R *beta, R *y,
             const int *incy, size_t uplo_len);
void F(syrk)(const char *uplo, const char *trans, const int *n, const int *k,
             const R *alpha, const R *a, const int *lda, const R *beta, R *c,
             const int *ldc, size_t uplo_len, size_t trans_len);
void F(syr2k)(const char *uplo, const char *trans, const int *n, const int *k,
              const R *alpha, const R *a, const int *lda, const R *b,
              const int *ldb, const R *beta, R *c, const int *ldc,
              size_t uplo_len, size_t trans_len);
void F(trsv)(const char *uplo, const char *trans, const char *diag,
             const int *n, const R *a, const int *lda, R *x, const int *incx,
             size_t uplo_len, size_t trans_len, size_t diag_len);
void F(trmv)(const char *uplo, const char *trans, const char *diag,
             const int *n, const R *a, const int *lda, R *x, const int *incx,
             size_t uplo_len, size_t trans_len, size_t diag_len);
void F(ger)(const int *m, const int *n, const R *alpha, const R *x,
            const int *incx, const R *y, const int *incy, R *a,
            const int *lda);

/* A call read as a column-major one, and what its reverse reads: its
 * sizes, transposes and scalars, and copies of the operands the call may
 * overwrite before the reverse runs, or that the program may (null where
 * not needed). The copies follow the header in the same block. */
typedef struct {
  int m, n, k, lda, ldb, ldc, incx, incy;
  int row; /* a row-major CBLAS call (A and B, x and y traded places) */
  char ta, tb; /* (symv: ta is the triangle, 'U' or 'L'; syrk: tb) */
  char diag;   /* (trsv: 'U' for a unit diagonal, else 'N') */
  R alpha, beta;
  R *a, *b, *c;
  int ald, bld, cld; /* their leading dimensions or increments */
  R *next; /* (the free part of the block) */
} Tape;

static Tape *P(tape_new)(const Tape *header, size_t elements,
                         const char *call) {
  Tape *t = adcc_blas_alloc(sizeof(Tape) + elements * sizeof(R), call);
  if (header)
    *t = *header;
  else
    *t = (Tape){0};
  t->next = (R *)(t + 1);
  return t;
}

static R *P(tape_take)(Tape *t, size_t elements) {
  R *p = t->next;
  t->next += elements;
  return p;
}

#include "blas_vectors.h"

/* What the reverse reads of a vector: itself when \p stable (nothing
 * writes it before the reverse), else a contiguous copy; *inc gets the
 * increment to read it with. */
static R *P(keep_vec)(Tape *t, int n, const R *x, int incx, int stable,
                      int *inc) {
  *inc = stable ? incx : 1;
  return stable ? (R *)x : P(vpack)(n, x, incx, P(tape_take)(t, n));
}

/* The same for a rows x cols matrix with leading dimension ld. */
static R *P(keep_mat)(Tape *t, int rows, int cols, const R *a, int ld,
                      int stable, int *ld_kept) {
  *ld_kept = stable ? ld : P(imax1)(rows);
  return stable ? (R *)a
                : P(mpack)(rows, cols, a, ld,
                           P(tape_take)(t, (size_t)rows * cols));
}

#include "blas_level1.h"

#include "blas_level23.h"

#include "blas_syrk.h"

#include "blas_trsv.h"
