//===- InvariantRecords.cpp - Records hoisted to the exits of loops ------===//
//
// A value that an instruction in a counted loop needs but that is computed
// outside that loop (xc[c] in `for (r = c + 1; r < d; r++) q[r] += l * xc[c]`)
// is the same in every iteration: instead of recording it per iteration it
// is recorded once at each exit of the outermost counted loop it does not
// depend on, beside the loop's trip count. The reverse sweep reads it back
// when it enters that loop (at the exit block) into a slot of its own.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"

using namespace llvm;

namespace adcore {

BasicBlock *ReverseEmitter::invariantLoopFor(Value *V,
                                             const BasicBlock *UseBB) {
  auto *Def = dyn_cast<Instruction>(V);
  if (!Def)
    return nullptr;
  BasicBlock *Best = nullptr;
  for (Loop *L = AugLoops->getLoopFor(UseBB);
       L && !L->contains(Def->getParent()); L = L->getParentLoop())
    if (CountedLoops.count(L->getHeader()))
      Best = L->getHeader();
  return Best;
}

void ReverseEmitter::hoistInvariantRecords() {
  auto &PerLoop = InvariantRecords;
  for (auto &[I, List] : Recorded) {
    SmallVector<Value *, 3> Kept;
    for (Value *V : List) {
      BasicBlock *H = invariantLoopFor(V, I->getParent());
      if (!H) {
        Kept.push_back(V);
        continue;
      }
      PerLoop[H].insert(V);
      Hoisted[I].push_back({H, V});
      eraseRecord(PushOf.lookup({I, V}));
    }
    List = std::move(Kept);
  }
}

void ReverseEmitter::emitInvariantRecords() {
  auto &PerLoop = InvariantRecords;
  // After the trip counts each exit block records.
  for (auto &[Mid, Headers] : ExitCounts) {
    AB.SetInsertPoint(Mid->getTerminator());
    for (BasicBlock *H : Headers) {
      auto It = PerLoop.find(H);
      if (It == PerLoop.end())
        continue;
      for (Value *V : It->second) {
        pushRecord(AB, AugTape, V);
        ExitValues[Mid].push_back({H, V});
      }
    }
  }
}

void ReverseEmitter::readExitValues(BasicBlock &BB) {
  auto It = ExitValues.find(&BB);
  if (It == ExitValues.end())
    return;
  for (auto [H, V] : reverse(It->second))
    RB.CreateStore(popRecord(RB, RevTape, V->getType()), hoistSlot(H, V));
}

AllocaInst *ReverseEmitter::hoistSlot(BasicBlock *Header, Value *V) {
  AllocaInst *&Slot = HoistSlots[{Header, V}];
  if (!Slot) {
    IRBuilder<> EB(RevEntry, RevEntry->begin());
    Slot = EB.CreateAlloca(V->getType(), nullptr, V->getName() + ".inv");
  }
  return Slot;
}

} // namespace adcore
