//===- ZeroedRegions.cpp - Memory a reverse nest left zero ----------------===//
//
// See ZeroedRegions.h. A nest qualifies when its inner loop runs in every
// iteration of the outer one and exits only at its latch, the outer loop
// exits only at its latch, and a store of zero that every inner iteration
// does walks consecutive elements (its step the element's size), rows a
// fixed number of bytes apart; a loop alone that exits only at its latch
// zeroes a region of one row. The nest's other stores that may meet that
// memory are checked apart from the region where it ends (Valid).
//
// zeroedElements (declared in GatheredUpdates.h) asks zeroedAt about the
// elements a gathered loop loads.
//
// The flag of zeroedAt is built with SSAUpdater: true (Valid) at the end of
// the block after the nest, false at the end of the entry block and of
// every block holding an instruction that may write the memory asked
// about, with the region's values carried along the same way.
//
//===----------------------------------------------------------------------===//

#include "ZeroedRegions.h"

#include "GatheredUpdates.h"
#include "LoopUpdates.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <array>

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> EnableKnownZero(
    "adcc-known-zero-rows", cl::init(true), cl::Hidden,
    cl::desc("Let a gathered stencil loop (a 2-D one's middle rows) store "
             "its sums without loading elements that a loop or nest before "
             "zeroed (tests compare the results with and without)"));

/// The most stores between a zeroing nest and the loop after it that are
/// checked apart from the loop's elements (more clear the flag).
constexpr unsigned MaxStoresBetween = 8;

/// Whether \p I may write the memory of \p Loc; the tape runtime's calls
/// touch only the tape.
bool mayWrite(Instruction &I, const MemoryLocation &Loc, AAResults &AA) {
  if (!I.mayWriteToMemory() || isa<NoAliasScopeDeclInst>(I))
    return false;
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (Function *Callee = Call->getCalledFunction();
        Callee && Callee->getName().starts_with("adcc_tape_"))
      return false;
  return isModSet(AA.getModRefInfo(&I, Loc));
}

/// The byte after \p R's last row.
Value *regionEnd(IRBuilder<> &B, const RowRegion &R) {
  return B.CreateAdd(
      B.CreateAdd(R.Lowest,
                  B.CreateMul(B.CreateSub(R.Rows, B.getInt64(1)), R.Stride)),
      R.RowBytes);
}

/// The lowest and the highest byte (plus one) that \p Store (in \p I,
/// nested in \p O when there is one) writes over the nest; nothing when
/// that is not linear.
std::optional<std::pair<const SCEV *, const SCEV *>>
bytesOverNest(StoreInst &Store, Loop &I, Loop *O, const SCEV *ITrips,
              const SCEV *OTrips, ScalarEvolution &SE) {
  const SCEV *Addr = asInteger(SE.getSCEV(Store.getPointerOperand()), SE);
  if (isa<SCEVCouldNotCompute>(Addr))
    return std::nullopt;
  Type *Ty = Addr->getType();
  const SCEV *Size = SE.getConstant(
      Ty, Store.getDataLayout()
              .getTypeStoreSize(Store.getValueOperand()->getType())
              .getFixedValue());
  const SCEV *Lo = Addr, *Hi = Addr;
  if (!SE.isLoopInvariant(Addr, &I)) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Addr);
    auto *Step = AR && AR->getLoop() == &I && AR->isAffine()
                     ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                     : nullptr;
    if (!Step)
      return std::nullopt;
    const SCEV *Last =
        AR->evaluateAtIteration(SE.getTruncateOrZeroExtend(ITrips, Ty), SE);
    bool Up = !Step->getAPInt().isNegative();
    Lo = Up ? AR->getStart() : Last;
    Hi = Up ? Last : AR->getStart();
  }
  Hi = SE.getAddExpr(Hi, Size);
  if (O) {
    Lo = overNest(Lo, true, *O, OTrips, SE);
    Hi = overNest(Hi, false, *O, OTrips, SE);
  }
  if (!Lo || !Hi)
    return std::nullopt;
  return std::make_pair(Lo, Hi);
}

