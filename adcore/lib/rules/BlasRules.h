//===- rules/BlasRules.h - Derivatives of BLAS calls ------------*- C++ -*-===//
//
// What adcc knows of BLAS calls in differentiated code (docs/rules.md#blas):
// the routines that have derivative rules (dot, axpy, scal, copy, nrm2,
// asum, gemv, symv, trsv, ger, gemm, syrk in double and float, spelled as
// CBLAS's cblas_d* and as Fortran's d*_), given to the emitters as the rules a
// program registers would be (a forward derivative, an augmented and a reverse
// function; CustomRules.h), whose work is done by C functions of the
// runtime (runtime/lib/blas/) around the program's own call; the routines
// that carry no derivative (i?amax); and the BLAS, LAPACK and cuBLAS
// routines without a rule, which are refused with an error naming them.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_BLASRULES_H
#define ADCORE_RULES_BLASRULES_H

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// Whether \p F is a BLAS routine with a derivative rule (a declaration of
/// the expected type).
bool isBlasRuleFunction(const llvm::Function &F);

/// The forward derivative of the BLAS routine \p F, made in F's module the
/// first time (null when F has no rule).
llvm::Function *blasForwardRule(const llvm::Function &F);

/// The augmented and reverse functions of the BLAS routine \p F; false
/// when it has no rule. \p Stable: the parameters (bit K for parameter K)
/// among blasReadOnlyArrays(F) whose memory nothing writes between the
/// augmented and the reverse sweep: the reverse reads them again instead
/// of a copy.
bool blasGradientRule(const llvm::Function &F, llvm::Function *&Augmented,
                      llvm::Function *&Reverse, unsigned Stable = 0);

/// The parameters of the BLAS routine \p F (bit K for parameter K) that
/// are arrays it only reads; 0 when F has no rule.
unsigned blasReadOnlyArrays(const llvm::Function &F);

/// The parameter of the BLAS routine \p F that is the array it writes, or
/// -1 (dot, nrm2, asum, or no rule).
int blasWrittenArray(const llvm::Function &F);

/// The error for a call of the BLAS routine \p F (with a rule) in split
/// forward mode (\p Split) or in a batched derivative (enzyme_width).
std::string blasModeError(const llvm::Function &F, bool Split);

/// BLAS routines that carry no derivative (the index of a maximum).
bool isInactiveBlasFunction(const llvm::Function &F);

/// For a declaration called with derivatives in differentiated code: the
/// message of the error when it is a BLAS, LAPACK or cuBLAS routine
/// without a rule (or a rule's routine declared with another type);
/// otherwise empty.
std::string blasCallError(const llvm::Function &F);

} // namespace adcore

#endif // ADCORE_RULES_BLASRULES_H
