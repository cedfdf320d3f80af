//===- RestrictParameters.cpp - C's rule for restrict ---------------------===//

#include "support/RestrictParameters.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

bool modifiedThrough(const Value *Root, unsigned Depth) {
  SmallVector<const Value *, 16> Work{Root};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(I)) {
        Work.push_back(I);
      } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() == SI->getPointerOperandIndex())
          return true;
        // (Copied into a stack slot at -O0: followed through the slot's
        // loads.)
        const auto *Slot =
            dyn_cast<AllocaInst>(getUnderlyingObject(SI->getPointerOperand()));
        if (!Slot)
          continue;
        SmallVector<const Value *, 4> Casts{Slot};
        while (!Casts.empty())
          for (const User *SU : Casts.pop_back_val()->users())
            if (isa<LoadInst>(SU) && SU->getType()->isPointerTy())
              Work.push_back(SU);
            else if (isa<AddrSpaceCastInst, BitCastInst>(SU))
              Casts.push_back(SU);
      } else if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I)) {
        if (U.getOperandNo() == 0)
          return true;
      } else if (const auto *MI = dyn_cast<MemIntrinsic>(I)) {
        if (U.get() == MI->getRawDest())
          return true;
      } else if (const auto *Call = dyn_cast<CallBase>(I)) {
        const Function *Callee = Call->getCalledFunction();
        if (Depth && Callee && !Callee->isDeclaration() &&
            Call->isArgOperand(&U) &&
            Call->getArgOperandNo(&U) < Callee->arg_size() &&
            modifiedThrough(Callee->getArg(Call->getArgOperandNo(&U)),
                            Depth - 1))
          return true;
      }
    }
  }
  return false;
}

} // namespace

bool modifiedThrough(const Argument &A) { return modifiedThrough(&A, 4); }

bool restrictKeepsApart(const Argument &A, const Argument *B, bool Modified) {
  return Modified && (A.hasNoAliasAttr() || (B && B->hasNoAliasAttr()));
}

} // namespace adcore
