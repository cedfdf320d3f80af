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
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

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

/// A float taken out of a web's integer: `trunc` of a web value, or of
/// its `lshr` by a multiple of the float's width, the lane \p Lane of the
/// integer seen as a vector of such floats.
struct LaneRead {
  TruncInst *Trunc;
  unsigned Lane;
};

/// An integer built of lanes: the `or` of lane values, each zero-extended
/// and shifted to its place, and of a constant zero in those lanes
/// (`{x, -0.5f}` made as `zext (bitcast x) | 0xbf000000'00000000`).
struct LaneBuild {
  SmallVector<std::pair<Value *, unsigned>, 2> Parts; // lane value, lane
  APInt Constant;
  unsigned Width = 0; // (of a lane)
  SmallVector<Instruction *, 4> Inner; // the ors, zexts and shifts
};

/// The lanes \p Or builds, or nothing when it is not such a build.
std::optional<LaneBuild> lanesBuiltBy(BinaryOperator &Or) {
  unsigned Bits = Or.getType()->getIntegerBitWidth();
  LaneBuild B;
  B.Constant = APInt(Bits, 0);
  SmallVector<Value *, 4> Work{&Or};
  SmallBitVector Taken;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (auto *C = dyn_cast<ConstantInt>(V)) {
      B.Constant |= C->getValue();
      continue;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || (I != &Or && !I->hasOneUse()))
      return std::nullopt;
    if (I->getOpcode() == Instruction::Or) {
      if (I != &Or)
        B.Inner.push_back(I);
      Work.append({I->getOperand(0), I->getOperand(1)});
      continue;
    }
    // A lane: `zext`, maybe shifted left by a multiple of its width.
    unsigned Shift = 0;
    if (I->getOpcode() == Instruction::Shl) {
      auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (!C)
        return std::nullopt;
      Shift = unsigned(C->getZExtValue());
      B.Inner.push_back(I);
      I = dyn_cast<ZExtInst>(I->getOperand(0));
      if (!I || !I->hasOneUse())
        return std::nullopt;
    }
    if (!isa<ZExtInst>(I))
      return std::nullopt;
    B.Inner.push_back(I);
    unsigned E = I->getOperand(0)->getType()->getIntegerBitWidth();
    if ((B.Width && B.Width != E) || Bits % E || Shift % E || Shift >= Bits)
      return std::nullopt;
    B.Width = E;
    unsigned Lane = Shift / E;
    if (Taken.size() <= Lane)
      Taken.resize(Lane + 1);
    if (Taken.test(Lane))
      return std::nullopt;
    Taken.set(Lane);
    B.Parts.push_back({I->getOperand(0), Lane});
  }
  if (B.Parts.empty())
    return std::nullopt;
  // (The constant must leave the lanes' bits alone.)
  for (auto &[X, Lane] : B.Parts)
    if (!B.Constant.extractBits(B.Width, Lane * B.Width).isZero())
      return std::nullopt;
  return B;
}

/// The integer values around a root that carry floating-point data, the
/// floats read out of them and put into them, and the type that holds the
/// same bits.
struct FloatWeb {
  SetVector<Instruction *> Values;
  SmallVector<LaneRead, 4> Reads;
  DenseMap<Instruction *, LaneBuild> Builds;
  Type *FT = nullptr;
};

