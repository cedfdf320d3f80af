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
// A count that changes with an outer loop's iteration but follows from it
// (the triangular `for (r = c + 1; r < d; r++)` of a Cholesky factor or of
// GMM: d - c - 1 iterations) is computed before the loop from its scalar
// evolution, in terms of the outer loops' counters, and the reverse sweep
// rebuilds it from its own counters where it enters the loop: nothing is
// recorded for it at all.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> RebuildTrips(
    "adcc-rebuild-trip-counts", cl::init(true), cl::Hidden,
    cl::desc("Rebuild the trip counts of inner loops that follow from an "
             "outer loop's iteration instead of recording them"));

} // namespace

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
  // (Without LCSSA phis: one would replace a pointer used after the loop
  // by a phi that has no shadow.)
  SCEVExpander Expander(SE, "adcc.trips", /*PreserveLCSSA=*/false);
  Type *I64 = Type::getInt64Ty(Aug.getContext());
  for (Loop *L : Inner) {
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Taken) || RebuiltTrips.count(L->getHeader()))
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

void ReverseEmitter::planRebuiltTrips(SetVector<Value *> &Ends) {
  if (!RebuildTrips)
    return;
  ScalarEvolution &SE = augmentedSCEV();
  // (Without LCSSA phis: one would replace a pointer used after the loop
  // by a phi that has no shadow.)
  SCEVExpander Expander(SE, "adcc.trips", /*PreserveLCSSA=*/false);
  Type *I64 = Type::getInt64Ty(Aug.getContext());
  for (auto &[H, CL] : CountedLoops) {
    Loop *L = AugLoops->getLoopFor(H);
    Loop *Parent = L ? L->getParentLoop() : nullptr;
    if (!Parent || !CountedLoops.count(Parent->getHeader()))
      continue;
    // One exit block, entered from the loop only: the count recorded there
    // is the one to rebuild. (A loop with early exits records the count of
    // the exit taken.)
    BasicBlock *Mid = L->getExitBlock();
    if (!Mid || !L->getExitingBlock() || !Mid->getSinglePredecessor())
      continue;
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    Instruction *At = CL.Entering->getTerminator();
    // (A count invariant in the parent is recorded once per run of an
    // outer loop instead: planInvariantTrips.)
    if (isa<SCEVCouldNotCompute>(Taken) || SE.isLoopInvariant(Taken, Parent) ||
        !Expander.isSafeToExpandAt(Taken, At))
      continue;
    Value *Count =
        Expander.expandCodeFor(SE.getTruncateOrZeroExtend(Taken, I64), I64, At);
    RebuildPlan P;
    RecomputeBudget = MaxRecomputeNodes;
    if (!recomputable(Count, Mid, 0, P) || !P.Records.empty())
      continue;
    commitRebuild(P, Ends);
    RebuiltTrips[H] = Count;
    RebuiltTripsAt[Mid].push_back(H);
  }
  Expander.clear();
}

void ReverseEmitter::readInvariantTrips(BasicBlock &BB) {
  for (BasicBlock *H : TripsAt.lookup(&BB)) {
    auto [Outer, Count] = InvariantTrips.lookup(H);
    RB.CreateStore(RB.CreateLoad(RB.getInt64Ty(), hoistSlot(Outer, Count)),
                   CountedLoops[H].RevCount);
  }
  // (Kept for the release of the loop's array of records, if it has one.)
  ReversingBlock = &BB;
  for (BasicBlock *H : RebuiltTripsAt.lookup(&BB)) {
    Value *Count = RebuiltTrips.lookup(H);
    Value *Rebuilt = recompute(Count);
    RB.CreateStore(Rebuilt, CountedLoops[H].RevCount);
    if (LoopArrays.count(H))
      RB.CreateStore(Rebuilt, hoistSlot(H, Count));
  }
}

bool ReverseEmitter::recordsTripCount(BasicBlock *Header) const {
  return !InvariantTrips.count(Header) && !RebuiltTrips.count(Header);
}

} // namespace adcore
