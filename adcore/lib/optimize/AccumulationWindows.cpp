//===- AccumulationWindows.cpp - Stencil adjoints added once per element -===//
//
// The reverse loop of a stencil scatters: iteration t adds into the shadow
// elements around its own, `du[c+1] += a; du[c] += b; du[c-1] += d`. Each
// element is loaded and stored once per offset, and the next iteration
// reloads what this one just stored. That chain through memory runs at the
// speed of store-to-load forwarding, and the loop vectorizer rejects it (a
// dependence at distance one).
//
// Here the contributions wait in registers instead: a chain of header phis
// per offset carries each addend to the iteration after which no later
// iteration adds to its element. That iteration loads the element once, adds
// the waiting addends in the order the original loop added them, and stores
// it once; the elements still pending when the loop ends are completed after
// it. The same additions happen on the same values in the same order, so the
// loop computes what it computed before (a missing addend, before the first
// iteration, is -0.0, or +0.0 for a subtraction, which leaves every value
// as it is; later passes may reassociate the additions marked `reassoc`,
// here as there). The remaining recurrences are on values, which the loop
// vectorizer handles.
//
// The other memory accesses of the loop must not touch the elements in
// flight. Where alias analysis cannot tell, the loop is versioned: a check
// before it compares the address ranges the loop covers, and an unchanged
// copy runs when they overlap. An access that meets the elements in every
// run (the reverse of an in-place update) leaves the loop as it is.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"

#include "LoopUpdates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> EnableWindows(
    "adcc-accumulation-windows", cl::init(true), cl::Hidden,
    cl::desc("Keep a loop's adjoint contributions to neighbouring elements "
             "in registers (tests compare the results with and without)"));

/// The value \p V (of the loop body) where the loop has exited into
/// \p End, which only the body branches to.
Value *atExit(Value *V, BasicBlock *Body, BasicBlock *End) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != Body)
    return V;
  for (PHINode &Phi : End->phis())
    if (Phi.getIncomingValue(0) == V)
      return &Phi;
  PHINode *Phi =
      PHINode::Create(V->getType(), 1, V->getName() + ".end", End->begin());
  Phi->addIncoming(V, Body);
  return Phi;
}

/// Keeps the addends of \p W in header phis; the leading update adds them.
void rewriteWindow(Window &W, BasicBlock *Body, BasicBlock *Pre,
                   BasicBlock *End) {
  // Waiting[U][D-1]: U's addend from D iterations ago.
  SmallVector<SmallVector<PHINode *, 4>, 4> Waiting(W.Updates.size());
  for (auto [U, Chain] : zip(W.Updates, Waiting)) {
    // Before the first iteration: what leaves every value as it is
    // (x + -0.0, x - +0.0).
    Constant *Nothing = U.Add->getOpcode() == Instruction::FSub
                            ? ConstantFP::getZero(W.Ty)
                            : ConstantFP::getNegativeZero(W.Ty);
    Value *Prev = U.Addend;
    for (unsigned D = 1; D <= U.Delay; ++D) {
      PHINode *Phi = PHINode::Create(W.Ty, 2, "adcc.waiting", Body->begin());
      Phi->addIncoming(Nothing, Pre);
      Phi->addIncoming(Prev, Body);
      Chain.push_back(Phi);
      Prev = Phi;
    }
  }
  // The leading update completes its element at the end of the iteration.
  const Update &Lead = W.leading();
  Instruction *Term = Body->getTerminator();
  Lead.Load->moveBefore(Term->getIterator());
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(Lead.Store->getDebugLoc());
  Value *Sum = Lead.Load;
  for (auto [U, Chain] : zip(W.Updates, Waiting)) {
    if (!U.Delay)
      continue;
    B.setFastMathFlags(U.Add->getFastMathFlags());
    Sum = B.CreateBinOp(U.Add->getOpcode(), Sum, Chain.back());
  }
  Lead.Add->moveBefore(Term->getIterator());
  Lead.Add->replaceUsesOfWith(Lead.Load, Sum);
  Lead.Store->moveBefore(Term->getIterator());

  // The elements still pending after the last iteration.
  IRBuilder<> E(End->getTerminator());
  E.SetCurrentDebugLocation(Lead.Store->getDebugLoc());
  Value *LeadAddress = atExit(Lead.Store->getPointerOperand(), Body, End);
  for (unsigned J = 1; J <= W.MaxDelay; ++J) {
    Value *Address =
        E.CreateConstGEP1_64(E.getInt8Ty(), LeadAddress, J * W.Step);
    LoadInst *Load = E.CreateAlignedLoad(W.Ty, Address, Lead.Load->getAlign());
    Load->copyMetadata(*Lead.Load);
    Value *Acc = Load;
    for (auto [U, Chain] : zip(W.Updates, Waiting)) {
      if (U.Delay < J)
        continue;
      unsigned Ago = U.Delay - J;
      Value *Addend = Ago ? Chain[Ago - 1] : U.Addend;
      E.setFastMathFlags(U.Add->getFastMathFlags());
      Acc = E.CreateBinOp(U.Add->getOpcode(), Acc, atExit(Addend, Body, End));
    }
    StoreInst *Store =
        E.CreateAlignedStore(Acc, Address, Lead.Store->getAlign());
    Store->copyMetadata(*Lead.Store);
  }

  for (Update &U : W.Updates) {
    if (!U.Delay)
      continue;
    U.Store->eraseFromParent();
    U.Add->eraseFromParent();
    U.Load->eraseFromParent();
  }
}

