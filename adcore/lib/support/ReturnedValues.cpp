//===- ReturnedValues.cpp - Values a function only returns ----------------===//

#include "support/ReturnedValues.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

bool onlyReturned(const Value &V, unsigned Depth);

/// Whether every load of the stack slot \p Slot (through its casts) is
/// only returned, and nothing but stores of \p Stored and lifetime markers
/// use it otherwise.
bool slotOnlyReturned(const AllocaInst &Slot, const Value &Stored,
                      unsigned Depth) {
  SmallVector<const Value *, 4> Work{&Slot};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<AddrSpaceCastInst, BitCastInst>(U))
        Work.push_back(U);
      else if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (!onlyReturned(*LI, Depth - 1))
          return false;
      } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() != &Stored || SI->getPointerOperand() != P)
          return false;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(U);
                 !II || !II->isLifetimeStartOrEnd()) {
        return false;
      }
    }
  }
  return true;
}

bool onlyReturned(const Value &V, unsigned Depth) {
  if (V.use_empty() || Depth == 0)
    return false;
  for (const User *U : V.users()) {
    if (isa<ReturnInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    const auto *Slot =
        SI && SI->getValueOperand() == &V
            ? dyn_cast<AllocaInst>(getUnderlyingObject(SI->getPointerOperand()))
            : nullptr;
    if (!Slot || !slotOnlyReturned(*Slot, V, Depth))
      return false;
  }
  return true;
}

} // namespace

bool onlyReturned(const Value &V) { return onlyReturned(V, 3); }

} // namespace adcore
