//===- Recompute.cpp - Counted loops, recomputed and end records ---------===//
//
// What makes the tape small, planned after the augmented sweep is built
// (when its control flow is final):
//
//  counted loops   A loop with one entering block, one latch and exits by
//                  branches or switches is reversed by its trip count: the
//                  augmented sweep counts the latch's back edges in a phi
//                  of the header and records the count once at each exit
//                  (an exit edge gets a block of its own for that); the
//                  reverse sweep keeps the iteration it is reversing in a
//                  counter, decremented at the header. Other loops record
//                  the header's predecessor each iteration.
//  recomputation   A recorded value the reverse sweep can rebuild cheaply
//                  (integer and pointer arithmetic, casts, comparisons,
//                  address computations, induction variables of counted
//                  loops from their counter; with -adcc-recompute-math-
//                  calls, off by default, one math call in a loop of
//                  values rebuilt from nothing recorded:
//                  RecomputedCalls.cpp) is rebuilt where it is needed and
//                  its per-execution record dropped.
//  reloads         A value loaded from memory that nothing can write
//                  between the two sweeps (memory of the function's
//                  arguments, or of the forking function's that an OpenMP
//                  region reads: StableMemory.cpp) is read again by the
//                  reverse sweep.
//  end records     The leaves of those rebuilt values (arguments, and
//                  values computed once per call outside any loop) are
//                  recorded once, at the return of the augmented sweep, and
//                  read back at the entry of the reverse sweep.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "support/CheapInstructions.h"

#include "support/MemoryScopes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

/// How deep a recomputed expression may go: address computations are a few
/// levels (gep (sext (add i, 1))); deeper trees are recorded.
constexpr unsigned MaxRecomputeDepth = 8;
// The nodes a recorded value's rebuild may visit. The walk visits shared
// operands once per use: a shadow address under null checks (select(p ==
// null, null, gep(p, i)) over a shadow that is itself so guarded) takes
// several times the nodes it has; 16 recorded a triangular loop's shadow
// addresses per step (the OpenMP GMM's `l[li++]`).
constexpr unsigned MaxRebuildNodes = 128;

/// The loop's single entering block and single latch, when its header has
/// exactly those predecessors (possibly over several edges each).
bool countableShape(Loop &L, BasicBlock *&Entering, BasicBlock *&Latch) {
  BasicBlock *H = L.getHeader();
  Entering = Latch = nullptr;
  for (BasicBlock *P : predecessors(H)) {
    BasicBlock *&Which = L.contains(P) ? Latch : Entering;
    if (Which && Which != P)
      return false;
    Which = P;
  }
  if (!Entering || !Latch || H->isEHPad())
    return false;
  SmallVector<Loop::Edge, 4> Exits;
  L.getExitEdges(Exits);
  return all_of(Exits, [](const Loop::Edge &E) {
    return isa<BranchInst, SwitchInst>(E.first->getTerminator()) &&
           !E.second->isEHPad();
  });
}

/// Routes the edges from \p From to \p To through a new block, and returns
/// it. The phis of \p To take their value for \p From from the new block.
BasicBlock *splitEdges(BasicBlock *From, BasicBlock *To,
                       StringRef Suffix = ".count") {
  LLVMContext &C = From->getContext();
  BasicBlock *Mid =
      BasicBlock::Create(C, To->getName() + Suffix, From->getParent(), To);
  BranchInst::Create(To, Mid);
  Instruction *Term = From->getTerminator();
  unsigned Edges = 0;
  for (unsigned I = 0; I < Term->getNumSuccessors(); ++I)
    if (Term->getSuccessor(I) == To) {
      Term->setSuccessor(I, Mid);
      ++Edges;
    }
  for (PHINode &Phi : To->phis()) {
    // One incoming entry per edge: the new block has one edge.
    for (unsigned K = 1; K < Edges; ++K)
      Phi.removeIncomingValue(From, /*DeletePHIIfEmpty=*/false);
    Phi.replaceIncomingBlockWith(From, Mid);
  }
  return Mid;
}

/// The step of an induction variable: Phi's value from the latch is
/// Phi + Step (add, sub with Negate, or a one-index gep).
struct Induction {
  Value *Start = nullptr, *Step = nullptr;
  Type *GEPType = nullptr; ///< the gep's element type, for pointers
  bool Negate = false;
};

