//===- ReusedRecords.cpp - Invariant records read from earlier arrays ----===//
//
// A value recorded once per run of an inner loop (InvariantRecords.cpp) may
// be on the tape already. In GMM's
//
//   for (j = 0; j < d; j++) qxc[j] = exp(q[j]) * xc[j];
//   for (c = 0; c < d; c++)
//     for (r = c + 1; r < d; r++) qxc[r] += l[li++] * xc[c];
//
// the first loop records xc[j] in its array (LoopArrays.cpp), row j, and
// each column's xc[c], recorded at the exit of the loop over r, is the
// value of row c: same address, nothing writes xc in between. The reverse
// sweep then reads it from that row, which is still on the tape (the array
// is released when the reverse sweep leaves the first loop, later): the
// column loop records the array's address once per run, at its exits,
// instead of one value per column.
//
// The value v = *p read in iteration m of a counted loop C (p an affine
// recurrence {S,+,E} of C) is row m of the array of a counted loop J
// recording w = *q (q = {S,+,E} of J, the same start and step) when
//  - J is entered, by a block of its own, from the loop around C (or the
//    function) before C on every path to C, so that the last run of J before
//    v is the one of the same iteration of that loop;
//  - w is read in every iteration of J (its block dominates J's only
//    exiting block) and J runs at least as often as C (backedge-taken
//    counts, by scalar evolution), so the row is there;
//  - p's object is an identified one (an allocation, a local, a noalias
//    argument, a global) that no instruction on a path from J to v may
//    write: stores, memory intrinsics and calls are checked against their
//    objects; what the augmented sweep adds writes shadows and the tape,
//    which are apart from primal memory (MemoryScopes.h).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "support/MemoryScopes.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> ReuseRecords(
    "adcc-reuse-array-records", cl::init(true), cl::Hidden,
    cl::desc("Read loop-invariant values that an earlier loop recorded in "
             "its array from that array instead of recording them again"));

/// Whether a write through \p Ptr may reach \p Obj.
bool mayReach(const Value *Ptr, const Value *Obj) {
  SmallVector<const Value *, 4> Bases;
  getUnderlyingObjects(Ptr, Bases);
  return any_of(Bases, [&](const Value *Base) {
    return Base == Obj || !isIdentifiedObject(Base);
  });
}

bool isTapeCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && (Callee->getName() == "adcc_tape_push" ||
                    Callee->getName() == "adcc_tape_pop");
}

} // namespace

bool ReverseEmitter::writesBetween(const Value *Obj, BasicBlock *From,
                                   BasicBlock *To, const Loop *Around) {
  auto Inside = [&](BasicBlock *BB) {
    return !Around || (Around->contains(BB) && BB != Around->getHeader());
  };
  // The blocks on a path from From to To in one iteration of Around.
  SmallPtrSet<BasicBlock *, 32> After, Before;
  SmallVector<BasicBlock *, 32> Work{From};
  After.insert(From);
  while (!Work.empty())
    for (BasicBlock *S : successors(Work.pop_back_val()))
      if (Inside(S) && After.insert(S).second)
        Work.push_back(S);
  Work.push_back(To);
  Before.insert(To);
  while (!Work.empty())
    for (BasicBlock *P : predecessors(Work.pop_back_val()))
      if (Inside(P) && Before.insert(P).second)
        Work.push_back(P);

  for (BasicBlock *BB : After) {
    if (!Before.contains(BB))
      continue;
    for (Instruction &I : *BB) {
      if (!I.mayWriteToMemory())
        continue;
      // What the augmented sweep added writes shadows and the tape.
      bool Primal = PrimalOf.count(&I) || CallKeys.count(&I) ||
                    CustomSites.count(&I) || ForkSites.count(&I) ||
                    TaskSites.count(&I);
      if (!Primal) {
        if (hasMemoryClass(I, MemoryClass::Shadow) ||
            hasMemoryClass(I, MemoryClass::Tape))
          continue;
        if (auto *Call = dyn_cast<CallBase>(&I); Call && isTapeCall(*Call))
          continue;
        if (auto *SI = dyn_cast<StoreInst>(&I)) {
          auto *Base =
              dyn_cast<CallBase>(getUnderlyingObject(SI->getPointerOperand()));
          if (Base && isTapeCall(*Base))
            continue;
        }
      }
      if (CallKeys.count(&I) || CustomSites.count(&I) || ForkSites.count(&I) ||
          TaskSites.count(&I))
        return true;
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!SI->isSimple() || mayReach(SI->getPointerOperand(), Obj))
          return true;
        continue;
      }
      if (auto *MI = dyn_cast<AnyMemIntrinsic>(&I)) {
        if (mayReach(MI->getRawDest(), Obj))
          return true;
        continue;
      }
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        return true;
      if (auto *II = dyn_cast<IntrinsicInst>(Call))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
            II->getIntrinsicID() == Intrinsic::assume ||
            II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
          continue;
      // (errno is the C library's: a function that calls exp writes it.)
      MemoryEffects Effects =
          Call->getMemoryEffects().getWithoutLoc(IRMemLocation::ErrnoMem);
      if (Effects.onlyReadsMemory())
        continue;
      if (const Function *Callee = Call->getCalledFunction();
          Callee && ruleFor(*Callee))
        continue; // a math function: at most errno
      if (!Effects.onlyAccessesArgPointees())
        return true;
      for (const Use &A : Call->args())
        if (A->getType()->isPointerTy() &&
            !Call->onlyReadsMemory(A.getOperandNo()) && mayReach(A.get(), Obj))
          return true;
    }
  }
  return false;
}

