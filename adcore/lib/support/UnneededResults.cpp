//===- UnneededResults.cpp - Primal results the caller does not want -----===//
//
// See UnneededResults.h. Used by forward mode (the tangent function) and
// reverse mode (the augmented sweep).
//
//===----------------------------------------------------------------------===//

#include "UnneededResults.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool onlyWrittenThrough(const Argument &A) {
  return A.getType()->isPointerTy() && A.hasAttribute(Attribute::WriteOnly) &&
         A.hasNoCaptureAttr();
}

std::optional<DerivativeKey> withoutIdleNoNeed(const DerivativeKey &Key) {
  const Function *P = Key.Primal;
  if (!P || P->isDeclaration() || Key.Split)
    return std::nullopt;
  std::optional<DerivativeKey> Dup;
  for (unsigned I = 0; I < Key.Args.size() && I < P->arg_size(); ++I)
    if (Key.Args[I] == ArgActivity::DupNoNeed &&
        !onlyWrittenThrough(*P->getArg(I))) {
      if (!Dup)
        Dup = Key;
      Dup->Args[I] = ArgActivity::Dup;
    }
  return Dup;
}

namespace {

/// The address a primal instruction writes primal memory at, for the
/// writes that can be dropped: stores and memory intrinsics.
const Value *writtenAddress(const Instruction &I) {
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() ? Store->getPointerOperand() : nullptr;
  if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    return MI->isVolatile() ? nullptr : MI->getRawDest();
  return nullptr;
}

} // namespace

void UnneededResults::note(const Argument &Primal, ArgActivity A,
                           const Argument &Clone) {
  if (A == ArgActivity::DupNoNeed && onlyWrittenThrough(Primal))
    Args.insert(&Clone);
}

bool UnneededResults::pointsInto(const Value *Ptr) const {
  if (Args.empty())
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() &&
         all_of(Objects, [&](const Value *O) { return Args.contains(O); });
}

ArgActivity UnneededResults::calleeActivity(const Value *Ptr,
                                            const Function *Callee,
                                            unsigned ArgNo) const {
  // (A callee of another file is requested by its key there: only callees
  // defined here get the narrower request.)
  bool NoNeed = Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
                ArgNo < Callee->arg_size() &&
                onlyWrittenThrough(*Callee->getArg(ArgNo)) && pointsInto(Ptr);
  return NoNeed ? ArgActivity::DupNoNeed : ArgActivity::Dup;
}

void UnneededResults::collectWrites(Function &F) {
  if (Args.empty())
    return;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (const Value *Ptr = writtenAddress(I); Ptr && pointsInto(Ptr))
        Writes.push_back(&I);
}

void UnneededResults::dropWrites() {
  // (Derivative code may have replaced some of them meanwhile.)
  for (WeakVH &W : Writes)
    if (auto *I = dyn_cast_or_null<Instruction>(W))
      I->eraseFromParent();
  Writes.clear();
}

} // namespace adcore
