//===- ExternalBlocks.cpp - Memory a function of another file returns ----===//
//
// A function defined in another file that returns a pointer, called with
// arguments without derivatives (`w = workspace_alloc(n)`, GSL's
// gsl_vector_alloc, a spline's alloc), may return a block it allocated:
// what the caller then stores into it, or passes it to with values that
// have derivatives, needs the block's shadow. Its body is not here, so the
// call's result is taken as active when its memory receives derivatives
// in this function: the link-time derivative of the callee (made where
// its body is known) returns the shadow. Otherwise the call stays
// constant, as before (a string or a handle the caller only reads).
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool ActivityAnalysis::externalBlockReceivesDerivatives(
    const CallBase &Call) const {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic() ||
      !Call.getType()->isPointerTy())
    return false;
  SmallVector<const Value *, 16> Work{&Call};
  SmallPtrSet<const Value *, 32> Seen;
  auto Inactive = [&](const Function *G) {
    return G && (isKnownInactiveFunction(*G) || (Rules && Rules->isInactive(G)));
  };
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second || Seen.size() > 64)
      continue;
    for (const User *U : P->users()) {
      if (isa<BitCastInst, AddrSpaceCastInst, PHINode, SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        if (GEP->getPointerOperand() == P)
          Work.push_back(GEP);
        continue;
      }
      // A pointer field of the block (`w->a`): its memory too.
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (LI->getType()->isPointerTy())
          Work.push_back(LI);
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        const Value *V = SI->getValueOperand();
        if (SI->getPointerOperand() == P && V != P) {
          if (Active.contains(V) && canCarryDerivative(V->getType()))
            return true;
          continue;
        }
        // The address kept in a local variable (-O0): its loads; kept in
        // memory with shadows, it needs its shadow there.
        const Value *To = SI->getPointerOperand()->stripPointerCasts();
        if (const auto *Slot = dyn_cast<AllocaInst>(To)) {
          for (const User *SU : Slot->users())
            if (isa<LoadInst>(SU))
              Work.push_back(SU);
          continue;
        }
        if (Active.contains(SI->getPointerOperand()))
          return true;
        continue;
      }
      const auto *C = dyn_cast<CallBase>(U);
      if (!C || isa<DbgInfoIntrinsic>(C))
        continue;
      if (const auto *MT = dyn_cast<MemTransferInst>(C)) {
        if (MT->getRawDest() == P && Active.contains(MT->getRawSource()))
          return true;
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(C);
          II && II->isLifetimeStartOrEnd())
        continue;
      if (Inactive(C->getCalledFunction()))
        continue;
      // Given to a function with values that have derivatives, which may
      // store them into it.
      if (any_of(C->args(), [&](const Use &A) {
            return A.get() != P && Active.contains(A.get());
          }))
        return true;
    }
  }
  return false;
}

} // namespace adcore
