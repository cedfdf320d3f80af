/*===- blas_float.c - The BLAS rules of single-precision routines -------===*/

#define R float
#define PREFIX "s"
#define P(name) adcc_blas_s##name
#define F(name) s##name##_
#include "blas_ops.h"