/// The accesses of each of \p P's classes after the rewrite: a window's
/// other updates are gone.
SmallVector<SmallVector<Instruction *, 4>, 8> rewrittenClasses(const Plan &P) {
  SmallVector<SmallVector<Instruction *, 4>, 8> Classes;
  for (const AccessClass &C : P.Classes) {
    Classes.push_back(C.Accesses);
    if (C.WindowIndex >= 0) {
      const Update &Lead = P.Windows[C.WindowIndex].leading();
      Classes.back() = {Lead.Load, Lead.Store};
    }
  }
  return Classes;
}

/// Rewrites \p L by \p P: versioned when a range check is needed.
void rewriteLoop(Loop &L, Plan &P, ScalarEvolution &SE) {
  BasicBlock *Body = L.getHeader(), *Pre = L.getLoopPreheader(),
             *Exit = L.getExitBlock();
  if (Value *Check = checkDisjoint(P, L, SE))
    versionLoop(L, Check);
  BasicBlock *End = BasicBlock::Create(Body->getContext(), "adcc.window.end",
                                       Body->getParent(), Exit);
  BranchInst::Create(Exit, End);
  Body->getTerminator()->replaceSuccessorWith(Exit, End);
  for (PHINode &Phi : Exit->phis())
    Phi.replaceIncomingBlockWith(Body, End);
  for (Window &W : P.Windows)
    rewriteWindow(W, Body, Pre, End);
  if (P.Scoped)
    scopeAccesses(rewrittenClasses(P), Pre);
}

} // namespace

bool keepAccumulationsInRegisters(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !EnableWindows)
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AA = FAM.getResult<AAManager>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  SmallVector<std::pair<Loop *, Plan>, 4> Plans;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      if (std::optional<Plan> P = planLoop(*L, SE, AA))
        Plans.push_back({L, std::move(*P)});
  if (Plans.empty())
    return false;
  // Values of the loops used after them go through exit phis: the copy of a
  // versioned loop adds its own.
  for (auto &[L, P] : Plans)
    formLCSSA(*L, DT, &LI, &SE);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  for (auto &[L, P] : Plans) {
    for (const Window &W : P.Windows)
      ORE.emit([&] {
        return OptimizationRemark("adcc", "AccumulationWindow",
                                  W.leading().Store)
               << "additions into "
               << ore::NV("Elements", unsigned(W.Updates.size()))
               << " neighbouring elements kept in registers (a window of "
               << ore::NV("Span", W.MaxDelay + 1)
               << ") until each element is complete"
               << (P.Disjoint.empty() ? ""
                                      : " (the loop's other accesses are "
                                        "checked not to meet them)");
      });
    rewriteLoop(*L, P, SE);
  }
  return true;
}

} // namespace adcore
