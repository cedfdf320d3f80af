//===- SlotAddresses.cpp - Addresses into a stack slot --------------------===//
//
// See SlotAddresses.h.
//
//===----------------------------------------------------------------------===//

#include "SlotAddresses.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

/// Whether \p AI is only loaded from and stored into (and marked by
/// lifetime markers and debug records).
static bool onlyLoadedAndStored(const AllocaInst &AI) {
  return all_of(AI.users(), [&](const User *U) {
    if (isa<LoadInst>(U) || isa<DbgInfoIntrinsic>(U))
      return true;
    if (const auto *II = dyn_cast<IntrinsicInst>(U))
      return II->isLifetimeStartOrEnd();
    const auto *SI = dyn_cast<StoreInst>(U);
    return SI && SI->getPointerOperand() == &AI &&
           SI->getValueOperand() != &AI;
  });
}

void SlotAddresses::followLoad(const LoadInst &LI, bool HoldsOwnAddress,
                               SmallVectorImpl<const Value *> &Work) {
  if (HoldsOwnAddress && LI.getType()->isPointerTy() &&
      Addresses.insert(&LI).second)
    Work.push_back(&LI);
}

bool SlotAddresses::followCommonUse(const User &U, bool HoldsOwnAddress,
                                    SmallVectorImpl<const Value *> &Work) {
  if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
          SelectInst>(U)) {
    if (Addresses.insert(&U).second)
      Work.push_back(&U);
    return true;
  }
  if (const auto *LI = dyn_cast<LoadInst>(&U)) {
    followLoad(*LI, HoldsOwnAddress, Work);
    return true;
  }
  return isa<ICmpInst>(U);
}

bool SlotAddresses::followHolderStore(const StoreInst &SI,
                                      SmallVectorImpl<const Value *> &Work) {
  const auto *AI = dyn_cast<AllocaInst>(SI.getPointerOperand());
  if (!AI || !onlyLoadedAndStored(*AI))
    return false;
  if (Holders.insert(AI).second)
    for (const User *H : AI->users())
      if (isa<LoadInst>(H) && Addresses.insert(H).second)
        Work.push_back(H);
  return true;
}

bool SlotAddresses::holdersHoldOnlyAddresses() const {
  return all_of(Holders, [&](const AllocaInst *AI) {
    return all_of(AI->users(), [&](const User *U) {
      const auto *SI = dyn_cast<StoreInst>(U);
      return !SI || Addresses.contains(SI->getValueOperand());
    });
  });
}

} // namespace adcore
