//===- GatheredRows.cpp - Rows of a gathered loop pull their updates ----===//
//
// A gathered stencil loop (GatheredUpdates.cpp) that runs once per
// iteration of a loop around it, a row of a 2-D stencil, still adds into
// the rows before and after its own: `dw[c - n] += a(c)` and `dw[c + n] +=
// a(c)`, a load and a store of another row per element, among its other
// stores. Where the addend can be computed one row away (arithmetic on the
// inductions and loads of memory no row writes but by constant stores such
// as the zeroing of the adjoint it reads), each row adds those values into
// its own elements instead: what the row before pushed first (it came
// before every addition of this row), what the row after would push last,
// the same additions in the same order. The first and the last row keep
// the push no other row pulls; the constant stores wait one row (the next
// row still reads what they overwrite), and the last row does its own.
//
// Here: which loops can (planRows), and the check before the outer loop
// that picks the rows' forms (expandRows): two rows or more, each row's
// memory apart from the next row's, the access classes apart over the
// whole nest; else every row runs the gathered loop alone. The forms
// themselves are emitted by GatheredUpdates.cpp.
//
//===----------------------------------------------------------------------===//

#include "GatheredUpdates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <functional>

using namespace llvm;

namespace adcore {

/// The bytes \p Address (of \p L's body) moves from one iteration of the
/// loop \p O around \p L to the next (zero when it does not move), when
/// that is the same in every iteration.
const SCEV *outerStep(const SCEV *Address, const Loop &L, const Loop &O,
                      ScalarEvolution &SE) {
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(Address); AR && AR->getLoop() == &L) {
    if (!AR->isAffine() || !SE.isLoopInvariant(AR->getOperand(1), &O))
      return nullptr;
    Address = AR->getStart();
  }
  if (SE.isLoopInvariant(Address, &O))
    return SE.getZero(SE.getEffectiveSCEVType(Address->getType()));
  auto *AR = dyn_cast<SCEVAddRecExpr>(Address);
  if (!AR || AR->getLoop() != &O || !AR->isAffine() ||
      !SE.isLoopInvariant(AR->getOperand(1), &O))
    return nullptr;
  return AR->getOperand(1);
}

/// \p S (an address or offset) as an integer.
const SCEV *asInteger(const SCEV *S, ScalarEvolution &SE) {
  if (!S->getType()->isPointerTy())
    return S;
  return SE.getPtrToIntExpr(S, SE.getEffectiveSCEVType(S->getType()));
}

/// The lowest (\p Low) or highest value \p S (of the outer loop \p O's
/// body) takes in any of \p O's iterations; null when S is neither
/// invariant in \p O nor linear in its iterations.
const SCEV *overNest(const SCEV *S, bool Low, const Loop &O,
                     const SCEV *OuterTrips, ScalarEvolution &SE) {
  S = asInteger(S, SE);
  if (isa<SCEVCouldNotCompute>(S))
    return nullptr;
  if (SE.isLoopInvariant(S, &O))
    return S;
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != &O || !AR->isAffine())
    return nullptr;
  const SCEV *Last = AR->evaluateAtIteration(
      SE.getTruncateOrZeroExtend(OuterTrips, AR->getType()), SE);
  return Low ? SE.getUMinExpr(AR->getStart(), Last)
             : SE.getUMaxExpr(AR->getStart(), Last);
}

namespace {

cl::opt<bool> EnableRows(
    "adcc-gathered-rows", cl::init(true), cl::Hidden,
    cl::desc("In a gathered loop nested in another, have each row add the "
             "updates the rows before and after it pushed into it (tests "
             "compare the results with and without)"));

/// Whether an instruction of the outer loop (outside the gathered loop)
/// stays away from the classes of \p P that the rows access at other
/// times than the loop did (\p Moved): a call of the tape runtime (which
/// touches only the tape), or a load or store that alias analysis keeps
/// apart.
bool awayFromClasses(Instruction &I, const Plan &P, ArrayRef<bool> Moved,
                     AAResults &AA) {
  if (!I.mayReadOrWriteMemory() || isa<NoAliasScopeDeclInst>(I))
    return true;
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    Function *Callee = Call->getCalledFunction();
    return Callee && Callee->getName().starts_with("adcc_tape_");
  }
  if (!isa<LoadInst, StoreInst>(I))
    return false;
  for (auto [C, IsMoved] : zip(P.Classes, Moved))
    if (IsMoved)
      for (Instruction *X : C.Accesses)
        if (!AA.isNoAlias(aroundPointer(&I), aroundPointer(X)))
          return false;
  return true;
}

