//===- SlotValues.cpp - What a local slot written once holds --------------===//

#include "SlotValues.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

const Value *onlyStoredValue(const Value *Slot) {
  const auto *AI = dyn_cast<AllocaInst>(Slot->stripPointerCasts());
  if (!AI)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : AI->users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != AI || Stored)
      return nullptr;
    Stored = SI->getValueOperand();
  }
  return Stored;
}

} // namespace adcore