/// The integer values around \p Root that carry one floating-point value,
/// or several side by side (a `{float, float}` struct copied as an i64):
/// loads, phis, selects, casts of floats to the integer and integers built
/// of lanes; used only stored, joined, cast back, or cut into lanes. Each
/// says what it carries where it can (a load's or a store's TBAA, a cast,
/// a lane cast to a float or made of one): they must agree on one
/// floating-point type, and each lane of several must be a float somewhere;
/// nothing when they do not, when nothing says it, or when a value is used
/// otherwise.
std::optional<FloatWeb> collectWeb(Instruction &Root) {
  Type *IT = Root.getType();
  unsigned Bits = IT->getIntegerBitWidth();
  FloatWeb W;
  Type *&FT = W.FT;
  bool Agree = true;
  auto Says = [&](Type *T) { // (null: says nothing)
    if (!T)
      return;
    if (!T->isFPOrFPVectorTy() || (FT && FT != T))
      Agree = false;
    else
      FT = T;
  };
  // What the lanes' reads say: one floating-point type, and which lanes.
  Type *LaneT = nullptr;
  SmallBitVector LaneSaid;
  auto LaneSays = [&](Type *T, unsigned Lane) {
    if (!T)
      return;
    if (!T->isFloatingPointTy() || (LaneT && LaneT != T))
      Agree = false;
    else
      LaneT = T;
    if (Lane >= LaneSaid.size())
      LaneSaid.resize(Lane + 1);
    LaneSaid.set(Lane);
  };
  // A lane cut out of \p V, shifted right by \p Shift bits first.
  auto Cut = [&](User *U, unsigned Shift) {
    auto *T = dyn_cast<TruncInst>(U);
    if (!T)
      return false;
    unsigned E = T->getType()->getIntegerBitWidth();
    if (Shift % E || Bits % E)
      return false;
    W.Reads.push_back({T, Shift / E});
    for (User *TU : T->users()) {
      if (auto *BC = dyn_cast<BitCastInst>(TU))
        LaneSays(BC->getType(), Shift / E);
      else if (auto *SI = dyn_cast<StoreInst>(TU);
               SI && SI->getValueOperand() == T)
        LaneSays(tbaaType(*SI, E), Shift / E);
      // (Any other use keeps the lane's bits as an integer.)
    }
    return true;
  };
  SetVector<Instruction *> &Web = W.Values;
  SmallVector<Instruction *, 8> Work;
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
    } else if (I->getOpcode() == Instruction::Or) {
      if (!W.Builds.count(I)) {
        std::optional<LaneBuild> B = lanesBuiltBy(*cast<BinaryOperator>(I));
        if (!B)
          return false;
        for (auto &[X, Lane] : B->Parts)
          if (auto *BC = dyn_cast<BitCastInst>(X))
            LaneSays(BC->getSrcTy(), Lane);
        W.Builds[I] = std::move(*B);
      }
    } else if (!isa<PHINode, SelectInst>(I)) {
      return false;
    }
    if (Web.insert(I))
      Work.push_back(I);
    return true;
  };
  if (!Join(&Root))
    return std::nullopt;
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
      if (Cut(U, 0))
        continue;
      if (auto *BO = dyn_cast<BinaryOperator>(U);
          BO && BO->getOpcode() == Instruction::LShr &&
          BO->getOperand(0) == I && isa<ConstantInt>(BO->getOperand(1))) {
        unsigned Shift =
            unsigned(cast<ConstantInt>(BO->getOperand(1))->getZExtValue());
        if (BO->use_empty() || !all_of(BO->users(), [&](User *BU) {
              return Cut(BU, Shift);
            }))
          return std::nullopt;
        continue;
      }
      if (!isa<PHINode, SelectInst>(U) ||
          (isa<SelectInst>(U) && cast<SelectInst>(U)->getCondition() == I) ||
          !Join(U))
        return std::nullopt;
    }
  }
  if (!Agree)
    return std::nullopt;
  if (!W.Reads.empty() || !W.Builds.empty()) {
    // Lanes of one width, each a float of that width somewhere.
    if (!LaneT)
      return std::nullopt;
    unsigned E = LaneT->getPrimitiveSizeInBits();
    unsigned N = Bits / E;
    if (Bits % E || N < 2 || LaneSaid.size() != N || !LaneSaid.all() ||
        any_of(W.Reads,
               [&](const LaneRead &R) {
                 return R.Trunc->getType()->getIntegerBitWidth() != E;
               }) ||
        any_of(W.Builds, [&](auto &B) { return B.second.Width != E; }))
      return std::nullopt;
    Type *VT = FixedVectorType::get(LaneT, N);
    if (FT && FT != VT)
      return std::nullopt;
    FT = VT;
  }
  if (!FT || FT->getPrimitiveSizeInBits() != Bits)
    return std::nullopt;
  return W;
}

