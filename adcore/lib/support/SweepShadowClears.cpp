//===- SweepShadowClears.cpp - One clear per loop of y[i] ----------------===//
//
// See SweepShadowClears.h. The range of a store whose address is an affine
// recurrence {a,+,s} of its loop, run in each of the loop's n iterations
// (its block dominates the latch, the loop's only exit), is [min(a, a +
// (n-1) s), max(a, a + (n-1) s) + bytes).
//
//===----------------------------------------------------------------------===//

#include "SweepShadowClears.h"
#include "PointerShadowMarks.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *SweepName = "adcc.shadow.clear.sweep";

/// Whether nothing in \p L but stores of numbers may touch the marks:
/// no pointer loaded or stored, no call but the deferred checks, the
/// tape's and intrinsics that do not move memory.
bool onlyNumbersIn(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && LI->getType()->isPtrOrPtrVectorTy())
        return false;
      if (auto *SI = dyn_cast<StoreInst>(&I);
          SI && SI->getValueOperand()->getType()->isPtrOrPtrVectorTy())
        return false;
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (isa<MemIntrinsic>(Call))
        return false;
      if (isa<IntrinsicInst>(Call))
        continue;
      const Function *F = Call->getCalledFunction();
      if (!F || !(F->getName() == SweepName ||
                  F->getName().starts_with("adcc_tape_")))
        return false;
    }
  return true;
}

/// Emits before \p L the check of the range that \p Call's store sweeps;
/// false where it cannot.
bool hoist(CallInst &Call, Loop *L, DominatorTree &DT, ScalarEvolution &SE) {
  auto *Len = dyn_cast<ConstantInt>(Call.getArgOperand(1));
  BasicBlock *Pre = L ? L->getLoopPreheader() : nullptr;
  BasicBlock *Latch = L ? L->getLoopLatch() : nullptr;
  if (!Len || !Pre || !Latch || L->getExitingBlock() != Latch ||
      !DT.dominates(Call.getParent(), Latch) || !onlyNumbersIn(*L))
    return false;
  const auto *AR =
      dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Call.getArgOperand(0)));
  const SCEV *Trips = SE.getBackedgeTakenCount(L);
  if (!AR || AR->getLoop() != L || !AR->isAffine() ||
      isa<SCEVCouldNotCompute>(Trips))
    return false;
  const DataLayout &DL = Call.getModule()->getDataLayout();
  Type *IntPtr = DL.getIntPtrType(Call.getArgOperand(0)->getType());
  const SCEV *First = SE.getPtrToIntExpr(AR->getStart(), IntPtr);
  const SCEV *Last =
      SE.getPtrToIntExpr(AR->evaluateAtIteration(Trips, SE), IntPtr);
  if (isa<SCEVCouldNotCompute>(First) || isa<SCEVCouldNotCompute>(Last))
    return false;
  const SCEV *Lo = SE.getUMinExpr(First, Last);
  const SCEV *Hi = SE.getUMaxExpr(First, Last);
  Instruction *At = Pre->getTerminator();
  SCEVExpander Expander(SE, "sweep");
  if (!SE.isLoopInvariant(Lo, L) || !SE.isLoopInvariant(Hi, L) ||
      !Expander.isSafeToExpandAt(Lo, At) ||
      !Expander.isSafeToExpandAt(Hi, At))
    return false;
  Value *LoV = Expander.expandCodeFor(Lo, IntPtr, At);
  Value *HiV = Expander.expandCodeFor(Hi, IntPtr, At);
  IRBuilder<> B(At);
  Value *Bytes = B.CreateAdd(B.CreateSub(HiV, LoV),
                             B.CreateZExtOrTrunc(Len, IntPtr), "sweep.bytes");
  clearPointerShadows(B, B.CreateIntToPtr(LoV, Call.getArgOperand(0)->getType()),
                      Bytes, Call.getArgOperand(2));
  return true;
}

} // namespace

void deferSweepShadowClear(IRBuilder<> &B, Value *Shadow, Value *Bytes,
                           unsigned Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Sweep = M.getOrInsertFunction(
      SweepName,
      FunctionType::get(B.getVoidTy(),
                        {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty()}, false));
  B.CreateCall(Sweep, {Shadow, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()),
                       B.getInt32(Level)});
}

bool isSweepShadowClearName(StringRef Name) { return Name == SweepName; }

void placeSweepShadowClears(Module &M) {
  Function *Sweep = M.getFunction(SweepName);
  if (!Sweep)
    return;
  MapVector<Function *, SmallVector<CallInst *, 4>> Calls;
  for (User *U : Sweep->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      Calls[Call->getFunction()].push_back(Call);
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  for (auto &[F, FnCalls] : Calls) {
    DominatorTree DT(*F);
    LoopInfo LI(DT);
    TargetLibraryInfo TLI(TLII, F);
    AssumptionCache AC(*F);
    ScalarEvolution SE(*F, TLI, AC, DT, LI);
    // (Decided for all first: a hoisted check adds no loop, no call in
    // one.)
    SmallVector<bool, 4> Hoisted;
    for (CallInst *Call : FnCalls)
      Hoisted.push_back(hoist(*Call, LI.getLoopFor(Call->getParent()), DT, SE));
    for (auto [Call, Done] : zip(FnCalls, Hoisted)) {
      if (!Done) {
        IRBuilder<> B(Call);
        clearPointerShadows(B, Call->getArgOperand(0), Call->getArgOperand(1),
                            Call->getArgOperand(2));
      }
      Call->eraseFromParent();
    }
  }
  if (Sweep->use_empty())
    Sweep->eraseFromParent();
}

} // namespace adcore
