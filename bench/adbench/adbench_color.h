/*===- adbench_color.h - Compressed forward-mode Jacobians ---------------===*
 *
 * Column compression of a sparse Jacobian (Curtis, Powell and Reid, 1974):
 * columns that never have a nonzero in the same row may share one forward
 * direction (the sum of their unit tangents); the tangent along it holds,
 * in each row, the entry of the one column of the group that the row
 * depends on.  Given the rows' structural patterns (a bit per column, a
 * superset of the nonzeros is fine), ab_color_columns groups the columns
 * greedily, ab_pattern_columns lists each column's rows, and ab_decompress
 * scatters the tangents of the groups back into the dense Jacobian.  Up to
 * 64 columns.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_ADBENCH_COLOR_H
#define ADCC_BENCH_ADBENCH_COLOR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { AB_MAX_COLS = 64 };

/* Colours the ncols columns of a Jacobian whose row r has the pattern
 * rows[r] (bit k: column k may be nonzero): color[k] in 0..n-1, with no two
 * columns of one colour in a row.  Greedy in column order (the smallest
 * colour not used by a conflicting column).  Returns n, or -1 when ncols
 * exceeds AB_MAX_COLS. */
static inline int ab_color_columns(const uint64_t *rows, long nrows, int ncols,
                                   int *color) {
  if (ncols > AB_MAX_COLS)
    return -1;
  uint64_t conflict[AB_MAX_COLS] = {0};
  for (long r = 0; r < nrows; r++)
    for (int k = 0; k < ncols; k++)
      if (rows[r] >> k & 1)
        conflict[k] |= rows[r];
  int n = 0;
  for (int k = 0; k < ncols; k++) {
    uint64_t used = 0;
    for (int j = 0; j < k; j++)
      if (conflict[k] >> j & 1)
        used |= (uint64_t)1 << color[j];
    int c = 0;
    while (used >> c & 1)
      c++;
    color[k] = c;
    n = c + 1 > n ? c + 1 : n;
  }
  return n;
}

/* The rows that may be nonzero in each column (compressed sparse columns):
 * column k's are rowidx[colstart[k] .. colstart[k + 1]). Returns the number
 * of entries, or -1 when out of memory; *rowidx is malloc'ed. */
static inline long ab_pattern_columns(const uint64_t *rows, long nrows,
                                      int ncols, long *colstart,
                                      long **rowidx) {
  long nnz = 0;
  for (int k = 0; k < ncols; k++) {
    colstart[k] = nnz;
    for (long r = 0; r < nrows; r++)
      nnz += rows[r] >> k & 1;
  }
  colstart[ncols] = nnz;
  *rowidx = malloc((nnz ? nnz : 1) * sizeof **rowidx);
  if (!*rowidx)
    return -1;
  for (int k = 0; k < ncols; k++)
    for (long r = 0, n = colstart[k]; r < nrows; r++)
      if (rows[r] >> k & 1)
        (*rowidx)[n++] = r;
  return nnz;
}

/* The dense column-major Jacobian J (nrows x ncols) from the tangents C
 * (column-major nrows x colours) of the coloured directions: each column's
 * entries from its colour's tangent, zeros elsewhere. A column that may be
 * nonzero in every row (HT's global rotation and u columns) is its
 * colour's tangent as a whole: one copy. */
static inline void ab_decompress(const long *colstart, const long *rowidx,
                                 long nrows, int ncols, const int *color,
                                 const double *C, double *J) {
  for (int k = 0; k < ncols; k++) {
    const double *c = &C[(long)color[k] * nrows];
    double *j = &J[(long)k * nrows];
    if (colstart[k + 1] - colstart[k] == nrows) {
      memcpy(j, c, (size_t)nrows * sizeof *j);
      continue;
    }
    memset(j, 0, (size_t)nrows * sizeof *j);
    for (long n = colstart[k]; n < colstart[k + 1]; n++)
      j[rowidx[n]] = c[rowidx[n]];
  }
}

#endif /* ADCC_BENCH_ADBENCH_COLOR_H */