/// Gives \p W's values its floating-point type.
void retype(const FloatWeb &W) {
  const SetVector<Instruction *> &Web = W.Values;
  Type *FT = W.FT;
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
    } else if (auto It = W.Builds.find(I); It != W.Builds.end()) {
      // The constant's lanes, the lanes' floats inserted.
      const LaneBuild &B = It->second;
      Type *ET = FT->getScalarType();
      Value *V = ConstantFoldCastOperand(
          Instruction::BitCast, ConstantInt::get(I->getType(), B.Constant),
          FT, I->getDataLayout());
      for (auto &[X, Lane] : B.Parts) {
        Value *Float = X;
        if (auto *BC = dyn_cast<BitCastInst>(X); BC && BC->getSrcTy() == ET)
          Float = BC->getOperand(0);
        else
          Float = new BitCastInst(X, ET, "", I->getIterator());
        V = InsertElementInst::Create(
            V, Float, ConstantInt::get(Type::getInt64Ty(I->getContext()), Lane),
            "", I->getIterator());
      }
      New[I] = V;
      continue;
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
  // Each lane read becomes the element of the floats: cast back to the
  // lane's integer only for what uses its bits otherwise.
  for (const LaneRead &R : W.Reads) {
    TruncInst *T = R.Trunc;
    // (A web value itself may be an `or`, never a shift.)
    auto *Shift = dyn_cast<BinaryOperator>(T->getOperand(0));
    if (Shift && Shift->getOpcode() != Instruction::LShr)
      Shift = nullptr;
    Value *From = Shift ? Shift->getOperand(0) : T->getOperand(0);
    auto *E = ExtractElementInst::Create(New[cast<Instruction>(From)],
                                         ConstantInt::get(
                                             Type::getInt64Ty(T->getContext()),
                                             R.Lane),
                                         "", T->getIterator());
    E->setDebugLoc(T->getDebugLoc());
    for (User *U : make_early_inc_range(T->users())) {
      if (auto *BC = dyn_cast<BitCastInst>(U)) {
        BC->replaceAllUsesWith(E);
        BC->eraseFromParent();
      } else if (auto *SI = dyn_cast<StoreInst>(U);
                 SI && SI->getValueOperand() == T) {
        auto *S = new StoreInst(E, SI->getPointerOperand(), SI->isVolatile(),
                                SI->getAlign(), SI->getIterator());
        S->copyMetadata(*SI);
        SI->eraseFromParent();
      }
    }
    if (!T->use_empty()) {
      auto *Bits = new BitCastInst(E, T->getType(), "", T->getIterator());
      Bits->setDebugLoc(T->getDebugLoc());
      T->replaceAllUsesWith(Bits);
    }
    T->eraseFromParent();
    if (Shift && Shift->use_empty())
      Shift->eraseFromParent();
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
  SmallVector<WeakTrackingVH, 8> Inner;
  for (auto &[I, B] : W.Builds)
    for (Instruction *X : B.Inner)
      Inner.push_back(X);
  for (Instruction *I : Web)
    I->eraseFromParent();
  for (WeakTrackingVH &X : Inner)
    if (auto *I = dyn_cast_or_null<Instruction>(X))
      RecursivelyDeleteTriviallyDeadInstructions(I);
}

} // namespace

bool typeFloatCopies(Function &F) {
  bool Changed = false;
  SmallPtrSet<Instruction *, 16> Done;
  // (Loads, floats cast to integers, integers built of lanes; weak: a
  // retyped web's casts and builds are deleted.)
  SmallVector<WeakTrackingVH, 8> Roots;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (!I.getType()->isIntegerTy())
        continue;
      auto *LI = dyn_cast<LoadInst>(&I);
      auto *BC = dyn_cast<BitCastInst>(&I);
      if ((LI && LI->isSimple()) ||
          (BC && BC->getSrcTy()->isFPOrFPVectorTy()) ||
          I.getOpcode() == Instruction::Or)
        Roots.push_back(&I);
    }
  for (WeakTrackingVH &Root : Roots) {
    auto *RI = dyn_cast_or_null<Instruction>(Root);
    if (!RI || Done.contains(RI))
      continue;
    std::optional<FloatWeb> Web = collectWeb(*RI);
    if (!Web)
      continue;
    // A lone load stored straight back, or whose lanes are only cast to
    // floats, is the reverse sweep's own case (IntegerCopies.cpp): only
    // webs through phis and selects are retyped, those with a lane used
    // otherwise (stored as an integer), and those built of lanes.
    if (Web->Builds.empty() &&
        none_of(Web->Values,
                [](Instruction *I) { return isa<PHINode, SelectInst>(I); }) &&
        all_of(Web->Reads, [](const LaneRead &R) {
          return all_of(R.Trunc->users(),
                        [](const User *U) { return isa<BitCastInst>(U); });
        }))
      continue;
    Done.insert(Web->Values.begin(), Web->Values.end());
    retype(*Web);
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
