/*===- blas_internal.h - Shared pieces of the BLAS derivative rules -----===*
 *
 * The derivatives of BLAS calls (docs/rules.md#blas) are C functions of the
 * runtime that adcc's generated code calls around the program's own BLAS
 * call (adcore/lib/rules/BlasRules.cpp lists which): the forward functions
 * add the tangent of the call's output, the augmented functions record on a
 * tape what the reverse functions read, before the call overwrites it, and
 * the reverse functions add the adjoints of the inputs. Their work is done
 * by the BLAS the program links (the Fortran spelling, which every BLAS
 * exports) and by short loops.
 *
 * Every argument comes by pointer, as in the Fortran spelling; a CBLAS call
 * also passes its layout (CblasRowMajor, CblasColMajor), a Fortran call a
 * null layout, and then its transpose arguments are characters ('N', 'T',
 * 'C') rather than CBLAS's enumerators. A row-major call is turned into the
 * column-major call on the transposed matrices before anything else.
 * Shadows may be null where an argument carries no derivative: its terms
 * are skipped.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_RUNTIME_BLAS_INTERNAL_H
#define ADCC_RUNTIME_BLAS_INTERNAL_H

#include <stddef.h>

/* Whether a call's layout is CBLAS's row-major one (a Fortran call: null). */
int adcc_blas_row_major(const int *layout);

/* 'N' or 'T' for a transpose argument (a conjugate transpose of real
 * matrices is the transpose). */
char adcc_blas_trans(const int *layout, const void *trans);

/* 'U' or 'L' for a triangle argument (CblasUpper, CblasLower; 'U', 'L').
 * A row-major call's upper triangle is the column-major lower one. */
char adcc_blas_uplo(const int *layout, const void *uplo);

/* 'U' (a unit diagonal: CblasUnit, 'U') or 'N' for a diagonal argument. */
char adcc_blas_diag(const int *layout, const void *diag);

/* The other of 'N' and 'T'. */
static inline char adcc_blas_flip(char t) { return t == 'N' ? 'T' : 'N'; }

/* The offset of element i of a vector of n elements with increment inc, as
 * BLAS reads it (a negative increment starts at the end). */
static inline ptrdiff_t adcc_blas_at(int n, int inc, int i) {
  return inc >= 0 ? (ptrdiff_t)i * inc : (ptrdiff_t)(n - 1 - i) * -inc;
}

/* A tape block of \p bytes (stops the program with a message when memory
 * runs out); freed by the reverse function with free(). */
void *adcc_blas_alloc(size_t bytes, const char *call);

#endif /* ADCC_RUNTIME_BLAS_INTERNAL_H */