BasicBlock *ReverseEmitter::rowLoopFor(LoadInst &V, BasicBlock *Header,
                                       const ArrayRecord &R) {
  auto *W = cast<LoadInst>(R.V);
  auto ArrayIt = LoopArrays.find(R.Header);
  if (!W->isSimple() || W->getType() != V.getType() ||
      ArrayIt == LoopArrays.end() || ArrayIt->second.Tag)
    return nullptr;
  Loop *J = AugLoops->getLoopFor(R.Header);
  Loop *C = AugLoops->getLoopFor(V.getParent());
  Loop *Inner = AugLoops->getLoopFor(Header);
  if (!J || !C || C == J || !CountedLoops.count(C->getHeader()) || !Inner ||
      Inner == C || !C->contains(Inner))
    return nullptr;
  // J is entered by a block of its own, in the loop around C, before C.
  BasicBlock *EnterJ = CountedLoops[R.Header].Entering;
  BasicBlock *EnterC = CountedLoops[C->getHeader()].Entering;
  const Loop *Around = C->getParentLoop();
  if (J->getParentLoop() != Around || AugLoops->getLoopFor(EnterJ) != Around ||
      EnterJ->getSingleSuccessor() != R.Header ||
      !AugDT->dominates(EnterJ, EnterC))
    return nullptr;
  // w is read in every iteration of J.
  BasicBlock *Exiting = J->getExitingBlock();
  if (!Exiting || !AugDT->dominates(W->getParent(), Exiting))
    return nullptr;

  ScalarEvolution &SE = augmentedSCEV();
  auto *P = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V.getPointerOperand()));
  auto *Q = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(W->getPointerOperand()));
  if (!P || !Q || P->getLoop() != C || Q->getLoop() != J || !P->isAffine() ||
      !Q->isAffine() || P->getStart() != Q->getStart() ||
      P->getStepRecurrence(SE) != Q->getStepRecurrence(SE))
    return nullptr;
  // J runs at least as many iterations as C.
  const SCEV *TakenC = SE.getBackedgeTakenCount(C);
  const SCEV *TakenJ = SE.getBackedgeTakenCount(J);
  if (isa<SCEVCouldNotCompute>(TakenC) || isa<SCEVCouldNotCompute>(TakenJ))
    return nullptr;
  Type *Wide = SE.getWiderType(TakenC->getType(), TakenJ->getType());
  TakenC = SE.getNoopOrZeroExtend(TakenC, Wide);
  TakenJ = SE.getNoopOrZeroExtend(TakenJ, Wide);
  if (TakenC != TakenJ &&
      !SE.isKnownPredicate(ICmpInst::ICMP_ULE, TakenC, TakenJ))
    return nullptr;
  // Nothing writes the object between the two reads.
  const Value *Obj = getUnderlyingObject(V.getPointerOperand());
  if (!isIdentifiedObject(Obj) ||
      Obj != getUnderlyingObject(W->getPointerOperand()) ||
      writesBetween(Obj, R.Header, V.getParent(), Around))
    return nullptr;
  return C->getHeader();
}

void ReverseEmitter::reuseArrayRecords() {
  if (!ReuseRecords || DeviceCode || LoopArrays.empty())
    return;
  // The loads recorded in arrays, in program order.
  SmallVector<ArrayRecord, 8> Sources;
  SmallPtrSet<Value *, 8> Seen;
  for (BasicBlock &BB : Aug)
    for (Instruction &I : BB)
      if (auto It = ArrayRecords.find(&I); It != ArrayRecords.end())
        for (const ArrayRecord &R : It->second)
          if (isa<LoadInst>(R.V) && Seen.insert(R.V).second)
            Sources.push_back(R);
  if (Sources.empty())
    return;
  SmallVector<std::pair<BasicBlock *, Value *>, 4> Bases;
  for (auto &[H, Values] : InvariantRecords) {
    SmallVector<Value *, 4> Reused;
    for (Value *V : Values) {
      auto *Load = dyn_cast<LoadInst>(V);
      if (!Load || !Load->isSimple())
        continue;
      for (const ArrayRecord &R : Sources)
        if (BasicBlock *Row = rowLoopFor(*Load, H, R)) {
          ReusedRecords[H].push_back({V, R, Row});
          Bases.push_back({Row, LoopArrays[R.Header].Base});
          Reused.push_back(V);
          break;
        }
    }
    for (Value *V : Reused)
      Values.remove(V);
  }
  // The arrays' addresses, once per run of the loops whose iterations are
  // the rows.
  for (auto [Row, Base] : Bases)
    InvariantRecords[Row].insert(Base);
}

void ReverseEmitter::readReusedRecords(BasicBlock &BB) {
  auto It = ExitCounts.find(&BB);
  if (It == ExitCounts.end())
    return;
  for (BasicBlock *H : It->second)
    for (const ReusedRecord &U : ReusedRecords.lookup(H)) {
      const LoopArray &A = LoopArrays[U.From.Header];
      Value *Base = RB.CreateLoad(RB.getPtrTy(), hoistSlot(U.RowLoop, A.Base));
      Value *Row =
          RB.CreateMul(reverseIteration(U.RowLoop), RB.getInt64(A.Stride));
      Value *Addr = RB.CreateGEP(RB.getInt8Ty(), Base,
                                 RB.CreateAdd(Row, RB.getInt64(U.From.Offset)));
      RB.CreateStore(loadRecord(RB, U.V->getType(), Addr), hoistSlot(H, U.V));
    }
}

} // namespace adcore
