//===- DeadLocals.cpp - Local variables nothing reads --------------------===//
//
// At -O0 every value passes through local variables, and a by-value
// argument of an always-inlined function through a copy of one (memcpy).
// When a rewrite of the primal (X86Intrinsics.cpp: a permute with a
// constant index becomes a shuffle) no longer reads a value, the variables
// it went through are still written: stores and copies of data the
// analyses would have to type for nothing (an index vector of integers in
// a __m256i slot, which could as well hold doubles). A local variable that
// is only written (stores to it, copies into it, lifetime markers) is
// removed with its writes; the loads and copies that fed them may then
// leave other variables only written, and so on.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

/// True when every use of \p AI writes to it (or marks its lifetime).
bool onlyWritten(const AllocaInst &AI) {
  return all_of(AI.uses(), [&](const Use &U) {
    const User *Usr = U.getUser();
    if (const auto *SI = dyn_cast<StoreInst>(Usr))
      return SI->getPointerOperand() == &AI && SI->isSimple();
    if (const auto *MC = dyn_cast<MemCpyInst>(Usr))
      return MC->getDest() == &AI && MC->getSource() != &AI &&
             !MC->isVolatile();
    if (const auto *II = dyn_cast<IntrinsicInst>(Usr))
      return II->isLifetimeStartOrEnd();
    return false;
  });
}

} // namespace

bool removeDeadLocals(Function &F) {
  bool Changed = false;
  for (bool Again = true; Again;) {
    Again = false;
    SmallVector<AllocaInst *, 16> Dead;
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && onlyWritten(*AI))
        Dead.push_back(AI);
    for (AllocaInst *AI : Dead) {
      SmallVector<Instruction *, 8> Writes;
      for (User *U : AI->users())
        Writes.push_back(cast<Instruction>(U));
      for (Instruction *W : Writes) {
        // What it wrote (a loaded value, a copy's source) may now be
        // unused.
        SmallVector<Value *, 4> Ops;
        for (Value *Op : W->operands())
          if (Op != AI)
            Ops.push_back(Op);
        W->eraseFromParent();
        for (Value *Op : Ops)
          RecursivelyDeleteTriviallyDeadInstructions(Op);
      }
      AI->eraseFromParent();
      Again = Changed = true;
    }
  }
  return Changed;
}

} // namespace adcore
