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
#include "TapeRecords.h"

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
      dropRecord(I, V);
    }
    List = std::move(Kept);
  }
}

void ReverseEmitter::emitExitRecords() {
  // Each exit block records, in one tape record, the trip counts of the
  // counted loops it leaves (innermost first; not those known before the
  // loop nest or rebuilt: InvariantTrips.cpp), then their exit values; in
  // the row of the loop around it where it can (ExitArrays.cpp).
  planExitArrays();
  CycleBlocks Cycles(Aug);
  for (auto &[Mid, Headers] : ExitCounts) {
    SmallVector<Value *, 8> Values;
    exitRecordValues(Mid, Values);
    for (BasicBlock *H : Headers)
      if (auto It = InvariantRecords.find(H); It != InvariantRecords.end())
        for (Value *V : It->second)
          ExitValues[Mid].push_back({H, V});
    AB.SetInsertPoint(Mid->getTerminator());
    if (auto It = ExitArrays.find(Mid); It != ExitArrays.end()) {
      BasicBlock *H = It->second.Header;
      for (auto [V, Offset] : zip(Values, It->second.Offsets))
        storeRecord(AB, V, arrayRow(AB, H, CountedLoops[H].Count, Offset));
      continue;
    }
    MDNode *Tag = Cycles.contains(*Mid) ? nullptr : frameTag();
    ExitBytes[Mid] = pushTogether(AB, Values, Tag);
    ExitTags[Mid] = ExitBytes[Mid] ? Tag : nullptr;
  }
}

void ReverseEmitter::readExitRecords(BasicBlock &BB) {
  auto It = ExitCounts.find(&BB);
  if (It == ExitCounts.end())
    return;
  SmallVector<Value *, 8> Values, Read;
  SmallVector<BasicBlock *, 4> Counted;
  for (BasicBlock *H : It->second)
    if (recordsTripCount(H)) {
      Counted.push_back(H);
      Values.push_back(CountedLoops[H].Count);
    }
  auto Exits = ExitValues.lookup(&BB);
  for (auto [H, V] : Exits)
    Values.push_back(V);
  if (auto EA = ExitArrays.find(&BB); EA != ExitArrays.end()) {
    for (auto [V, Offset] : zip(Values, EA->second.Offsets))
      Read.push_back(arrayRecord({EA->second.Header, V, Offset}));
  } else {
    popTogether(Values, ExitBytes.lookup(&BB), Read, ExitTags.lookup(&BB));
  }
  unsigned K = 0;
  for (BasicBlock *H : Counted)
    RB.CreateStore(Read[K++], CountedLoops[H].RevCount);
  for (auto [H, V] : Exits)
    RB.CreateStore(Read[K++], hoistSlot(H, V));
  // Loads the reverse sweep reads again once per run of the loops it
  // enters here (their addresses are computed outside those loops).
  ReversingBlock = &BB;
  for (BasicBlock *H : It->second) {
    auto Reloads = EntryReloads.find(H);
    if (Reloads == EntryReloads.end())
      continue;
    for (Value *V : Reloads->second)
      RB.CreateStore(reload(*cast<LoadInst>(V)), hoistSlot(H, V));
  }
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
