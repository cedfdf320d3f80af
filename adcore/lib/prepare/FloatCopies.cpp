//===- FloatCopies.cpp - Copies of floats carried as integers ------------===//
//
// At -O2 the optimizer may move a double it only copies as an i64 (a copy
// loop into a local array, fully unrolled, becomes `load i64` / `store
// i64`), and may carry that integer through a phi or a select to where it
// is stored:
//
//   %a = load i64, ptr %p, !tbaa !double
//   ...
//   %v = phi i64 [ %a, %x ], [ %b, %y ]
//   store i64 %v, ptr %q, !tbaa !double
//
// The reverse sweep sees an integer where the adjoint must flow, and a
// store of it (not a load straight into a store) it cannot give a
// floating-point view. When such a web's values are only stored, joined by
// phis and selects, or cast to a floating-point type, and what its parts
// say of their bits (the TBAA access types of its loads and stores, casts
// of a double into it or out of it) names one floating-point type and
// nothing else, the web is rewritten with that type: the same loads and
// stores of the same bits, now visibly of floats.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"
#include "analysis/TypeAnalysis.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// What the TBAA access type of \p I says of its \p Bits bits: a
/// floating-point type of that width, void for anything else it names,
/// null when it has no TBAA.
Type *tbaaType(const Instruction &I, unsigned Bits) {
  if (!I.getMetadata(LLVMContext::MD_tbaa))
    return nullptr;
  LLVMContext &C = I.getContext();
  Kind K = kindOfTBAA(I);
  if (K == Kind::Double && Bits == 64)
    return Type::getDoubleTy(C);
  if (K == Kind::Float && Bits == 32)
    return Type::getFloatTy(C);
  return Type::getVoidTy(C);
}

/// The integer values around \p Root that carry one floating-point value:
/// loads, phis, selects and casts of a float to the integer; used only
/// stored, joined or cast back. Each says what it carries where it can (a
/// load's or a store's TBAA, a cast): they must agree on one floating-point
/// type, which \p FT receives; nothing when they do not, when nothing says
/// it, or when a value is used otherwise.
std::optional<SetVector<Instruction *>> collectWeb(LoadInst &Root, Type *&FT) {
  Type *IT = Root.getType();
  unsigned Bits = IT->getIntegerBitWidth();
  FT = nullptr;
  bool Agree = true;
  auto Says = [&](Type *T) { // (null: says nothing)
    if (!T)
      return;
    if (!T->isFloatingPointTy() || (FT && FT != T))
      Agree = false;
    else
      FT = T;
  };
  SetVector<Instruction *> Web;
  SmallVector<Instruction *, 8> Work{&Root};
  auto Join = [&](Value *V) {
    if (isa<Constant>(V))
      return true; // (bits of a constant: cast below)
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getType() != IT)
      return false;
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (!LI->isSimple())
        return false;
      Says(tbaaType(*LI, Bits));
    } else if (auto *BC = dyn_cast<BitCastInst>(I)) {
      Says(BC->getSrcTy()); // (a float's bits: a source of the web)
    } else if (!isa<PHINode, SelectInst>(I)) {
      return false;
    }
    if (Web.insert(I))
      Work.push_back(I);
    return true;
  };
  Join(&Root);
  while (!Work.empty() && Agree) {
    Instruction *I = Work.pop_back_val();
    if (auto *Phi = dyn_cast<PHINode>(I))
      for (Value *In : Phi->incoming_values())
        if (!Join(In))
          return std::nullopt;
    if (auto *Sel = dyn_cast<SelectInst>(I))
      if (!Join(Sel->getTrueValue()) || !Join(Sel->getFalseValue()))
        return std::nullopt;
    for (User *U : I->users()) {
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() != I || !SI->isSimple())
          return std::nullopt;
        Says(tbaaType(*SI, Bits));
        continue;
      }
      if (auto *BC = dyn_cast<BitCastInst>(U)) {
        Says(BC->getType());
        continue;
      }
      if (!isa<PHINode, SelectInst>(U) ||
          (isa<SelectInst>(U) && cast<SelectInst>(U)->getCondition() == I) ||
          !Join(U))
        return std::nullopt;
    }
  }
  if (!Agree || !FT || FT->getPrimitiveSizeInBits() != Bits)
    return std::nullopt;
  return Web;
}

/// Gives \p Web the floating-point type \p FT.
void retype(const SetVector<Instruction *> &Web, Type *FT) {
  DenseMap<Value *, Value *> New;
  for (Instruction *I : Web) {
    Instruction *F;
    if (auto *BC = dyn_cast<BitCastInst>(I)) {
      New[I] = BC->getOperand(0); // (the float itself)
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      auto *L = new LoadInst(FT, LI->getPointerOperand(), "", LI->isVolatile(),
                             LI->getAlign(), LI->getIterator());
      L->copyMetadata(*LI);
      F = L;
    } else if (auto *Phi = dyn_cast<PHINode>(I)) {
      F = PHINode::Create(FT, Phi->getNumIncomingValues(), "",
                          Phi->getIterator());
    } else {
      auto *Sel = cast<SelectInst>(I);
      F = SelectInst::Create(Sel->getCondition(), PoisonValue::get(FT),
                             PoisonValue::get(FT), "", Sel->getIterator(), Sel);
    }
    F->setDebugLoc(I->getDebugLoc());
    New[I] = F;
  }
  const DataLayout &DL = Web.front()->getDataLayout();
  auto Of = [&](Value *V) -> Value * {
    if (auto *C = dyn_cast<Constant>(V))
      return ConstantFoldCastOperand(Instruction::BitCast, C, FT, DL);
    return New.lookup(V);
  };
  for (Instruction *I : Web) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      auto *F = cast<PHINode>(New[I]);
      for (auto [In, BB] : zip(Phi->incoming_values(), Phi->blocks()))
        F->addIncoming(Of(In), BB);
    } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
      auto *F = cast<SelectInst>(New[I]);
      F->setTrueValue(Of(Sel->getTrueValue()));
      F->setFalseValue(Of(Sel->getFalseValue()));
    }
  }
  for (Instruction *I : Web)
    for (User *U : make_early_inc_range(I->users())) {
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        auto *S =
            new StoreInst(New[I], SI->getPointerOperand(), SI->isVolatile(),
                          SI->getAlign(), SI->getIterator());
        S->copyMetadata(*SI);
        SI->eraseFromParent();
      } else if (auto *BC = dyn_cast<BitCastInst>(U)) {
        BC->replaceAllUsesWith(New[I]);
        BC->eraseFromParent();
      }
    }
  // (What is left are uses inside the web.)
  for (Instruction *I : Web) {
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    if (!isa<BitCastInst>(I))
      New[I]->takeName(I);
  }
  for (Instruction *I : Web)
    I->eraseFromParent();
}

} // namespace

bool typeFloatCopies(Function &F) {
  bool Changed = false;
  SmallPtrSet<Instruction *, 16> Done;
  SmallVector<LoadInst *, 8> Roots;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && LI->getType()->isIntegerTy() && LI->isSimple())
        Roots.push_back(LI);
  for (LoadInst *LI : Roots) {
    if (Done.contains(LI))
      continue;
    Type *FT;
    std::optional<SetVector<Instruction *>> Web = collectWeb(*LI, FT);
    if (!Web)
      continue;
    // A lone load stored straight back is the reverse sweep's own case
    // (IntegerCopies.cpp): only webs through phis and selects are retyped.
    if (none_of(*Web,
                [](Instruction *I) { return isa<PHINode, SelectInst>(I); }))
      continue;
    Done.insert(Web->begin(), Web->end());
    retype(*Web, FT);
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
