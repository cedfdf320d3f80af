//===- HeapRoots.cpp - Heap blocks allocated by the function -------------===//
//
// A table of pointers that a function allocates and fills with pointers
// into constant memory (`tab[l] = W + l * n * n` for an enzyme_const W)
// holds no derivative, just as a stack array filled that way does. Taken
// to receive anything, the pointers read back from it were active, their
// shadows the null ones the derivative stores for pointers without shadow,
// and the reverse sweep added adjoints at address 0. So a block from
// malloc, calloc, aligned_alloc or operator new is a root of local memory
// like an alloca: clean until an active value is stored or copied into it
// or its address escapes (free does not count). At -O0 its address lives
// in a local variable that holds nothing else; loads of that variable
// point into the block too.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// A fresh block whose contents the function itself decides
/// (isFreshAllocation).
bool isFreshHeapBlock(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && isFreshAllocation(classifyMemoryFunction(*Callee));
}

/// The local variable \p S stores \p Block into, when that variable holds
/// nothing but \p Block (or null) and is only loaded: `double **tab =
/// malloc(...)` at -O0. Null otherwise.
const AllocaInst *holderSlot(const StoreInst &S, const CallBase &Block) {
  const auto *Slot = dyn_cast<AllocaInst>(S.getPointerOperand());
  if (!Slot || S.getValueOperand() != &Block || !S.isSimple())
    return nullptr;
  for (const User *U : Slot->users()) {
    if (const auto *LI = dyn_cast<LoadInst>(U)) {
      if (!LI->isSimple() || !LI->getType()->isPointerTy())
        return nullptr;
      continue;
    }
    if (const auto *Other = dyn_cast<StoreInst>(U)) {
      const Value *V = Other->getValueOperand();
      if (Other->getPointerOperand() != Slot ||
          (V != &Block && !isa<ConstantPointerNull>(V)))
        return nullptr;
      continue;
    }
    if (const auto *II = dyn_cast<IntrinsicInst>(U);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    return nullptr;
  }
  return Slot;
}

} // namespace

void ActivityAnalysis::addHeapRoots() {
  for (Instruction &I : instructions(F)) {
    auto *Block = dyn_cast<CallBase>(&I);
    if (!Block || !isFreshHeapBlock(*Block))
      continue;
    // (Also through the local variable that holds the block's address.)
    addRoot(*Block, [&](const User &U, SmallVectorImpl<const Value *> &Work) {
      const auto *S = dyn_cast<StoreInst>(&U);
      const AllocaInst *Slot = S ? holderSlot(*S, *Block) : nullptr;
      if (!Slot)
        return;
      HolderStores.insert(S);
      for (const User *SU : Slot->users())
        if (isa<LoadInst>(SU))
          Work.push_back(SU);
    });
  }
}

} // namespace adcore
