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
// floating-point view. When every load of such a web says (by its TBAA
// access type) that it reads a double (float), and the web's values are
// only stored, joined by phis and selects, or cast to that type, the web
// is rewritten with that floating-point type: the same loads and stores of
// the same bits, now visibly of floats.
//
//===----------------------------------------------------------------------===//

#include "adcore/Synthesis.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type the TBAA access type of \p I names ("double",
/// "float") when it has \p Bits bits; else null.
Type *tbaaFloat(const Instruction &I, unsigned Bits) {
  MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 2)
    return nullptr;
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  auto *Name = Access && Access->getNumOperands()
                   ? dyn_cast<MDString>(Access->getOperand(0))
                   : nullptr;
  if (!Name)
    return nullptr;
  LLVMContext &C = I.getContext();
  if (Name->getString() == "double" && Bits == 64)
    return Type::getDoubleTy(C);
  if (Name->getString() == "float" && Bits == 32)
    return Type::getFloatTy(C);
  return nullptr;
}

/// The integer values around \p Root that carry one floating-point value
/// of type \p FT: loads, phis and selects; nothing when one of them is used
/// otherwise than stored, joined or cast to \p FT.
std::optional<SetVector<Instruction *>> collectWeb(LoadInst &Root, Type *FT) {
  SetVector<Instruction *> Web;
  SmallVector<Instruction *, 8> Work{&Root};
  auto Join = [&](Value *V) {
    if (isa<Constant>(V))
      return true; // (bits of a constant: cast below)
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getType() != Root.getType())
      return false;
    if (auto *LI = dyn_cast<LoadInst>(I))
      if (!LI->isSimple() || tbaaFloat(*LI, FT->getPrimitiveSizeInBits()) != FT)
        return false;
    if (!isa<LoadInst, PHINode, SelectInst>(I))
      return false;
    if (Web.insert(I))
      Work.push_back(I);
    return true;
  };
  Web.insert(&Root);
  while (!Work.empty()) {
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
        Type *Says = tbaaFloat(*SI, FT->getPrimitiveSizeInBits());
        if (SI->getValueOperand() != I || !SI->isSimple() ||
            (SI->getMetadata(LLVMContext::MD_tbaa) && Says != FT))
          return std::nullopt;
        continue;
      }
      if (auto *BC = dyn_cast<BitCastInst>(U); BC && BC->getType() == FT)
        continue;
      if (auto *Sel = dyn_cast<SelectInst>(U); Sel && Sel->getCondition() == I)
        return std::nullopt;
      if (!isa<PHINode, SelectInst>(U) || !Join(U))
        return std::nullopt;
    }
  }
  return Web;
}

/// Gives \p Web the floating-point type \p FT.
void retype(const SetVector<Instruction *> &Web, Type *FT) {
  DenseMap<Value *, Value *> New;
  for (Instruction *I : Web) {
    Instruction *F;
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
    Type *FT = tbaaFloat(*LI, LI->getType()->getIntegerBitWidth());
    if (!FT)
      continue;
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