/// The region \p Zero (a store of zero in \p I, nested in \p O, or
/// alone: one row) covers, computed in a new block after the nest; nothing
/// when it is not a region of rows or cannot be computed there.
std::optional<ZeroedRegion> zeroedBy(StoreInst &Zero, Loop &I, Loop *O,
                                     ScalarEvolution &SE, DominatorTree &DT,
                                     LoopInfo &LI, AAResults &AA) {
  const SCEV *ITrips = SE.getBackedgeTakenCount(&I);
  const SCEV *OTrips =
      O ? SE.getBackedgeTakenCount(O) : SE.getZero(ITrips->getType());
  const SCEV *Addr = asInteger(SE.getSCEV(Zero.getPointerOperand()), SE);
  auto *AR = dyn_cast<SCEVAddRecExpr>(Addr);
  auto *Step = AR && AR->getLoop() == &I && AR->isAffine()
                   ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                   : nullptr;
  uint64_t Size = Zero.getDataLayout()
                      .getTypeStoreSize(Zero.getValueOperand()->getType())
                      .getFixedValue();
  if (!Step || Step->getAPInt().abs() != Size ||
      OTrips->getType()->getScalarSizeInBits() > 64)
    return std::nullopt;
  Type *Ty = AR->getType();
  std::optional<std::pair<const SCEV *, const SCEV *>> Span =
      bytesOverNest(Zero, I, O, ITrips, OTrips, SE);
  const SCEV *Rows =
      SE.getAddExpr(SE.getTruncateOrZeroExtend(OTrips, Ty), SE.getOne(Ty));
  const SCEV *RowBytes = SE.getMulExpr(
      SE.getAddExpr(SE.getTruncateOrZeroExtend(ITrips, Ty), SE.getOne(Ty)),
      SE.getConstant(Ty, Size));
  // (One row: any stride past it.)
  const SCEV *RowStep = O ? outerStep(Addr, I, *O, SE) : RowBytes;
  if (!Span || !RowStep || RowStep->isZero())
    return std::nullopt;
  const SCEV *Stride = SE.getSMaxExpr(RowStep, SE.getNegativeSCEV(RowStep));

  // The nest's other stores that may meet the zeroed memory.
  MemoryLocation Loc = aroundPointer(&Zero);
  SmallVector<std::pair<const SCEV *, const SCEV *>, 4> Others;
  for (BasicBlock *BB : (O ? O : &I)->blocks())
    for (Instruction &X : *BB) {
      if (&X == &Zero || !mayWrite(X, Loc, AA))
        continue;
      auto *Store = dyn_cast<StoreInst>(&X);
      std::optional<std::pair<const SCEV *, const SCEV *>> Bytes;
      if (!Store || !I.contains(BB) ||
          !(Bytes = bytesOverNest(*Store, I, O, ITrips, OTrips, SE)))
        return std::nullopt;
      Others.push_back(*Bytes);
    }

  Loop &Outermost = O ? *O : I;
  BasicBlock *After =
      SplitEdge(Outermost.getLoopLatch(), Outermost.getUniqueExitBlock(), &DT,
                &LI, nullptr, "adcc.zeroed");
  Instruction *At = After->getTerminator();
  SCEVExpander Expander(SE, "adcc.zeroed");
  SmallVector<const SCEV *, 8> All{Span->first, Rows, RowBytes, Stride};
  for (auto &[Lo, Hi] : Others)
    All.append({Lo, Hi});
  if (!all_of(All,
              [&](const SCEV *X) { return Expander.isSafeToExpandAt(X, At); }))
    return ZeroedRegion{nullptr, After, nullptr, {}};
  IRBuilder<> B(At);
  auto Expand = [&](const SCEV *X) {
    return B.CreateZExtOrTrunc(Expander.expandCodeFor(X, nullptr, At),
                               B.getInt64Ty());
  };
  RowRegion Region{Expand(Span->first), Expand(Rows), Expand(RowBytes),
                   Expand(Stride)};
  Value *End = regionEnd(B, Region);
  Value *Valid = B.getTrue();
  for (auto &[Lo, Hi] : Others)
    Valid = B.CreateAnd(Valid,
                        B.CreateOr(B.CreateICmpULE(Expand(Hi), Region.Lowest),
                                   B.CreateICmpUGE(Expand(Lo), End)));
  return ZeroedRegion{getUnderlyingObject(Zero.getPointerOperand()), After,
                      Valid, Region};
}

