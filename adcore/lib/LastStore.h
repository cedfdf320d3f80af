//===- LastStore.h - The value a load reads back (private) -----*- C++ -*-===//
//
// At -O0 every value goes through a local variable: stored, then loaded
// just after. The rewrites of the primal before differentiation
// (KnownAsm.cpp, SignMasks.cpp) look through such a pair.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_LASTSTORE_H
#define ADCORE_LASTSTORE_H

#include "llvm/IR/Instructions.h"

namespace adcore {

/// What \p V holds: when it is a load, the value stored to the same
/// address earlier in its block with no other write to it between (stores
/// to other local variables do not count); else \p V.
inline llvm::Value *lastStoredValue(llvm::Value *V) {
  auto *LI = llvm::dyn_cast<llvm::LoadInst>(V);
  if (!LI)
    return V;
  const llvm::Value *Ptr = LI->getPointerOperand();
  for (llvm::Instruction *I = LI->getPrevNode(); I; I = I->getPrevNode()) {
    auto *SI = llvm::dyn_cast<llvm::StoreInst>(I);
    if (SI && SI->getPointerOperand() == Ptr)
      return SI->getValueOperand()->getType() == LI->getType()
                 ? SI->getValueOperand()
                 : V;
    // (Two different local variables do not overlap.)
    if (SI && llvm::isa<llvm::AllocaInst>(SI->getPointerOperand()) &&
        llvm::isa<llvm::AllocaInst>(Ptr))
      continue;
    if (I->mayWriteToMemory())
      return V;
  }
  return V;
}

} // namespace adcore

#endif // ADCORE_LASTSTORE_H