bool matchInduction(PHINode &Phi, BasicBlock *Entering, BasicBlock *Latch,
                    Induction &IV) {
  IV.Start = Phi.getIncomingValueForBlock(Entering);
  auto *Next = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Latch));
  if (!Next)
    return false;
  if (auto *BO = dyn_cast<BinaryOperator>(Next)) {
    if (BO->getOpcode() == Instruction::Add) {
      IV.Step = BO->getOperand(0) == &Phi   ? BO->getOperand(1)
                : BO->getOperand(1) == &Phi ? BO->getOperand(0)
                                            : nullptr;
      return IV.Step != nullptr;
    }
    if (BO->getOpcode() == Instruction::Sub && BO->getOperand(0) == &Phi) {
      IV.Step = BO->getOperand(1);
      IV.Negate = true;
      return true;
    }
    return false;
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(Next)) {
    if (GEP->getPointerOperand() != &Phi || GEP->getNumIndices() != 1 ||
        !GEP->getSourceElementType()->isSized())
      return false;
    IV.Step = GEP->getOperand(1);
    IV.GEPType = GEP->getSourceElementType();
    return true;
  }
  return false;
}

} // namespace

ReverseEmitter::~ReverseEmitter() = default;

void ReverseEmitter::planCountedLoops() {
  auto DT = std::make_unique<DominatorTree>(Aug);
  auto LI = std::make_unique<LoopInfo>(*DT);
  // First, a dedicated entering block for each countable loop, run exactly
  // when the loop is entered (the loop's array of records is pushed there);
  // then the analyses again, on that CFG.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> Guarded;
  for (Loop *L : LI->getLoopsInPreorder()) {
    BasicBlock *Entering, *Latch;
    if (countableShape(*L, Entering, Latch) &&
        Entering->getTerminator()->getNumSuccessors() > 1)
      Guarded.push_back({Entering, L->getHeader()});
  }
  if (!Guarded.empty()) {
    for (auto [Entering, H] : Guarded)
      splitEdges(Entering, H, ".preheader");
    DT = std::make_unique<DominatorTree>(Aug);
    LI = std::make_unique<LoopInfo>(*DT);
  }
  Type *I64 = Type::getInt64Ty(Aug.getContext());
  SmallVector<Loop *, 8> Counted;
  for (Loop *L : LI->getLoopsInPreorder()) {
    BasicBlock *Entering, *Latch;
    if (!countableShape(*L, Entering, Latch))
      continue;
    BasicBlock *H = L->getHeader();
    CountedLoop &CL = CountedLoops[H];
    CL.Entering = Entering;
    CL.Latch = Latch;
    CL.Count = PHINode::Create(I64, pred_size(H), "iters");
    CL.Count->insertBefore(H->begin());
    IRBuilder<> LB(Latch->getTerminator());
    Value *Next = LB.CreateAdd(CL.Count, LB.getInt64(1), "iters.next");
    for (BasicBlock *P : predecessors(H))
      CL.Count->addIncoming(P == Latch ? Next : LB.getInt64(0), P);
    Counted.push_back(L);
  }

  // Each exit edge of a counted loop records the counts of the counted
  // loops it leaves, innermost first, in a block of its own.
  SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 8> Edges;
  for (Loop *L : Counted) {
    SmallVector<Loop::Edge, 4> Exits;
    L->getExitEdges(Exits);
    for (const Loop::Edge &E : Exits)
      Edges.insert({const_cast<BasicBlock *>(E.first),
                    const_cast<BasicBlock *>(E.second)});
  }
  for (auto [From, To] : Edges) {
    BasicBlock *Mid = splitEdges(From, To);
    // The exit may enter (or return to) the header of a counted loop.
    if (auto It = CountedLoops.find(To); It != CountedLoops.end()) {
      CountedLoop &CL = It->second;
      (CL.Entering == From ? CL.Entering : CL.Latch) = Mid;
    }
    // (Recorded with the loops' exit values: emitExitRecords.)
    auto &Headers = ExitCounts[Mid];
    for (Loop *L = LI->getLoopFor(From); L && !L->contains(To);
         L = L->getParentLoop())
      if (CountedLoops.count(L->getHeader()))
        Headers.push_back(L->getHeader());
  }
  // The exit blocks changed the loops' shapes: analyses see the final CFG.
  DT = std::make_unique<DominatorTree>(Aug);
  LI = std::make_unique<LoopInfo>(*DT);
  AugDT = std::move(DT);
  AugLoops = std::move(LI);
}

