//===- ExitArrays.cpp - Exit records of inner loops in an outer array ----===//
//
// An inner loop's exit records (its trip count, the values recorded once per
// run of it: GMM's `li` at the start of each column of `for (r = c + 1; r <
// d; r++) qxc[r] += l[li++] * xc[c]`) are made once per iteration of the
// counted loop around its exit. When that loop's trip count is known on
// entry they go into its array of records (LoopArrays.cpp; one is made for
// them if the loop has none), in the row of the iteration, instead of a push
// of their own per iteration: a plain store with no test of the tape's end,
// and a load whose address does not wait for the pop before it. The exit
// block must lie in that loop and not in a loop inside it, so that it runs
// at most once per iteration (a row is written at most once).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <algorithm>

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> ExitRecordArrays(
    "adcc-exit-record-arrays", cl::init(true), cl::Hidden,
    cl::desc("Keep the exit records of inner loops in the array of records "
             "of the counted loop around their exit"));

} // namespace

void ReverseEmitter::exitRecordValues(BasicBlock *Mid,
                                      SmallVectorImpl<Value *> &Values) {
  const auto &Headers = ExitCounts.find(Mid)->second;
  for (BasicBlock *H : Headers)
    if (recordsTripCount(H))
      Values.push_back(CountedLoops[H].Count);
  for (BasicBlock *H : Headers)
    if (auto It = InvariantRecords.find(H); It != InvariantRecords.end())
      Values.append(It->second.begin(), It->second.end());
}

void ReverseEmitter::planExitArrays() {
  if (!ExitRecordArrays || DeviceCode)
    return;
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  // The deepest exits first: an array made for a loop adds its address to
  // the records at that loop's own exits.
  SmallVector<BasicBlock *, 8> Mids;
  for (auto &Entry : ExitCounts)
    Mids.push_back(Entry.first);
  std::stable_sort(Mids.begin(), Mids.end(), [&](BasicBlock *A, BasicBlock *B) {
    return AugLoops->getLoopDepth(A) > AugLoops->getLoopDepth(B);
  });
  std::unique_ptr<SCEVExpander> Expander;
  for (BasicBlock *Mid : Mids) {
    Loop *O = AugLoops->getLoopFor(Mid);
    if (!O || !CountedLoops.count(O->getHeader()))
      continue;
    SmallVector<Value *, 8> Values;
    exitRecordValues(Mid, Values);
    if (Values.empty() || !all_of(Values, [&](Value *V) {
          Type *T = V->getType();
          return T->isSized() && !T->isVectorTy() &&
                 DL.getTypeAllocSize(T) <= RecordGranule &&
                 DL.getABITypeAlign(T).value() <= RecordGranule;
        }))
      continue;
    BasicBlock *H = O->getHeader();
    if (!LoopArrays.count(H)) {
      ScalarEvolution &SE = augmentedSCEV();
      if (!Expander)
        Expander = std::make_unique<SCEVExpander>(SE, "adcc.trips",
                                                  /*PreserveLCSSA=*/false);
      if (!makeLoopArray(H, 0, SE, *Expander))
        continue;
    }
    ExitArray &EA = ExitArrays[Mid];
    EA.Header = H;
    widenLoopArray(H, Values, EA.Offsets);
  }
  if (Expander)
    Expander->clear();
}

} // namespace adcore
