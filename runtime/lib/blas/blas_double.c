/*===- blas_double.c - The BLAS rules of double-precision routines ------===*/

#define R double
#define PREFIX "d"
#define P(name) adcc_blas_d##name
#define F(name) d##name##_
#include "blas_ops.h"