bool ReverseEmitter::recomputable(Value *V, const BasicBlock *UseBB,
                                  unsigned Depth, RebuildPlan &P) {
  if (isa<Constant>(V))
    return true;
  if (isa<Argument>(V)) {
    P.Ends.push_back(V);
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || RecomputeBudget == 0)
    return false;
  if (Depth > MaxRecomputeDepth)
    return recordLeaf(I, P);
  --RecomputeBudget;
  BasicBlock *BB = I->getParent();
  // Computed once per call: recorded once, at the return. (The result of
  // an invoke only where its normal edge dominates the return: not where a
  // handler's path joins it.)
  if (!AugLoops->getLoopFor(BB) && AugDT->dominates(I, AugReturn) &&
      !I->getType()->isTokenTy()) {
    P.Ends.push_back(V);
    return true;
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    // A phi that is not a counter is recorded: once per run of the counted
    // loops around the use that do not hold it (an outer loop's running
    // index that starts an inner loop's counter, as in a triangular loop:
    // once per run of the inner loop, not once per step).
    auto Leaf = [&] {
      if (BasicBlock *H = invariantLoopFor(I, UseBB)) {
        P.Hoists.push_back({H, I});
        ++P.RecordedLeaves;
        return true;
      }
      return recordLeaf(I, P);
    };
    auto It = CountedLoops.find(BB);
    if (It == CountedLoops.end() || !Phi->getType()->isIntOrPtrTy())
      return Leaf();
    // The counter of a loop is right only while one of its blocks is
    // being reversed.
    Loop *L = AugLoops->getLoopFor(BB);
    if (!L || L->getHeader() != BB || !L->contains(UseBB))
      return Leaf();
    Induction IV;
    if (!matchInduction(*Phi, It->second.Entering, It->second.Latch, IV))
      return Leaf();
    auto *StepI = dyn_cast<Instruction>(IV.Step);
    if (StepI && L->contains(StepI))
      return Leaf();
    return recomputable(IV.Start, UseBB, Depth + 1, P) &&
           recomputable(IV.Step, UseBB, Depth + 1, P);
  }
  if (auto *CI = dyn_cast<CallInst>(I))
    if (recomputableMathCall(*CI, UseBB, Depth, P))
      return true;
  auto *LI = dyn_cast<LoadInst>(I);
  unsigned LeavesBefore = P.RecordedLeaves;
  bool Rebuilt = LI ? reloadable(*LI) && recomputable(LI->getPointerOperand(),
                                                      UseBB, Depth + 1, P)
                    : isCheapPure(*I) && all_of(I->operands(), [&](Use &U) {
                        return recomputable(U.get(), UseBB, Depth + 1, P);
                      });
  if (Rebuilt) {
    // A load from outside the loops around the use is read again once, as
    // the reverse sweep enters the outermost of them (a loop-invariant load
    // inside the reverse loop keeps the vectorizer away).
    // (Not when its address needs recorded values: those are read inside.)
    if (LI && P.RecordedLeaves == LeavesBefore)
      if (BasicBlock *H = invariantLoopFor(I, UseBB))
        P.Reloads.push_back({H, I});
    return true;
  }
  // Computed outside a counted loop around the use: recorded once per run
  // of that loop, at its exits.
  if (BasicBlock *H = invariantLoopFor(I, UseBB)) {
    P.Hoists.push_back({H, I});
    ++P.RecordedLeaves;
    return true;
  }
  return recordLeaf(I, P);
}

bool ReverseEmitter::recordLeaf(Instruction *I, RebuildPlan &P) {
  // A value that dominates the recording instruction still holds, when
  // that instruction runs, what the values computed from it were computed
  // from.
  if (!P.RecordAt || !I->getType()->isSingleValueType() ||
      I->getType()->isTokenTy() ||
      (I != P.RecordAt && !AugDT->dominates(I, P.RecordAt)))
    return false;
  P.Records.insert(I);
  ++P.RecordedLeaves;
  return true;
}

void ReverseEmitter::commitRebuild(const RebuildPlan &P,
                                   SetVector<Value *> &Ends) {
  Ends.insert(P.Ends.begin(), P.Ends.end());
  for (auto [H, I] : P.Hoists)
    InvariantRecords[H].insert(I);
  for (auto [H, I] : P.Reloads)
    EntryReloads[H].insert(I);
}

