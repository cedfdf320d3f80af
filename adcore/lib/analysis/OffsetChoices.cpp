//===- OffsetChoices.cpp - Pointers chosen among offsets -----------------===//
//
// See OffsetChoices.h.
//
//===----------------------------------------------------------------------===//

#include "OffsetChoices.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {

/// The most elements "every element" becomes within a window.
constexpr int64_t MaxSpreadElements = 64;

MemoryLayout windowed(MemoryLayout L, int64_t Window) {
  if (Window < 0)
    return L;
  L.erase(L.lower_bound(Window), L.end());
  auto Every = L.find(-1);
  if (Every == L.end() ||
      (Every->second != Kind::Double && Every->second != Kind::Float))
    return L;
  Kind K = Every->second;
  int64_t Size = K == Kind::Double ? 8 : 4;
  // (A wide window keeps "every element": the layout stays small.)
  if (Window / Size > MaxSpreadElements)
    return L;
  L.erase(Every);
  for (int64_t At = 0; At + Size <= Window; At += Size)
    L.emplace(At, K);
  return L;
}

int64_t smallestGap(SmallVector<int64_t, 4> Offsets) {
  llvm::sort(Offsets);
  int64_t Gap = -1;
  for (size_t K = 1; K < Offsets.size(); ++K)
    if (int64_t D = Offsets[K] - Offsets[K - 1]; D > 0 && (Gap < 0 || D < Gap))
      Gap = D;
  return Gap;
}

bool constantOffsetChoices(const GEPOperator &GEP, const DataLayout &DL,
                           SmallVectorImpl<int64_t> &Offsets) {
  if (GEP.getNumIndices() != 1)
    return false;
  Type *Source = GEP.getSourceElementType();
  TypeSize Size = DL.getTypeAllocSize(Source);
  if (Size.isScalable())
    return false;
  const Value *Idx = GEP.getOperand(1);
  SmallVector<const Value *, 4> Choices;
  if (auto *Sel = dyn_cast<SelectInst>(Idx))
    Choices = {Sel->getTrueValue(), Sel->getFalseValue()};
  else if (auto *Phi = dyn_cast<PHINode>(Idx);
           Phi && Phi->getNumIncomingValues() <= 4)
    Choices.append(Phi->incoming_values().begin(),
                   Phi->incoming_values().end());
  else
    return false;
  for (const Value *C : Choices) {
    auto *CI = dyn_cast<ConstantInt>(C);
    if (!CI || CI->getBitWidth() > 64)
      return false;
    Offsets.push_back(CI->getSExtValue() * int64_t(Size.getFixedValue()));
  }
  return true;
}

int64_t choiceWindow(ArrayRef<const Value *> Ins, const DataLayout &DL) {
  const Value *Base = nullptr;
  SmallVector<int64_t, 4> Offsets;
  for (const Value *In : Ins) {
    if (!In->getType()->isPointerTy() || isa<Constant>(In))
      return -1;
    APInt Off(DL.getIndexTypeSizeInBits(In->getType()), 0);
    const Value *B = In->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    // (At -O0 each branch loads the base again from its local variable,
    // stored once: the same base.)
    if (auto *LI = dyn_cast<LoadInst>(B))
      if (auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand());
          Slot && count_if(Slot->users(), [](const User *U) {
                    return isa<StoreInst>(U);
                  }) == 1)
        B = Slot;
    if (Base && B != Base)
      return -1;
    Base = B;
    Offsets.push_back(Off.getSExtValue());
  }
  return smallestGap(Offsets);
}

} // namespace adcore