/// Whether \p L runs in every iteration of the loop \p O around it (whose
/// latch \p Latch exits), or in none: each branch on the way that decides
/// whether it runs decides the same in every iteration (a condition
/// invariant in \p O, such as that of a guard for an inner trip count of
/// zero).
bool runsInEveryRow(Loop &L, Loop &O, BasicBlock *Latch) {
  BasicBlock *LPre = L.getLoopPreheader();
  // Whether \p From can reach the latch in this iteration but not \p L.
  auto Bypasses = [&](BasicBlock *From) {
    SmallPtrSet<BasicBlock *, 16> Seen;
    SmallVector<BasicBlock *, 8> Work{From};
    while (!Work.empty()) {
      BasicBlock *B = Work.pop_back_val();
      if (B == Latch)
        return true;
      if (B == LPre || !O.contains(B) || !Seen.insert(B).second)
        continue;
      for (BasicBlock *Succ : successors(B))
        if (Succ != O.getHeader())
          Work.push_back(Succ);
    }
    return false;
  };
  // The blocks before L in an iteration.
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 8> Work{O.getHeader()};
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (B == LPre || B == Latch || !O.contains(B) || !Seen.insert(B).second)
      continue;
    auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (!Br)
      return false;
    if (Br->isConditional() && !O.isLoopInvariant(Br->getCondition()) &&
        any_of(Br->successors(), Bypasses))
      return false;
    append_range(Work, Br->successors());
  }
  return true;
}

} // namespace

