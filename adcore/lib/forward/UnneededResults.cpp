//===- UnneededResults.cpp - Primal results the caller does not want -----===//
//
// An argument passed `enzyme_dupnoneed` (DualOnly) promises that the caller
// wants only the tangents written through it, not the primal values. When
// the function only writes through that pointer (its parameter is
// `writeonly`, as LLVM infers for an output array) and keeps no copy of it
// (`captures(none)`), nothing in the function reads those values back: the
// derivative drops the primal's stores into that memory, and the code that
// computed only them is removed as dead. A callee handed such a pointer
// gets the same request for it, when its own parameter is of that kind.
// Without the attributes (at -O0, or when the function reads the memory
// back) the primal values are still stored: the result is the same, only
// slower.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

namespace {

/// Whether the function only writes through parameter \p A and keeps no
/// copy of it.
bool onlyWrittenThrough(const Argument &A) {
  return A.getType()->isPointerTy() && A.hasAttribute(Attribute::WriteOnly) &&
         A.hasNoCaptureAttr();
}

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

void ForwardEmitter::noteUnneededResult(const Argument &PrimalArg,
                                        Argument &CloneArg) {
  if (Key.Args[PrimalArg.getArgNo()] == ArgActivity::DupNoNeed &&
      onlyWrittenThrough(PrimalArg))
    UnneededArgs.insert(&CloneArg);
}

bool ForwardEmitter::pointsToUnneeded(const Value *Ptr) const {
  if (UnneededArgs.empty())
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() && all_of(Objects, [&](const Value *O) {
    return UnneededArgs.contains(O);
  });
}

bool ForwardEmitter::unneededCalleeArgument(const Value *Ptr,
                                            const Function *Callee,
                                            unsigned ArgNo) const {
  // (A callee of another file is requested by its key there: only callees
  // defined here get the narrower request.)
  return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
         ArgNo < Callee->arg_size() &&
         onlyWrittenThrough(*Callee->getArg(ArgNo)) && pointsToUnneeded(Ptr);
}

void ForwardEmitter::collectUnneededWrites() {
  if (UnneededArgs.empty())
    return;
  for (BasicBlock &BB : Derivative)
    for (Instruction &I : BB)
      if (const Value *Ptr = writtenAddress(I); Ptr && pointsToUnneeded(Ptr))
        UnneededWrites.push_back(&I);
}

void ForwardEmitter::dropUnneededWrites() {
  for (Instruction *I : UnneededWrites)
    I->eraseFromParent();
  UnneededWrites.clear();
}

} // namespace adcore
