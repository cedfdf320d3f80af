//===- ContractArithmetic.h - Multiply-adds in derivative code --*- C++ -*-===//
//
// Clang contracts `a * b + c` in the user's expressions into
// `llvm.fmuladd` (-ffp-contract=on, its default for C and C++): one fused
// multiply-add where the processor has one, a multiplication and an
// addition where it has not. Derivative arithmetic has no source
// expressions; contractDerivativeArithmetic treats each tangent as one: an
// fadd or fsub of the derivative code whose operand is a product of the
// derivative code used only there becomes an `llvm.fmuladd`, as in a
// hand-written tangent. The primal's own arithmetic, cloned into the
// derivative, is never touched (its results stay those of the primal).
// Forward mode contracts its tangents as it emits them; reverse mode its
// adjoint sums (AdjointSumMetadata) once the reverse sweep is simplified,
// after keepAccumulationsInRegisters has matched its `*p = *p + v`.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CONTRACTARITHMETIC_H
#define ADCORE_CONTRACTARITHMETIC_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace adcore {

/// Contracts products into the additions and subtractions that use them in
/// \p F, among the instructions \p IsDerivativeCode accepts (both the
/// product and its user). Returns the number of multiply-adds made.
/// \p IsDerivativeCode may accept a product of the primal's arithmetic
/// recomputed for the derivative: used only by the sum, it is the
/// derivative's.
unsigned contractDerivativeArithmetic(
    llvm::Function &F,
    llvm::function_ref<bool(const llvm::Instruction &)> IsDerivativeCode);

} // namespace adcore

#endif // ADCORE_CONTRACTARITHMETIC_H
