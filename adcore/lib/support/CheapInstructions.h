//===- CheapInstructions.h - What is cheap to compute again -*- C++ -*-===//
//
// Shared by the rewrites that compute values a second time instead of
// keeping them: the reverse sweep's recomputation (reverse/Recompute.cpp)
// and the gathering of stencil adjoints (GatheredUpdates.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CHEAPINSTRUCTIONS_H
#define ADCORE_CHEAPINSTRUCTIONS_H

#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace adcore {

/// Cheap instructions without side effects that the reverse sweep may
/// execute again with the same operands (and so the same result): integer,
/// pointer and floating-point arithmetic without calls to libm (whose
/// results are recorded: recomputing them costs more than reading them).
inline bool isCheapPure(const llvm::Instruction &I) {
  using namespace llvm;
  if (I.mayHaveSideEffects() || I.mayReadFromMemory())
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::fabs:
    case Intrinsic::copysign:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
      return true;
    default:
      return false;
    }
  }
  if (isa<BinaryOperator>(I)) {
    // Integer division is as cheap to redo as to read back; it cannot trap
    // on operands the augmented sweep divided already.
    return true;
  }
  return isa<UnaryOperator, CastInst, GetElementPtrInst, CmpInst, SelectInst>(
             I) &&
         !isa<AddrSpaceCastInst>(I);
}

} // namespace adcore

#endif // ADCORE_CHEAPINSTRUCTIONS_H
