/*===- enzyme/fprt/mpfr.h - Enzyme's MPFR runtime header, for adcc -*- C -*-===*
 *
 * Programs written for Enzyme's floating-point truncation include this
 * header (often with `-include enzyme/fprt/mpfr.h`): with Enzyme, it
 * defines the run-time functions its truncated code calls to emulate
 * formats with MPFR. adcc's __enzyme_truncate_op_func runs the narrower
 * formats it supports (float and half) in hardware and calls no run-time
 * function, and the formats it would need MPFR for are errors at the call
 * (docs/api.md, "Floating-point truncation"). So this header declares
 * nothing: it is here so that those programs compile unchanged.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_ENZYME_FPRT_MPFR_H
#define ADCC_ENZYME_FPRT_MPFR_H
#endif /* ADCC_ENZYME_FPRT_MPFR_H */
