//===- ThreadLocalAddresses.cpp - Thread-local globals by name -----------===//
//
// Clang reads the address of a thread-local variable (`thread_local`,
// `_Thread_local`, `__thread`) through llvm.threadlocal.address(@g), which
// only says "this thread's copy of @g" to passes that could move the address
// across a switch of threads (coroutines). A function that is not a
// coroutine never changes threads, so there the call means @g itself: it is
// replaced by its operand, and the derivative then finds the global, whose
// shadow is a thread-local global too (GlobalShadows.cpp): each thread
// accumulates the derivatives of its own copy, as the primal keeps its own
// values.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool useThreadLocalsByName(Function &F) {
  // (A coroutine may resume on another thread: its reads keep the call.)
  if (F.isPresplitCoroutine())
    return false;
  SmallVector<IntrinsicInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
        Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    II->replaceAllUsesWith(II->getArgOperand(0));
    II->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace adcore