/// The first store of zero that every iteration of \p I does (one region
/// per nest: its block after the nest is split off once).
StoreInst *firstZeroStore(Loop &I, DominatorTree &DT) {
  for (BasicBlock *BB : I.blocks())
    if (DT.dominates(BB, I.getLoopLatch()))
      for (Instruction &X : *BB)
        if (auto *Store = dyn_cast<StoreInst>(&X);
            Store && Store->isSimple() &&
            isa<Constant>(Store->getValueOperand()) &&
            cast<Constant>(Store->getValueOperand())->isNullValue())
          return Store;
  return nullptr;
}

} // namespace

SmallVector<ZeroedRegion, 4> findZeroedRegions(Function &F, LoopInfo &LI,
                                               ScalarEvolution &SE,
                                               DominatorTree &DT,
                                               AAResults &AA) {
  SmallVector<ZeroedRegion, 4> Found;
  if (!EnableKnownZero)
    return Found;
  SmallVector<std::tuple<Loop *, Loop *, StoreInst *>, 4> Candidates;
  for (Loop *I : LI.getLoopsInPreorder()) {
    // A nest (the inner loop alone in the outer one), or a loop alone.
    Loop *O = I->getParentLoop();
    if (O && O->getSubLoops().size() != 1)
      O = nullptr;
    BasicBlock *ILatch = I->getLoopLatch();
    if (!I->isInnermost() || !ILatch || I->getExitingBlock() != ILatch ||
        (!O && !I->getUniqueExitBlock()))
      continue;
    const SCEV *ITrips = SE.getBackedgeTakenCount(I);
    if (isa<SCEVCouldNotCompute>(ITrips))
      continue;
    if (O) {
      BasicBlock *OLatch = O->getLoopLatch();
      if (!OLatch || O->getExitingBlock() != OLatch ||
          !O->getUniqueExitBlock() || !DT.dominates(I->getHeader(), OLatch) ||
          isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(O)) ||
          !SE.isLoopInvariant(ITrips, O))
        continue;
    }
    if (StoreInst *Store = firstZeroStore(*I, DT))
      Candidates.push_back({I, O, Store});
  }
  // (After the walk over the loops: each split changes them.)
  for (auto [I, O, Store] : Candidates)
    if (std::optional<ZeroedRegion> Z = zeroedBy(*Store, *I, O, SE, DT, LI, AA))
      Found.push_back(*Z);
  return Found;
}