void ReverseEmitter::recordLeavesInstead(Instruction *I,
                                         SmallVectorImpl<Value *> &List,
                                         SetVector<Value *> &Ends) {
  // Which values could be rebuilt from others recorded with I: C * x and
  // -x from x. Values that are their own leaf are recorded anyway; then, in
  // order, a value is rebuilt when that adds at most one record.
  SmallVector<std::optional<RebuildPlan>, 3> Plans(List.size());
  SmallSetVector<Value *, 4> Kept, Chosen;
  for (auto [V, Plan] : zip(List, Plans)) {
    RebuildPlan P;
    P.RecordAt = I;
    RecomputeBudget = MaxRecomputeNodes;
    if (recomputable(V, I->getParent(), 0, P) &&
        !(P.Records.size() == 1 && P.Records.front() == V))
      Plan = std::move(P);
    else
      Chosen.insert(V);
  }
  for (auto [V, Plan] : zip(List, Plans)) {
    if (!Plan)
      continue;
    if (count_if(Plan->Records, [&](Value *L) { return !Chosen.contains(L); }) >
        1) {
      Plan.reset();
      Chosen.insert(V);
      continue;
    }
    Chosen.insert(Plan->Records.begin(), Plan->Records.end());
  }
  for (auto [V, Plan] : zip(List, Plans))
    if (!Plan)
      Kept.insert(V);
  if (Kept.size() == List.size())
    return;

  // The new list, in push order: a leaf is pushed where the value it
  // replaces was (before that value's push), unless I records it anyway.
  SmallVector<Value *, 3> New;
  for (auto [V, Plan] : zip(List, Plans)) {
    if (!Plan) {
      New.push_back(V);
      continue;
    }
    CallInst *At = PushOf.lookup({I, V});
    for (Value *L : Plan->Records) {
      if (Kept.contains(L) || is_contained(New, L))
        continue;
      AB.SetInsertPoint(At);
      PushOf[{I, L}] = pushRecord(AB, AugTape, L);
      New.push_back(L);
    }
    commitRebuild(*Plan, Ends);
    Recomputed[I].push_back(V);
    dropRecord(I, V);
  }
  List.assign(New.begin(), New.end());
}

void ReverseEmitter::planRecomputation() {
  SetVector<Value *> Ends;
  for (auto &[I, List] : Recorded) {
    SmallVector<Value *, 3> Kept;
    for (Value *V : List) {
      RebuildPlan P;
      RecomputeBudget = MaxRebuildNodes;
      if (!recomputable(V, I->getParent(), 0, P)) {
        Kept.push_back(V);
        continue;
      }
      commitRebuild(P, Ends);
      Recomputed[I].push_back(V);
      dropRecord(I, V);
    }
    recordLeavesInstead(I, Kept, Ends);
    List = std::move(Kept);
  }
  planPathConditions(Ends);
  planRebuiltTrips(Ends);
  // The end records: after everything else the augmented sweep records,
  // so that the reverse sweep reads them first.
  AB.SetInsertPoint(AugReturn);
  EndRecords.assign(Ends.begin(), Ends.end());
  EndBytes = pushTogether(AB, EndRecords, endRecordsTag());
}

void ReverseEmitter::planPathConditions(SetVector<Value *> &Ends) {
  for (BasicBlock &BB : Aug) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&BB), pred_end(&BB));
    if (Preds.size() != 2 || CountedLoops.count(&BB) || BB.isLandingPad())
      continue;
    DomTreeNode *Node = AugDT->getNode(&BB);
    BasicBlock *D =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1) ||
        AugLoops->getLoopFor(D) != AugLoops->getLoopFor(&BB))
      continue;
    // Which side of the branch each predecessor is reached from (only).
    auto Side = [&](BasicBlock *P) -> int {
      for (unsigned S = 0; S < 2; ++S) {
        BasicBlock *Succ = Br->getSuccessor(S);
        if (P == D ? Succ == &BB : AugDT->dominates(BasicBlockEdge(D, Succ), P))
          return S;
      }
      return -1;
    };
    int S0 = Side(Preds[0]), S1 = Side(Preds[1]);
    if (S0 < 0 || S1 < 0 || S0 == S1)
      continue;
    // The condition, rebuilt from what the tape holds anyway.
    RebuildPlan P;
    RecomputeBudget = MaxRecomputeNodes;
    if (!recomputable(Br->getCondition(), &BB, 0, P))
      continue;
    commitRebuild(P, Ends);
    PathCondition &PC = PathConditions[&BB];
    PC.Cond = Br->getCondition();
    PC.IfTrue = S0 == 0 ? Preds[0] : Preds[1];
    PC.IfFalse = S0 == 0 ? Preds[1] : Preds[0];
  }
}