/// The rows of \p L in the loop around it, when each iteration of that
/// loop runs \p L once, every single update among the loop's other stores
/// adds into the element of a window update in the next or previous row,
/// the addends it pulls read only memory that no row writes but by the
/// constant stores (which wait a row), and nothing else in the outer loop
/// touches the memory the rows do.
std::optional<Rows> planRows(Loop &L, const Plan &P, const Shape &S,
                             ScalarEvolution &SE, AAResults &AA,
                             DominatorTree &DT, LoopInfo &LI) {
  Loop *O = L.getParentLoop();
  if (!EnableRows || !O || !S.LiveOuts.empty() || S.Stores.empty() ||
      !L.getExitBlock()->phis().empty())
    return std::nullopt;
  BasicBlock *Latch = O->getLoopLatch();
  if (!Latch || O->getExitingBlock() != Latch || !runsInEveryRow(L, *O, Latch))
    return std::nullopt;
  // (The checks go before the outer loop: into a block of their own where
  // it has none, as after the loop of another reversed nest.)
  BasicBlock *OPre = O->getLoopPreheader();
  if (!OPre && !(OPre = InsertPreheaderForLoop(O, &DT, &LI, nullptr, false)))
    return std::nullopt;
  Rows R;
  R.Outer = O;
  R.OuterTrips = SE.getBackedgeTakenCount(O);
  if (isa<SCEVCouldNotCompute>(R.OuterTrips) ||
      R.OuterTrips->getType()->getScalarSizeInBits() > 64 ||
      !SE.isLoopInvariant(S.Trips, O))
    return std::nullopt;

  // The classes whose rows the outer loop moves together (a window and
  // the pushes into its next and previous rows), by window: apart when the
  // window's rows are.
  DenseMap<unsigned, unsigned> Together;
  auto Separate = [&](unsigned Class, const SCEV *Step) {
    const AccessClass &C = P.Classes[Class];
    if (!C.Covered)
      return false;
    const SCEV *Span = SE.getMinusSCEV(asInteger(C.Covered->Hi, SE),
                                       asInteger(C.Covered->Lo, SE));
    if (isa<SCEVCouldNotCompute>(Span) || !SE.isLoopInvariant(Span, O))
      return false;
    R.Separate.push_back({Step, Span});
    return true;
  };
  for (StoreInst *Store : S.Stores) {
    std::optional<unsigned> Class = classIndex(P, Store);
    if (std::optional<Update> Push = matchUpdate(*Store, SE, L)) {
      std::optional<RowPull> Found;
      for (auto [Index, W] : enumerate(P.Windows))
        for (const Update &U : W.Updates) {
          const SCEV *Step = outerStep(U.Address, L, *O, SE);
          if (Found || U.Load->getType() != Push->Load->getType() || !Step ||
              Step->isZero())
            continue;
          const SCEV *D = SE.getMinusSCEV(Push->Address, U.Address);
          if (D != Step && D != SE.getNegativeSCEV(Step))
            continue;
          Found = RowPull{*Push, static_cast<unsigned>(Index),
                          W.Step > 0 ? U.Offset : -U.Offset, D == Step};
          for (auto [CI, C] : enumerate(P.Classes))
            if (C.WindowIndex == static_cast<int>(Index) &&
                Together.try_emplace(CI, Index).second && !Separate(CI, Step))
              return std::nullopt;
        }
      if (!Found || !Class || P.Classes[*Class].Accesses.size() != 2)
        return std::nullopt;
      R.Pulls.push_back(*Found);
      Together[*Class] = Found->Window;
      continue;
    }
    const SCEV *Step =
        outerStep(SE.getSCEV(Store->getPointerOperand()), L, *O, SE);
    if (!isa<Constant>(Store->getValueOperand()) || !Step || Step->isZero() ||
        !Class || !Separate(*Class, Step))
      return std::nullopt;
    R.Deferred.push_back(Store);
    R.Steps[Store] = Step;
  }
  if (R.Pulls.empty())
    return std::nullopt;

  // What the pulled addends are computed from: arithmetic, the loop's
  // inductions (the same in every row) and loads from memory no row
  // writes but by the deferred stores.
  SmallPtrSet<Instruction *, 16> Seen;
  std::function<bool(Value *)> Pullable = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return true;
    if (I->getParent() != L.getHeader())
      return O->isLoopInvariant(I);
    if (!Seen.insert(I).second)
      return true;
    if (Seen.size() > MaxExtraInstructions)
      return false;
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      auto It = S.Inductions.find(Phi);
      return It != S.Inductions.end() && O->isLoopInvariant(It->second.Start);
    }
    if (auto *Load = dyn_cast<LoadInst>(I)) {
      const SCEV *Step =
          outerStep(SE.getSCEV(Load->getPointerOperand()), L, *O, SE);
      std::optional<unsigned> Class = classIndex(P, Load);
      if (!Load->isSimple() || !Step || !Class)
        return false;
      const AccessClass &C = P.Classes[*Class];
      if (C.WindowIndex >= 0 || (C.Writes && Step->isZero()))
        return false;
      for (Instruction *A : C.Accesses)
        if (isa<StoreInst>(A) && !is_contained(R.Deferred, A))
          return false;
      R.Steps[Load] = Step;
      return true;
    }
    if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
        I->isTerminator())
      return false;
    return all_of(I->operands(), Pullable);
  };
  for (const RowPull &Pull : R.Pulls)
    if (!Pullable(Pull.Push.Addend))
      return std::nullopt;
  // What the rows read or write one row away stays apart from everything
  // else the outer loop does.
  SmallVector<bool, 8> Moved;
  for (const AccessClass &C : P.Classes)
    Moved.push_back(C.Writes || any_of(C.Accesses, [&](Instruction *A) {
                      return R.Steps.contains(A);
                    }));
  for (BasicBlock *BB : O->blocks())
    if (!L.contains(BB))
      for (Instruction &I : *BB)
        if (!awayFromClasses(I, P, Moved, AA))
          return std::nullopt;

  // The other pairs of classes checked apart for one row: apart over the
  // whole nest (a row then never meets another's memory).
  for (const ClassPair &D : P.Disjoint) {
    if (Together.contains(D.A) && Together.contains(D.B) &&
        Together.lookup(D.A) == Together.lookup(D.B))
      continue;
    const Range &A = *P.Classes[D.A].Covered, &B = *P.Classes[D.B].Covered;
    std::array<const SCEV *, 4> Ends{
        overNest(A.Lo, true, *O, R.OuterTrips, SE),
        overNest(A.Hi, false, *O, R.OuterTrips, SE),
        overNest(B.Lo, true, *O, R.OuterTrips, SE),
        overNest(B.Hi, false, *O, R.OuterTrips, SE)};
    if (is_contained(Ends, nullptr))
      return std::nullopt;
    R.Apart.push_back(Ends);
  }
  SCEVExpander Expander(SE, "adcc.rows");
  Instruction *At = OPre->getTerminator();
  auto Expandable = [&](const SCEV *X) {
    return Expander.isSafeToExpandAt(X, At);
  };
  if (!Expandable(R.OuterTrips) || !Expandable(S.Trips))
    return std::nullopt;
  for (auto &[Step, Span] : R.Separate)
    if (!Expandable(Step) || !Expandable(Span))
      return std::nullopt;
  for (auto &Ends : R.Apart)
    if (!all_of(Ends, Expandable))
      return std::nullopt;
  for (auto &[I, Step] : R.Steps)
    if (!Expandable(Step))
      return std::nullopt;
  return R;
}

