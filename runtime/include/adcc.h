/*===- adcc.h - adcc's user header --------------------------------*- C -*-===*
 *
 * Included by programs compiled with adcc; found without -I. It declares the
 * tape runtime (adcc_runtime.h) and, as the AD features land, the macros that
 * mark functions for differentiation. See docs/api.md.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_H
#define ADCC_H

#ifndef __ADCC__
#error "<adcc.h> is adcc's header: compile this file with adcc or adcc++"
#endif

#define ADCC_VERSION_MAJOR 0
#define ADCC_VERSION_MINOR 1
#define ADCC_VERSION_PATCH 0

#include "adcc_runtime.h"

#endif /* ADCC_H */
