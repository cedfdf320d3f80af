/*===- common.c - Datatypes, operators and buffers of MPI derivatives ---===*/

#include "mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void adcc_mpi_fail(MPI_Comm comm, const char *call,
                             const char *message) {
  fprintf(stderr, "adcc runtime: error: %s in differentiated code: %s\n", call,
          message);
  fflush(stderr);
  MPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
  abort();
}

int adcc_mpi_rank(MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  return r;
}

int adcc_mpi_size(MPI_Comm comm) {
  int s;
  MPI_Comm_size(comm, &s);
  return s;
}

int adcc_mpi_adjoint_tag(int tag, MPI_Comm comm) {
  int *ub = NULL, flag = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag);
  int offset = (flag && ub ? *ub : 32767) / 2 + 1;
  if (tag >= offset)
    adcc_mpi_fail(comm, "a message's reverse",
                  "its tag is above MPI_TAG_UB / 2: the adjoint messages of "
                  "reverse mode use the tags above");
  return tag + offset;
}

enum adcc_mpi_kind adcc_mpi_kind_of(MPI_Datatype type, const char *call,
                                    MPI_Comm comm) {
  if (type == MPI_DOUBLE)
    return ADCC_MPI_DOUBLE;
  if (type == MPI_FLOAT)
    return ADCC_MPI_FLOAT;
  MPI_Datatype known[] = {
      MPI_CHAR,          MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
      MPI_BYTE,          MPI_SHORT,       MPI_UNSIGNED_SHORT,
      MPI_INT,           MPI_UNSIGNED,    MPI_LONG,
      MPI_UNSIGNED_LONG, MPI_LONG_LONG,   MPI_UNSIGNED_LONG_LONG,
      MPI_INT8_T,        MPI_INT16_T,     MPI_INT32_T,
      MPI_INT64_T,       MPI_UINT8_T,     MPI_UINT16_T,
      MPI_UINT32_T,      MPI_UINT64_T,    MPI_C_BOOL,
      MPI_WCHAR,         MPI_AINT,        MPI_OFFSET,
      MPI_COUNT,
  };
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); ++i)
    if (type == known[i])
      return ADCC_MPI_INACTIVE;
  adcc_mpi_fail(comm, call,
                "the datatype has no derivative rule (MPI_DOUBLE and "
                "MPI_FLOAT carry derivatives, integer types none; derived "
                "datatypes, pairs and long double are not supported)");
}

size_t adcc_mpi_size_of(enum adcc_mpi_kind kind) {
  return kind == ADCC_MPI_DOUBLE  ? sizeof(double)
         : kind == ADCC_MPI_FLOAT ? sizeof(float)
                                  : 0;
}

void adcc_mpi_add(enum adcc_mpi_kind kind, void *dst, const void *src,
                  size_t n) {
  if (!dst || !src)
    return;
  if (kind == ADCC_MPI_DOUBLE) {
    double *d = dst;
    const double *s = src;
    for (size_t i = 0; i < n; ++i)
      d[i] += s[i];
  } else if (kind == ADCC_MPI_FLOAT) {
    float *d = dst;
    const float *s = src;
    for (size_t i = 0; i < n; ++i)
      d[i] += s[i];
  }
}

void adcc_mpi_zero(enum adcc_mpi_kind kind, void *dst, size_t n) {
  if (dst)
    memset(dst, 0, n * adcc_mpi_size_of(kind));
}

void adcc_mpi_copy(enum adcc_mpi_kind kind, void *dst, const void *src,
                   size_t n) {
  if (!dst)
    return;
  if (src)
    memmove(dst, src, n * adcc_mpi_size_of(kind));
  else
    adcc_mpi_zero(kind, dst, n);
}

void *adcc_mpi_temp(enum adcc_mpi_kind kind, const void *src, size_t n) {
  size_t bytes = n * adcc_mpi_size_of(kind);
  void *t = calloc(bytes ? bytes : 1, 1);
  if (!t)
    adcc_mpi_fail(MPI_COMM_WORLD, "an MPI call", "out of memory");
  if (src)
    memcpy(t, src, bytes);
  return t;
}

enum adcc_mpi_op adcc_mpi_op_of(MPI_Op op, const char *call, MPI_Comm comm) {
  if (op == MPI_SUM)
    return ADCC_MPI_SUM;
  if (op == MPI_MIN)
    return ADCC_MPI_MIN;
  if (op == MPI_MAX)
    return ADCC_MPI_MAX;
  adcc_mpi_fail(comm, call,
                "the reduction operator has no derivative rule (MPI_SUM, "
                "MPI_MIN and MPI_MAX have; MPI_PROD, logical and bitwise "
                "operators and operators of MPI_Op_create do not)");
}

void adcc_mpi_winners(enum adcc_mpi_kind kind, enum adcc_mpi_op op,
                      const void *send, int n, MPI_Comm comm,
                      unsigned char *won) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Op loc = op == ADCC_MPI_MIN ? MPI_MINLOC : MPI_MAXLOC;
  if (kind == ADCC_MPI_DOUBLE) {
    struct {
      double v;
      int rank;
    } *p = malloc(sizeof(*p) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; ++i) {
      p[i].v = ((const double *)send)[i];
      p[i].rank = rank;
    }
    MPI_Allreduce(MPI_IN_PLACE, p, n, MPI_DOUBLE_INT, loc, comm);
    for (int i = 0; i < n; ++i)
      won[i] = p[i].rank == rank;
    free(p);
    return;
  }
  struct {
    float v;
    int rank;
  } *p = malloc(sizeof(*p) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; ++i) {
    p[i].v = ((const float *)send)[i];
    p[i].rank = rank;
  }
  MPI_Allreduce(MPI_IN_PLACE, p, n, MPI_FLOAT_INT, loc, comm);
  for (int i = 0; i < n; ++i)
    won[i] = p[i].rank == rank;
  free(p);
}

void adcc_mpi_select(enum adcc_mpi_kind kind, void *dst, const void *src,
                     const unsigned char *won, size_t n) {
  adcc_mpi_zero(kind, dst, n);
  for (size_t i = 0; src && i < n; ++i)
    if (won[i]) {
      if (kind == ADCC_MPI_DOUBLE)
        ((double *)dst)[i] = ((const double *)src)[i];
      else
        ((float *)dst)[i] = ((const float *)src)[i];
    }
}

void adcc_mpi_add_selected(enum adcc_mpi_kind kind, void *dst, const void *src,
                           const unsigned char *won, size_t n) {
  for (size_t i = 0; dst && src && i < n; ++i)
    if (won[i]) {
      if (kind == ADCC_MPI_DOUBLE)
        ((double *)dst)[i] += ((const double *)src)[i];
      else
        ((float *)dst)[i] += ((const float *)src)[i];
    }
}
