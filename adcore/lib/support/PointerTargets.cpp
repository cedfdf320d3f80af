//===- PointerTargets.cpp - Tests of called pointers ---------------------===//
//
// See support/PointerTargets.h.
//
//===----------------------------------------------------------------------===//

#include "support/PointerTargets.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

Value *pointsToTarget(IRBuilder<> &B, Value *Target, Function *F) {
  Value *Same = B.CreateICmpEQ(Target, F);
  if (!F->hasLocalLinkage() || !F->getName().starts_with(LibraryPointerPrefix))
    return Same;
  // (The wrapper's one call is of the library function.)
  for (Instruction &I : F->getEntryBlock())
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Library = Call->getCalledFunction();
          Library && Library->isDeclaration())
        return B.CreateOr(Same, B.CreateICmpEQ(Target, Library));
  return Same;
}

} // namespace adcore