Value *ReverseEmitter::reverseIteration(BasicBlock *Header) {
  CountedLoop &CL = CountedLoops[Header];
  return RB.CreateLoad(RB.getInt64Ty(), CL.RevCount, "iter");
}

Value *ReverseEmitter::recompute(Value *V) {
  if (isa<Constant>(V))
    return V;
  if (Value *E = EndValues.lookup(V))
    return E;
  if (ReadRecords)
    if (Value *R = ReadRecords->lookup(V))
      return R;
  auto *I = cast<Instruction>(V);
  if (BasicBlock *H = invariantLoopFor(I, ReversingBlock)) {
    auto Holds = [&](auto &PerLoop) {
      auto It = PerLoop.find(H);
      return It != PerLoop.end() && It->second.contains(I);
    };
    auto Reused = [&] {
      return any_of(ReusedRecords.lookup(H),
                    [&](const ReusedRecord &U) { return U.V == I; });
    };
    if (Holds(InvariantRecords) || Holds(EntryReloads) || Reused())
      return RB.CreateLoad(I->getType(), hoistSlot(H, I),
                           I->getName() + ".inv");
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    CountedLoop &CL = CountedLoops[Phi->getParent()];
    Induction IV;
    matchInduction(*Phi, CL.Entering, CL.Latch, IV);
    Value *Start = recompute(IV.Start), *Step = recompute(IV.Step);
    Value *K = reverseIteration(Phi->getParent());
    if (IV.GEPType) {
      Value *Offset =
          RB.CreateMul(K, RB.CreateSExtOrTrunc(Step, RB.getInt64Ty()));
      return RB.CreateGEP(IV.GEPType, Start, Offset, Phi->getName() + ".rc");
    }
    Value *Delta = RB.CreateMul(RB.CreateZExtOrTrunc(K, Phi->getType()), Step);
    return IV.Negate ? RB.CreateSub(Start, Delta, Phi->getName() + ".rc")
                     : RB.CreateAdd(Start, Delta, Phi->getName() + ".rc");
  }
  if (auto *LI = dyn_cast<LoadInst>(I))
    return reload(*LI);
  Instruction *C = I->clone();
  for (Use &U : C->operands())
    U.set(recompute(U.get()));
  C->dropPoisonGeneratingFlags();
  C->dropUnknownNonDebugMetadata();
  markRecomputedCall(*C);
  C->setName(I->getName() + ".rc");
  RB.Insert(C);
  return C;
}

LoadInst *ReverseEmitter::reload(LoadInst &LI) {
  LoadInst *Reload =
      RB.CreateAlignedLoad(LI.getType(), recompute(LI.getPointerOperand()),
                           LI.getAlign(), LI.getName() + ".reload");
  tagMemoryClass(*Reload, MemoryClass::Primal);
  return Reload;
}

void ReverseEmitter::reverseCountedHeader(
    BasicBlock &BB, function_ref<void(BasicBlock *)> Edge) {
  CountedLoop &CL = CountedLoops[&BB];
  Value *K = reverseIteration(&BB);
  BasicBlock *Back = BasicBlock::Create(Rev.getContext(), "rev.backedge", &Rev);
  BasicBlock *Out = BasicBlock::Create(Rev.getContext(), "rev.entering", &Rev);
  RB.CreateCondBr(RB.CreateICmpEQ(K, RB.getInt64(0)), Out, Back);
  RB.SetInsertPoint(Back);
  RB.CreateStore(RB.CreateSub(K, RB.getInt64(1)), CL.RevCount);
  Edge(CL.Latch);
  RB.SetInsertPoint(Out);
  releaseLoopArray(&BB);
  Edge(CL.Entering);
}

void ReverseEmitter::readEndRecords() {
  SmallVector<Value *, 8> Values;
  popTogether(EndRecords, EndBytes, Values, endRecordsTag());
  for (auto [V, Popped] : zip(EndRecords, Values))
    EndValues[V] = Popped;
  IRBuilder<> EB(RevEntry, RevEntry->begin());
  for (auto &[H, CL] : CountedLoops)
    CL.RevCount =
        EB.CreateAlloca(EB.getInt64Ty(), nullptr, H->getName() + ".iter");
}

} // namespace adcore
