//===- MinMaxChoices.cpp - Float min/max choices stay choices ------------===//
//
// A maximum written as a choice, `r = (r > v[i]) ? r : v[i]`, gives the
// derivative to the operand the program chooses: on a tie the condition is
// false and v[i] is chosen. With -ffast-math the ternary's phi carries
// `nnan nsz`, SimplifyCFG turns it into a select with those flags, and
// InstCombine turns the select into `llvm.maxnum(r, v[i])`, whose tie is no
// longer the program's: the derivative would go to the first maximum. (It
// also folds a minimum of a minimum, `(m < a) ? m : a` with `m = (a < b) ?
// a : b`, into the inner one when the compare has `nnan`.)
//
// At the start of the pipeline, in the functions the module's derivative
// requests reach (requested and declared-derivative primals and,
// transitively, the functions they call directly or may call through a
// pointer), floating-point phis and selects decided by a floating-point
// compare lose `nnan` and `nsz`, the flags that license the fold, and so do
// the compares that decide them. They stay selects, whose derivative follows
// their condition. Calls of fmax and fmin
// (llvm.maxnum, ...) that the program writes itself give a tie to their
// first operand (MathRules.cpp); a constant first operand is put second
// here, where InstCombine would put it from -O1 on, so that the tie is the
// same at every level. Other functions keep their form; a function
// differentiated only at link time from another file (CrossTU.h) keeps its
// own compile's form (docs/rules.md).
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"
#include "adcore/RequestCollector.h"

#include "support/CallSites.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The primals of the `adcc.derivative:` annotations (DeclaredDerivatives.h).
void addDeclaredPrimals(Module &M, SetVector<Function *> &Out) {
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return;
  auto *Entries = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Entries)
    return;
  for (Use &U : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(U.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    if (F &&
        constantString(Entry->getOperand(1)).starts_with("adcc.derivative:"))
      Out.insert(F);
  }
}

/// The functions whose bodies the module's derivatives may differentiate.
SetVector<Function *> reachedFunctions(Module &M) {
  SetVector<Function *> Reached;
  CollectedRequests Found = collectRequests(M);
  for (const Request &R : Found.Requests)
    Reached.insert(R.Primal);
  // A request whose function is not yet known (a pointer the simplification
  // pipeline will resolve) may name any function whose address is taken.
  if (!Found.Errors.empty())
    for (Function &F : M)
      if (!F.isDeclaration() && F.hasAddressTaken())
        Reached.insert(&F);
  addDeclaredPrimals(M, Reached);
  for (unsigned I = 0; I < Reached.size(); ++I) {
    for (Instruction &Inst : instructions(*Reached[I])) {
      auto *Call = dyn_cast<CallBase>(&Inst);
      if (!Call)
        continue;
      if (Function *Callee = Call->getCalledFunction())
        Reached.insert(Callee);
      else if (!Call->isInlineAsm())
        for (Function *Target : possibleCallTargets(M, Call->getFunctionType()))
          Reached.insert(Target);
    }
  }
  return Reached;
}

/// Whether \p Cond, an i1 or vector of i1, is computed from a floating-point
/// compare (through logic and casts, a few levels deep).
bool comesFromFloatCompare(Value *Cond, unsigned Depth = 0) {
  if (isa<FCmpInst>(Cond))
    return true;
  auto *I = dyn_cast<Instruction>(Cond);
  if (!I || Depth > 3 ||
      !(I->isBitwiseLogicOp() || isa<CastInst>(I) || isa<ICmpInst>(I) ||
        isa<SelectInst>(I) || isa<PHINode>(I)))
    return false;
  return any_of(I->operands(), [&](Value *Op) {
    return comesFromFloatCompare(Op, Depth + 1);
  });
}

