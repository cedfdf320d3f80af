//===- RecurrenceOrder.cpp - Vectorizable order of loop-carried adjoints -===//
//
// A primal loop that reuses a value loaded in the previous iteration (GVN
// turns `u[i-1] ... u[i] ... u[i+1]` into one load and a header phi) gets a
// reverse loop whose adjoint of that phi is carried to the next reverse
// iteration. The reverse sweep visits the primal's instructions backwards,
// so the carried adjoint is complete only after the instructions that use
// the incoming one: the `+=` into the shadow, a load and a store. The loop
// vectorizer accepts such a fixed-order recurrence only when the carried
// value dominates every user of the phi or those users can be sunk below it,
// and it never sinks a store. Stencils' reverse loops therefore stayed
// scalar.
//
// The fix is to compute the carried value earlier: its operand tree below
// the phi's first user holds only arithmetic (and loads that no store
// between can change), so it moves above that user. Nothing else moves; the
// values computed are the same.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

/// Instructions that may move upwards within their block: no memory, no
/// side effects, no control.
bool isPure(const Instruction &I) {
  return !isa<PHINode>(I) && !I.isTerminator() && !I.mayReadOrWriteMemory() &&
         !I.mayHaveSideEffects() && !I.isEHPad();
}

/// Whether any instruction in [From, To) may write memory.
bool writesBetween(Instruction *From, Instruction *To) {
  for (auto It = From->getIterator(); &*It != To; ++It)
    if (It->mayWriteToMemory())
      return true;
  return false;
}

/// The first instruction of \p BB that uses \p Phi, or null when a user
/// lives in another block.
Instruction *firstUserInBlock(PHINode &Phi, BasicBlock &BB) {
  SmallPtrSet<const Instruction *, 8> Users;
  for (User *U : Phi.users()) {
    auto *I = cast<Instruction>(U);
    if (I->getParent() != &BB || isa<PHINode>(I))
      return nullptr;
    Users.insert(I);
  }
  for (Instruction &I : BB)
    if (Users.count(&I))
      return &I;
  return nullptr;
}

/// Moves the operand tree of \p Prev that lies below \p First above it, if
/// that tree can move: it does not depend on \p Phi and holds only pure
/// instructions and loads with no write between \p First and them.
bool hoistAbove(Instruction *Prev, Instruction *First, PHINode &Phi) {
  BasicBlock *BB = First->getParent();
  SmallPtrSet<Instruction *, 16> Below; // instructions at or after First
  for (auto It = First->getIterator(); It != BB->end(); ++It)
    Below.insert(&*It);

  SmallPtrSet<Instruction *, 16> Move;
  SmallVector<Instruction *, 16> Work{Prev};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Below.count(I) || !Move.insert(I).second)
      continue;
    if (I == First || I == &Phi)
      return false;
    bool Movable =
        isPure(*I) || (isa<LoadInst>(I) && cast<LoadInst>(I)->isSimple() &&
                       !writesBetween(First, I));
    if (!Movable)
      return false;
    for (Value *Op : I->operands()) {
      if (Op == &Phi)
        return false;
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Work.push_back(OpI);
    }
  }
  // Keep the moved instructions in their original order.
  for (auto It = First->getIterator(); It != BB->end();) {
    Instruction *I = &*It++;
    if (Move.count(I))
      I->moveBefore(First->getIterator());
  }
  return true;
}

} // namespace

bool orderRecurrenceUpdates(Function &F) {
  if (F.isDeclaration())
    return false;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch)
      continue;
    for (PHINode &Phi : L->getHeader()->phis()) {
      auto *Prev = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Latch));
      if (!Prev || !L->contains(Prev) || isa<PHINode>(Prev))
        continue;
      Instruction *First = firstUserInBlock(Phi, *Prev->getParent());
      if (!First || !First->comesBefore(Prev))
        continue;
      Changed |= hoistAbove(Prev, First, Phi);
    }
  }
  return Changed;
}

} // namespace adcore
