//===- InvariantTrips.cpp - Trip counts known before a loop nest ---------===//
//
// A counted loop records its trip count at the exit taken, once per run.
// When the count is the same for every run of the loop inside an outer
// counted loop (`for k ... for j < d`: d iterations each time), it is
// computed once before the outermost such loop (from the scalar evolution
// of the count) and recorded with that loop's exit values; the reverse
// sweep reads it from there whenever it enters the inner loop. Short inner
// loops (GMM's loops over the dimension) then record nothing per run.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace adcore {

void ReverseEmitter::planInvariantTrips() {
  // Loops inside another counted loop only: a loop at the top records its
  // count once per run anyway.
  SmallVector<Loop *, 8> Inner;
  for (auto &[H, CL] : CountedLoops) {
    Loop *L = AugLoops->getLoopFor(H);
    if (L && L->getParentLoop() &&
        CountedLoops.count(L->getParentLoop()->getHeader()))
      Inner.push_back(L);
  }
  if (Inner.empty())
    return;
  ScalarEvolution &SE = augmentedSCEV();
  SCEVExpander Expander(SE, "adcc.trips");
  Type *I64 = Type::getInt64Ty(Aug.getContext());
  for (Loop *L : Inner) {
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Taken))
      continue;
    // The outermost counted loop around L in which the count is invariant
    // and can be computed on entry.
    Loop *Outer = nullptr;
    for (Loop *P = L->getParentLoop(); P; P = P->getParentLoop()) {
      auto It = CountedLoops.find(P->getHeader());
      if (It == CountedLoops.end() || !SE.isLoopInvariant(Taken, P) ||
          !Expander.isSafeToExpandAt(Taken,
                                     It->second.Entering->getTerminator()))
        break;
      Outer = P;
    }
    if (!Outer)
      continue;
    BasicBlock *OH = Outer->getHeader();
    Value *Count =
        Expander.expandCodeFor(SE.getTruncateOrZeroExtend(Taken, I64), I64,
                               CountedLoops[OH].Entering->getTerminator());
    InvariantRecords[OH].insert(Count);
    InvariantTrips[L->getHeader()] = {OH, Count};
  }
  Expander.clear();
  // The exits record the other counts only (and the exit values of all).
  for (auto &[Mid, Headers] : ExitCounts)
    for (BasicBlock *H : Headers)
      if (InvariantTrips.count(H))
        TripsAt[Mid].push_back(H);
}

void ReverseEmitter::readInvariantTrips(BasicBlock &BB) {
  for (BasicBlock *H : TripsAt.lookup(&BB)) {
    auto [Outer, Count] = InvariantTrips.lookup(H);
    RB.CreateStore(RB.CreateLoad(RB.getInt64Ty(), hoistSlot(Outer, Count)),
                   CountedLoops[H].RevCount);
  }
}

} // namespace adcore
