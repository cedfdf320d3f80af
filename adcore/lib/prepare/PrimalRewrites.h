//===- PrimalRewrites.h - Shared by the primal rewrites -*- C++ -*-===//
//-*-===//
//
// What the rewrites of the primal before differentiation (SIMD idioms read
// as floating-point IR: X86Intrinsics.cpp, SignMasks.cpp, FloatShuffles.cpp,
// ...) share. At -O0 every value goes through a local variable: stored,
// then loaded just after; lastStoredValue looks through such a pair and
// evaluateConstant folds constants built through such variables.
// rewriteEach runs a rewrite over the instructions of one kind, and
// replaceRewritten puts its result in place.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_PRIMALREWRITES_H
#define ADCORE_PRIMALREWRITES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

namespace adcore {

/// What \p V holds: when it is a load, the value stored to the same
/// address earlier in its block with no other write to it between (stores
/// to other local variables do not count), following copies of a whole
/// local variable into it (the by-value arguments of always-inlined
/// functions at -O0); else \p V.
inline llvm::Value *lastStoredValue(llvm::Value *V) {
  using namespace llvm;
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return V;
  const Value *Ptr = LI->getPointerOperand();
  const DataLayout &DL = LI->getDataLayout();
  for (Instruction *I = LI->getPrevNode(); I; I = I->getPrevNode()) {
    auto *SI = dyn_cast<StoreInst>(I);
    if (SI && SI->getPointerOperand() == Ptr)
      return SI->getValueOperand()->getType() == LI->getType()
                 ? SI->getValueOperand()
                 : V;
    // (Two different local variables do not overlap.)
    const Value *Written = SI ? SI->getPointerOperand() : nullptr;
    if (auto *MC = dyn_cast<MemCpyInst>(I)) {
      auto *Len = dyn_cast<ConstantInt>(MC->getLength());
      if (MC->getDest() == Ptr && isa<AllocaInst>(MC->getSource()) && Len &&
          Len->getZExtValue() == DL.getTypeStoreSize(LI->getType())) {
        Ptr = MC->getSource(); // what was stored to the copy's source
        continue;
      }
      Written = MC->getDest();
    }
    if (Written && isa<AllocaInst>(Written) && isa<AllocaInst>(Ptr) &&
        Written != Ptr)
      continue;
    if (I->mayWriteToMemory())
      return V;
  }
  return V;
}

/// The constant \p V computes from constants alone, through bitcasts,
/// insertelement and, at -O0, local variables (`_mm_setr_epi32(...)` in
/// C), \p Depth steps deep; or null.
inline llvm::Constant *evaluateConstant(llvm::Value *V, unsigned Depth) {
  using namespace llvm;
  // (A value copied from variable to variable.)
  for (Value *Stored; (Stored = lastStoredValue(V)) != V;)
    V = Stored;
  if (auto *C = dyn_cast<Constant>(V))
    return C;
  if (Depth == 0)
    return nullptr;
  if (auto *BC = dyn_cast<BitCastInst>(V)) {
    Constant *C = evaluateConstant(BC->getOperand(0), Depth - 1);
    return C ? ConstantFoldCastOperand(Instruction::BitCast, C, BC->getType(),
                                       BC->getDataLayout())
             : nullptr;
  }
  if (auto *IE = dyn_cast<InsertElementInst>(V)) {
    Constant *Vec = evaluateConstant(IE->getOperand(0), Depth - 1);
    Constant *Elt = evaluateConstant(IE->getOperand(1), Depth - 1);
    auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2));
    if (!Vec || !Elt || !Idx)
      return nullptr;
    auto *VT = cast<FixedVectorType>(Vec->getType());
    if (Idx->getZExtValue() >= VT->getNumElements())
      return nullptr;
    SmallVector<Constant *, 8> Elts;
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Elts.push_back(I == Idx->getZExtValue() ? Elt
                                              : Vec->getAggregateElement(I));
    return ConstantVector::get(Elts);
  }
  return nullptr;
}

/// Calls \p Rewrite on each instruction of type \p T in \p F (collected
/// first), skipping those that an earlier rewrite erased; returns whether
/// any call returned true.
template <class T, class Fn> bool rewriteEach(llvm::Function &F, Fn Rewrite) {
  using namespace llvm;
  SmallVector<WeakTrackingVH, 32> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isa<T>(&I))
        Work.push_back(&I);
  bool Changed = false;
  for (WeakTrackingVH &V : Work)
    if (auto *I = dyn_cast_or_null<T>(V))
      Changed |= Rewrite(*I);
  return Changed;
}

/// Replaces the instruction \p I by \p New (the same bits, computed
/// otherwise), which takes its name, and erases \p I with the operands
/// nothing else reads any more (the integer operations on bits, a constant
/// index loaded at -O0).
inline void replaceRewritten(llvm::Instruction &I, llvm::Value *New) {
  using namespace llvm;
  if (isa<Instruction>(New))
    New->takeName(&I);
  I.replaceAllUsesWith(New);
  SmallVector<Value *, 4> Ops(I.operands());
  I.eraseFromParent();
  for (Value *Op : Ops)
    RecursivelyDeleteTriviallyDeadInstructions(Op);
}

} // namespace adcore

#endif // ADCORE_PRIMALREWRITES_H