RowValues expandRows(const Rows &R, const Shape &S, Loop &L,
                     ScalarEvolution &SE) {
  RowValues V;
  Loop &O = *R.Outer;
  Instruction *At = O.getLoopPreheader()->getTerminator();
  SCEVExpander Expander(SE, "adcc.rows");
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  auto Expand = [&](const SCEV *X) {
    return B.CreateSExtOrTrunc(Expander.expandCodeFor(X, nullptr, At), I64);
  };
  auto Unsigned = [&](const SCEV *X) {
    return B.CreateZExtOrTrunc(Expander.expandCodeFor(X, nullptr, At), I64);
  };
  // Two rows at least, enough iterations in each for the gathered loop,
  // each row's elements apart from the next row's, and the classes apart
  // over the whole nest.
  V.LastIteration = Unsigned(R.OuterTrips);
  Value *Use = B.CreateICmpUGE(V.LastIteration, B.getInt64(1), "adcc.tworows");
  Use = B.CreateAnd(Use, B.CreateICmpUGE(Unsigned(S.Trips),
                                         B.getInt64(std::max<int64_t>(
                                             S.lowEnds(), S.LiveOutDepth))));
  for (auto &[Step, Span] : R.Separate) {
    Value *Bytes = Expand(Step);
    Value *Abs = B.CreateSelect(B.CreateICmpSLT(Bytes, B.getInt64(0)),
                                B.CreateNeg(Bytes), Bytes);
    Use = B.CreateAnd(Use, B.CreateICmpUGE(Abs, Unsigned(Span)));
  }
  for (auto &[ALo, AHi, BLo, BHi] : R.Apart) {
    Value *A0 = Unsigned(ALo), *A1 = Unsigned(AHi);
    Value *B0 = Unsigned(BLo), *B1 = Unsigned(BHi);
    Use = B.CreateAnd(
        Use, B.CreateOr(B.CreateICmpULE(A1, B0), B.CreateICmpULE(B1, A0)));
  }
  if (auto *I = dyn_cast<Instruction>(Use))
    I->setName("adcc.inrows");
  V.Use = Use;
  DenseMap<const SCEV *, std::array<Value *, 2>> Expanded;
  for (auto &[I, Step] : R.Steps) {
    auto [It, New] = Expanded.try_emplace(Step);
    if (New) {
      Value *Bytes = Expand(Step);
      It->second = {B.CreateNeg(Bytes), Bytes};
    }
    V.Bytes[I] = It->second;
  }
  // The outer iteration, counted where the gathered loop starts.
  Instruction *Here = L.getLoopPreheader()->getTerminator();
  V.Iteration = Expander.expandCodeFor(
      SE.getAddRecExpr(SE.getZero(I64), SE.getOne(I64), &O, SCEV::FlagNUW), I64,
      Here);
  return V;
}

} // namespace adcore