Value *zeroedAt(const ZeroedRegion &Z, BasicBlock *At, const RowRegion &Wanted,
                const MemoryLocation &Memory, AAResults &AA) {
  Function &F = *At->getParent();
  if (!Z.Object || At == &F.getEntryBlock())
    return nullptr;
  std::array<Value *, 5> Set{Z.Valid, Z.Region.Lowest, Z.Region.Rows,
                             Z.Region.RowBytes, Z.Region.Stride};
  std::array<Value *, 5> Here = Set;
  // The stores in the blocks every path into At passes last (each with one
  // predecessor, after the nest's end): checked apart from the wanted rows
  // below instead of clearing the flag. (Each path from At back to them
  // runs the loop after At, which writes the memory.)
  SmallPtrSet<BasicBlock *, 4> Chain;
  for (BasicBlock *BB = At; BB && BB != Z.After && Chain.insert(BB).second;
       BB = BB->getSinglePredecessor())
    ;
  SmallVector<StoreInst *, 4> Between;
  if (At != Z.After) {
    SmallVector<BasicBlock *, 16> Clears{&F.getEntryBlock()};
    for (BasicBlock &BB : F) {
      if (&BB == Z.After)
        continue;
      bool Clear = false;
      for (Instruction &I : BB) {
        if (!mayWrite(I, Memory, AA))
          continue;
        auto *Store = dyn_cast<StoreInst>(&I);
        if (Chain.contains(&BB) && Store && Store->isSimple() &&
            Between.size() < MaxStoresBetween)
          Between.push_back(Store);
        else
          Clear = true;
      }
      if (!Clear)
        continue;
      if (&BB == At)
        return nullptr;
      Clears.push_back(&BB);
    }
    for (auto [Slot, Defined] : zip(Here, Set)) {
      SSAUpdater Updater;
      Updater.Initialize(Defined->getType(), "adcc.zeroed");
      Constant *None = Constant::getNullValue(Defined->getType());
      for (BasicBlock *BB : Clears)
        Updater.AddAvailableValue(BB, None);
      Updater.AddAvailableValue(Z.After, Defined);
      Slot = Updater.GetValueInMiddleOfBlock(At);
    }
  }
  auto [Flag, Lowest, Rows, RowBytes, Stride] = Here;
  if (auto *C = dyn_cast<Constant>(Flag); C && C->isZeroValue())
    return C;
  // The wanted rows inside the zeroed ones: the same stride, and the
  // first wanted row Q rows and R bytes after the zeroed region's first.
  IRBuilder<> B(At->getTerminator());
  Value *Zero = B.getInt64(0);
  // (One wanted row may lie in any zeroed row.)
  Value *Ok =
      B.CreateAnd(Flag, B.CreateOr(B.CreateICmpEQ(Wanted.Rows, B.getInt64(1)),
                                   B.CreateICmpEQ(Stride, Wanted.Stride)));
  Ok = B.CreateAnd(Ok, B.CreateICmpNE(Stride, Zero));
  Ok = B.CreateAnd(Ok, B.CreateICmpUGE(Wanted.Lowest, Lowest));
  Value *Diff = B.CreateSub(Wanted.Lowest, Lowest);
  Value *Divisor =
      B.CreateSelect(B.CreateICmpEQ(Stride, Zero), B.getInt64(1), Stride);
  Value *Q = B.CreateUDiv(Diff, Divisor), *R = B.CreateURem(Diff, Divisor);
  Ok = B.CreateAnd(Ok, B.CreateICmpUGE(Rows, Wanted.Rows));
  Ok = B.CreateAnd(Ok, B.CreateICmpULE(Q, B.CreateSub(Rows, Wanted.Rows)));
  Ok = B.CreateAnd(Ok, B.CreateICmpUGE(RowBytes, Wanted.RowBytes));
  Ok = B.CreateAnd(Ok,
                   B.CreateICmpULE(R, B.CreateSub(RowBytes, Wanted.RowBytes)));
  Value *WantedEnd = regionEnd(B, Wanted);
  for (StoreInst *Store : Between) {
    Value *Begin = B.CreatePtrToInt(Store->getPointerOperand(), B.getInt64Ty());
    Value *End = B.CreateAdd(
        Begin,
        B.getInt64(Store->getDataLayout()
                       .getTypeStoreSize(Store->getValueOperand()->getType())
                       .getFixedValue()));
    Ok = B.CreateAnd(Ok, B.CreateOr(B.CreateICmpULE(End, Wanted.Lowest),
                                    B.CreateICmpUGE(Begin, WantedEnd)));
  }
  if (auto *I = dyn_cast<Instruction>(Ok))
    I->setName("adcc.zeroed.inside");
  return Ok;
}

