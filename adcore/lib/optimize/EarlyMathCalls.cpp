//===- EarlyMathCalls.cpp - Sines and cosines before the values they cross ===//
//
// Every floating-point register is saved by the caller on x86-64 (System V),
// so each double live across a call of sin, cos or sincos is stored before
// it and loaded after it. Clang's IndVarSimplify sinks a function's sin and
// cos below the loops that do not use them (an angle computed before a
// rotation's 3-iteration loops is sunk to their exit), and once a
// derivative's short loops are unrolled the tangents of all that work are
// live across the call: the BA residual's tangent spilled 23 values around
// its sincos, and took 1.1x the time of Enzyme's, whose loops keep those
// values in stack arrays.
//
// In functions holding derivative code (shadow memory accesses,
// MemoryScopes.h), after the whole IR pipeline (nothing sinks them again),
// a sin or cos call moves up to right after the computation of its angle,
// and that computation (the loads and arithmetic it needs) to the top of
// its block, so that only the angle's inputs are live across the call; the
// loads of everything else are made after it. The call may move from a
// block into its single predecessor (the sine and cosine of a rotation's
// angle under `if (theta2 != 0)`), as math intrinsics may execute
// anywhere; never into a loop, and loads never move above a store or a call
// that may write memory.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"
#include "support/MemoryScopes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> EnableEarlyMathCalls(
    "adcc-early-math-calls", cl::init(true), cl::Hidden,
    cl::desc("Move sin and cos calls in derivative code up to their angle's "
             "computation, with the loads that computation needs"));

bool isSineOrCosine(const Instruction &I) {
  const auto *Call = dyn_cast<IntrinsicInst>(&I);
  return Call && (Call->getIntrinsicID() == Intrinsic::sin ||
                  Call->getIntrinsicID() == Intrinsic::cos);
}

bool holdsDerivativeCode(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if ((isa<LoadInst>(I) || isa<StoreInst>(I)) &&
          hasMemoryClass(I, MemoryClass::Shadow))
        return true;
  return false;
}

/// The instructions of \p Top and \p Bottom (\p Top, or its single
/// predecessor) that compute \p Angle, in program order, or false where
/// one of them cannot move to the top of \p Top: a phi, a load of
/// \p Bottom, an instruction other than a load that is not safe to
/// execute speculatively. Values of blocks that dominate \p Top are
/// inputs.
bool angleSlice(Instruction *Angle, BasicBlock *Top, BasicBlock *Bottom,
                SetVector<Instruction *> &Slice) {
  SmallVector<Instruction *, 16> Work{Angle};
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    BasicBlock *BB = I->getParent();
    if (BB != Top && BB != Bottom)
      continue; // (defined above Top: its dominator's value)
    if (isa<PHINode>(I) || I->isEHPad() || isa<AllocaInst>(I))
      return false;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      if (BB != Top || !L->isSimple())
        return false;
    } else if (I->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(I)) {
      // (Even within Top: what moves up passes instructions that might
      // not pass control on.)
      return false;
    }
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Work.push_back(OpI);
  }
  // (Top's instructions first: Top precedes Bottom.)
  for (BasicBlock *BB : {Top, Bottom})
    for (Instruction &I : *BB)
      if (Seen.contains(&I))
        Slice.insert(&I);
  return true;
}

/// Whether the loads of \p Slice in \p Top may move to the top of \p Top:
/// nothing before them that is not in the slice writes memory or might not
/// pass control on.
bool loadsMayMoveUp(BasicBlock *Top, const SetVector<Instruction *> &Slice) {
  const Instruction *LastLoad = nullptr;
  for (Instruction *I : Slice)
    if (isa<LoadInst>(I))
      LastLoad = I;
  if (!LastLoad)
    return true;
  for (Instruction &I : *Top) {
    if (&I == LastLoad)
      return true;
    if (Slice.contains(&I))
      continue;
    if (I.mayWriteToMemory() || !isGuaranteedToTransferExecutionToSuccessor(&I))
      return false;
  }
  return true;
}

/// Moves \p Call (sin or cos of an angle) and the computation of its angle
/// up, as the file comment says. Returns whether it moved anything.
bool moveUp(IntrinsicInst &Call, LoopInfo &LI) {
  auto *Angle = dyn_cast<Instruction>(Call.getArgOperand(0));
  if (!Angle || isa<PHINode>(Angle))
    return false;
  if (!isSafeToSpeculativelyExecute(&Call))
    return false;
  BasicBlock *Bottom = Call.getParent();
  // (The single predecessor where the angle's computation starts there.)
  BasicBlock *Pred = Bottom->getSinglePredecessor();
  if (Pred && LI.getLoopFor(Pred) != LI.getLoopFor(Bottom))
    Pred = nullptr;
  SetVector<Instruction *> Slice;
  BasicBlock *Top = Bottom;
  if (Pred && angleSlice(Angle, Pred, Bottom, Slice) &&
      any_of(Slice, [&](Instruction *I) { return I->getParent() == Pred; }) &&
      loadsMayMoveUp(Pred, Slice)) {
    Top = Pred;
  } else {
    Slice.clear();
    if (Angle->getParent() != Bottom ||
        !angleSlice(Angle, Bottom, Bottom, Slice) ||
        !loadsMayMoveUp(Bottom, Slice))
      return false;
  }
  // (Allocas stay first in the entry block.)
  BasicBlock::iterator Pos = Top->getFirstInsertionPt();
  while (Pos != Top->end() && isa<AllocaInst>(*Pos))
    ++Pos;
  bool Changed = false;
  for (Instruction *I : Slice) {
    if (Pos != Top->end() && &*Pos == I) {
      ++Pos;
      continue;
    }
    I->moveBefore(*Top, Pos);
    Changed = true;
  }
  // (After the calls of the same angle moved before, in their order.)
  while (Pos != Top->end() && &*Pos != &Call && isSineOrCosine(*Pos) &&
         cast<IntrinsicInst>(*Pos).getArgOperand(0) == Angle)
    ++Pos;
  if (&*Pos != &Call) {
    Call.moveBefore(*Top, Pos);
    Changed = true;
  }
  return Changed;
}

} // namespace

bool moveMathCallsUp(Function &F, LoopInfo &LI) {
  if (!EnableEarlyMathCalls || !holdsDerivativeCode(F))
    return false;
  SmallVector<IntrinsicInst *, 8> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isSineOrCosine(I))
        Calls.push_back(cast<IntrinsicInst>(&I));
  bool Changed = false;
  // (A sine and a cosine of one angle end up side by side, for sincos: the
  // second moves to right after the first.)
  for (IntrinsicInst *Call : Calls)
    Changed |= moveUp(*Call, LI);
  return Changed;
}

PreservedAnalyses EarlyMathCallsPass::run(Function &F,
                                          FunctionAnalysisManager &AM) {
  if (!moveMathCallsUp(F, AM.getResult<LoopAnalysis>(F)))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace adcore
