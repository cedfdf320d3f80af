/*===- blas_common.c - Layouts, transposes and tapes of BLAS rules ------===*/

#include "blas_internal.h"

#include "../tape_internal.h"

#include <stdlib.h>

/* CBLAS's enumerators (cblas.h). */
enum { RowMajor = 101, NoTrans = 111, Upper = 121, Unit = 132 };

int adcc_blas_row_major(const int *layout) {
  return layout && *layout == RowMajor;
}

char adcc_blas_trans(const int *layout, const void *trans) {
  if (layout)
    return *(const int *)trans == NoTrans ? 'N' : 'T';
  char c = *(const char *)trans;
  return c == 'N' || c == 'n' ? 'N' : 'T';
}

char adcc_blas_uplo(const int *layout, const void *uplo) {
  int upper = layout ? *(const int *)uplo == Upper
                     : *(const char *)uplo == 'U' || *(const char *)uplo == 'u';
  return upper != adcc_blas_row_major(layout) ? 'U' : 'L';
}

char adcc_blas_diag(const int *layout, const void *diag) {
  if (layout)
    return *(const int *)diag == Unit ? 'U' : 'N';
  char c = *(const char *)diag;
  return c == 'U' || c == 'u' ? 'U' : 'N';
}

void *adcc_blas_alloc(size_t bytes, const char *call) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    adcc_rt_report("out of memory recording the operands of %s for its "
                   "reverse (%zu bytes)",
                   call, bytes);
  if (!p)
    abort(); /* (a handler that returns) */
  return p;
}