/// The condition of the branch on a floating-point compare by which the
/// phi \p PN chooses (its block's immediate dominator ends in one), or null.
Value *floatCompareChoosing(PHINode &PN, DominatorTree &DT) {
  DomTreeNode *Node = DT.getNode(PN.getParent());
  if (!Node || !Node->getIDom())
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Node->getIDom()->getBlock()->getTerminator());
  return Br && Br->isConditional() && comesFromFloatCompare(Br->getCondition())
             ? Br->getCondition()
             : nullptr;
}

/// Whether \p I has a flag that lets InstCombine fold it into a min or max.
bool hasMinMaxFlags(Instruction &I) {
  return isa<FPMathOperator>(I) && (I.hasNoNaNs() || I.hasNoSignedZeros());
}

void clearMinMaxFlags(Instruction &I) {
  I.setHasNoNaNs(false);
  I.setHasNoSignedZeros(false);
}

/// Clears the flags of the floating-point compares \p Cond is computed
/// from (as comesFromFloatCompare walks it). InstCombine reads a choice's
/// min/max pattern with the compare's flags too: with `nnan` on the compare
/// it folds `(m < t) ? m : t` of `m = (a < b) ? a : b` and `t = a`, a
/// minimum of a minimum, into the inner choice, whose tie is no longer
/// the program's.
void clearCompareFlags(Value *Cond, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(Cond);
  if (!I || Depth > 3)
    return;
  if (isa<FCmpInst>(I)) {
    clearMinMaxFlags(*I);
    return;
  }
  if (I->isBitwiseLogicOp() || isa<CastInst, ICmpInst, SelectInst, PHINode>(I))
    for (Value *Op : I->operands())
      clearCompareFlags(Op, Depth + 1);
}

/// Whether \p I is a call of llvm.maxnum, llvm.minimum, ... (fmax, fmin).
bool isMinMaxIntrinsic(Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::maxnum:
  case Intrinsic::minnum:
  case Intrinsic::maximum:
  case Intrinsic::minimum:
  case Intrinsic::maximumnum:
  case Intrinsic::minimumnum:
    return true;
  default:
    return false;
  }
}

/// Puts a constant first operand of a min/max intrinsic second, where
/// InstCombine puts it from -O1 on: its derivative gives a tie to the first
/// operand, and `fmax(5.0, x)` at x == 5 then has the same derivative at
/// every level. (The intrinsics may return either of equal operands.)
bool placeConstantSecond(Instruction &I) {
  auto *Call = cast<CallBase>(&I);
  Value *A = Call->getArgOperand(0), *B = Call->getArgOperand(1);
  if (!isa<Constant>(A) || isa<Constant>(B))
    return false;
  Call->setArgOperand(0, B);
  Call->setArgOperand(1, A);
  return true;
}

bool keepChoicesIn(Function &F) {
  std::optional<DominatorTree> DT;
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    if (isMinMaxIntrinsic(I)) {
      Changed |= placeConstantSecond(I);
      continue;
    }
    if (!I.getType()->isFPOrFPVectorTy() || !hasMinMaxFlags(I))
      continue;
    Value *Cond = nullptr;
    if (auto *Sel = dyn_cast<SelectInst>(&I)) {
      if (comesFromFloatCompare(Sel->getCondition()))
        Cond = Sel->getCondition();
    } else if (auto *PN = dyn_cast<PHINode>(&I)) {
      if (!DT)
        DT.emplace(F);
      Cond = floatCompareChoosing(*PN, *DT);
    }
    if (Cond) {
      clearMinMaxFlags(I);
      clearCompareFlags(Cond);
      Changed = true;
    }
  }
  return Changed;
}

} // namespace

bool keepMinMaxChoices(Module &M) {
  bool Changed = false;
  for (Function *F : reachedFunctions(M))
    if (!F->isDeclaration())
      Changed |= keepChoicesIn(*F);
  return Changed;
}

PreservedAnalyses KeepMinMaxChoicesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  // (Only flags change: the CFG and the analyses over it stay valid.)
  if (!keepMinMaxChoices(M))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace adcore