Value *zeroedElements(Loop &L, const Plan &P, const Shape &S, const Rows *R,
                      ArrayRef<ZeroedRegion> Regions, ScalarEvolution &SE,
                      AAResults &AA, SmallVectorImpl<bool> &Zeroed) {
  Zeroed.assign(P.Windows.size(), false);
  Loop *O = R ? R->Outer : nullptr;
  if (!EnableKnownZero)
    return nullptr;
  BasicBlock *OPre = (O ? O : &L)->getLoopPreheader();
  Instruction *At = OPre->getTerminator();
  SCEVExpander Expander(SE, "adcc.zeroed");
  IRBuilder<> B(At);
  Value *All = nullptr;
  for (auto [Index, W] : enumerate(P.Windows)) {
    const Contribution &C0 = S.Contributions[Index].front();
    Value *Pointer = C0.U->Store->getPointerOperand();
    const Value *Object = getUnderlyingObject(Pointer);
    const SCEV *Addr = asInteger(SE.getSCEV(Pointer), SE);
    auto *AR = dyn_cast<SCEVAddRecExpr>(Addr);
    auto *Step = AR && AR->getLoop() == &L && AR->isAffine()
                     ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                     : nullptr;
    if (!Step)
      continue;
    // The loop's elements t, S.KHi <= t <= Trips + S.KMin, each at the
    // address its first contribution's update had in iteration t - K.
    Type *Ty = AR->getType();
    const SCEV *First = SE.getConstant(Ty, S.KHi - C0.K, true);
    const SCEV *Last = SE.getAddExpr(SE.getTruncateOrZeroExtend(S.Trips, Ty),
                                     SE.getConstant(Ty, S.KMin - C0.K, true));
    bool Up = Step->getAPInt().isStrictlyPositive();
    uint64_t Size = L.getHeader()->getDataLayout().getTypeStoreSize(W.Ty);
    const SCEV *Lowest = AR->evaluateAtIteration(Up ? First : Last, SE);
    const SCEV *RowBytes = SE.getAddExpr(
        SE.getMulExpr(
            SE.getMinusSCEV(Last, First),
            SE.getConstant(Ty, Step->getAPInt().abs().getZExtValue())),
        SE.getConstant(Ty, Size));
    const SCEV *Rows = SE.getOne(Ty), *RowStep = RowBytes;
    if (O) {
      Lowest = overNest(Lowest, true, *O, R->OuterTrips, SE);
      Rows = SE.getAddExpr(SE.getTruncateOrZeroExtend(R->OuterTrips, Ty),
                           SE.getOne(Ty));
      RowStep = outerStep(Addr, L, *O, SE);
      if (!SE.isLoopInvariant(RowBytes, O))
        continue;
    }
    if (!Lowest || !RowStep)
      continue;
    const SCEV *Stride = SE.getSMaxExpr(RowStep, SE.getNegativeSCEV(RowStep));
    const SCEV *Ends[4] = {Lowest, Rows, RowBytes, Stride};
    if (!all_of(Ends, [&](const SCEV *X) {
          return Expander.isSafeToExpandAt(X, At);
        }))
      continue;
    Value *V[4];
    for (auto [Out, X] : zip(V, Ends))
      Out = B.CreateZExtOrTrunc(Expander.expandCodeFor(X, nullptr, At),
                                B.getInt64Ty());
    // (The first zeroing nest whose end some path from here leads back
    // to.)
    Value *Ok = nullptr;
    for (const ZeroedRegion &Z : Regions) {
      // (Not a loop's one row for the rows of a nest.)
      auto *OneRow = dyn_cast<ConstantInt>(Z.Region.Rows);
      if (Z.Object != Object || (O ? O : &L)->contains(Z.After) ||
          (O && OneRow && OneRow->isOne()))
        continue;
      Ok = zeroedAt(Z, OPre, RowRegion{V[0], V[1], V[2], V[3]},
                    aroundPointer(C0.U->Store), AA);
      if (Ok && !(isa<Constant>(Ok) && cast<Constant>(Ok)->isZeroValue()))
        break;
      Ok = nullptr;
    }
    if (!Ok)
      continue;
    Zeroed[Index] = true;
    All = All ? B.CreateAnd(All, Ok) : Ok;
  }
  return All;
}

void dropUnusedRegions(ArrayRef<ZeroedRegion> Regions) {
  for (const ZeroedRegion &Z : Regions) {
    SmallVector<WeakTrackingVH, 8> Values;
    for (Instruction &I : *Z.After)
      if (!I.isTerminator() && !isa<PHINode>(I))
        Values.push_back(&I);
    for (WeakTrackingVH &V : llvm::reverse(Values))
      if (auto *I = dyn_cast_or_null<Instruction>(V))
        RecursivelyDeleteTriviallyDeadInstructions(I);
    // (Phis and the branch left: the exit's own phis, moved there.)
    if (all_of(*Z.After, [](Instruction &I) {
          return isa<PHINode>(I) || I.isTerminator();
        }))
      TryToSimplifyUncondBranchFromEmptyBlock(Z.After);
  }
}

} // namespace adcore
