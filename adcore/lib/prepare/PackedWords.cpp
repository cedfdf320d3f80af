//===- PackedWords.cpp - A float and an int read as one 64-bit word ------===//
//
// A struct of a float and an int (`{float f; int i;}`, `{int n; float v;}`)
// that the program copies whole and also reads is, from -O1, one i64 for
// both: loaded once, stored whole, its fields cut out of the bits,
//
//   %w = load i64, ptr @table                    ; {float f; int i;}
//   store i64 %w, ptr @out                       ; out[k] = table[j]
//   %f = bitcast i32 (trunc i64 %w) to float     ; out[k].f
//   %i = trunc i64 (lshr i64 %w, 32) to i32      ; out[k].i
//
// and returned so by a function that is not inlined (x86-64 returns the
// struct in one integer register). Neither emitter follows a float read
// out of an integer that is also an integer (FloatsReadFromBits.h): the
// load was an error. Such a word is read as its two 32-bit lanes instead,
// each of its own type (a float, an i32): two loads, two stores, the cuts
// the lanes themselves, the same bits in memory. FloatBitArguments.cpp
// gives a call's packed result the same treatment.
//
//===----------------------------------------------------------------------===//

#include "PackedWords.h"

#include "Prepare.h"

#include "analysis/TypeAnalysis.h"
#include "support/FloatsReadFromBits.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p V is `lshr %W, 32` (the high lane of the i64 \p W).
bool isHighHalf(const Value *V, const Value *W) {
  auto *BO = dyn_cast<BinaryOperator>(V);
  auto *Amount = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
  return BO && BO->getOpcode() == Instruction::LShr && BO->getOperand(0) == W &&
         Amount && Amount->getZExtValue() == 32;
}

/// Makes the integer \p Bits a cast of the float \p Lane give \p Lane
/// itself where it is cast back to a float.
void useLaneDirectly(Value *Bits, Value *Lane) {
  if (Bits == Lane)
    return;
  for (User *U : make_early_inc_range(Bits->users()))
    if (auto *BC = dyn_cast<BitCastInst>(U);
        BC && BC->getType() == Lane->getType()) {
      BC->replaceAllUsesWith(Lane);
      BC->eraseFromParent();
    }
}

/// How a lane of an i64 load is read: as a float, as an integer, both.
struct LaneReads {
  bool AsFloat = false;
  bool AsInteger = false;
};

/// Notes in \p R how the i32 \p Lane (a trunc) is read.
void noteReads(const Value *Lane, LaneReads &R) {
  for (const User *U : Lane->users())
    if (isa<BitCastInst>(U) && U->getType()->isFloatTy())
      R.AsFloat = true;
    else
      R.AsInteger = true;
}

/// The lanes' types of the i64 load \p LI, low word first, where its
/// value is only stored whole or cut into its two lanes (and one lane at
/// least is a float): a float where the program reads it as one (or only
/// copies it and \p Types says memory holds a float there), i32 otherwise.
/// Null types where it is read otherwise.
std::pair<Type *, Type *> laneTypes(LoadInst &LI,
                                    function_ref<TypeAnalysis &()> Types) {
  LaneReads Reads[2];
  for (User *U : LI.users()) {
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() != &LI || !SI->isSimple())
        return {};
      continue;
    }
    if (isa<TruncInst>(U) && U->getType()->isIntegerTy(32)) {
      noteReads(U, Reads[0]);
      continue;
    }
    if (!isHighHalf(U, &LI))
      return {};
    for (User *T : U->users()) {
      if (!isa<TruncInst>(T) || !T->getType()->isIntegerTy(32))
        return {};
      noteReads(T, Reads[1]);
    }
  }
  Type *Lanes[2];
  LLVMContext &C = LI.getContext();
  for (unsigned L = 0; L < 2; ++L) {
    if (Reads[L].AsFloat && Reads[L].AsInteger)
      return {};
    bool Float = Reads[L].AsFloat || (!Reads[L].AsInteger &&
                                      Types().memoryKind(LI.getPointerOperand(),
                                                         4 * L) == Kind::Float);
    Lanes[L] = Float ? Type::getFloatTy(C) : Type::getInt32Ty(C);
  }
  if (!Lanes[0]->isFloatTy() && !Lanes[1]->isFloatTy())
    return {};
  return {Lanes[0], Lanes[1]};
}

} // namespace

void replacePackedWord(Instruction &Word, Value *Low, Value *High,
                       BasicBlock::iterator At) {
  IRBuilder<> B(At->getParent(), At);
  auto BitsOf = [&](Value *Lane) {
    return Lane->getType()->isFloatTy() ? B.CreateBitCast(Lane, B.getInt32Ty())
                                        : Lane;
  };
  Value *LowBits = BitsOf(Low), *HighBits = BitsOf(High);
  Value *Packed =
      B.CreateOr(B.CreateZExt(LowBits, B.getInt64Ty()),
                 B.CreateShl(B.CreateZExt(HighBits, B.getInt64Ty()), 32), "",
                 /*IsDisjoint=*/true);
  Word.replaceAllUsesWith(Packed);
  for (User *U : make_early_inc_range(Packed->users())) {
    auto *I = cast<Instruction>(U);
    if (isa<TruncInst>(I) && I->getType()->isIntegerTy(32)) {
      I->replaceAllUsesWith(LowBits);
      I->eraseFromParent();
    } else if (isHighHalf(I, Packed)) {
      for (User *T : make_early_inc_range(I->users()))
        if (isa<TruncInst>(T) && T->getType()->isIntegerTy(32)) {
          T->replaceAllUsesWith(HighBits);
          cast<Instruction>(T)->eraseFromParent();
        }
      if (!I->use_empty())
        I->replaceAllUsesWith(CastInst::Create(
            Instruction::ZExt, HighBits, I->getType(), "", I->getIterator()));
      I->eraseFromParent();
    } else if (auto *SI = dyn_cast<StoreInst>(I);
               SI && SI->getValueOperand() == Packed && SI->isSimple()) {
      // (Without the store's TBAA: it named the whole word.)
      IRBuilder<> S(SI);
      Value *Ptr = SI->getPointerOperand();
      S.CreateAlignedStore(Low, Ptr, SI->getAlign())
          ->setDebugLoc(SI->getDebugLoc());
      S.CreateAlignedStore(High,
                           S.CreateConstInBoundsGEP1_64(S.getInt8Ty(), Ptr, 4),
                           commonAlignment(SI->getAlign(), 4))
          ->setDebugLoc(SI->getDebugLoc());
      SI->eraseFromParent();
    }
  }
  useLaneDirectly(LowBits, Low);
  useLaneDirectly(HighBits, High);
  // (Each may be an operand of the one before: deleted with it.)
  WeakTrackingVH Dead[] = {Packed, LowBits, HighBits};
  for (WeakTrackingVH &V : Dead)
    if (V)
      RecursivelyDeleteTriviallyDeadInstructions(V);
}

bool splitPackedWordLoads(Function &F) {
  if (!F.getDataLayout().isLittleEndian())
    return false;
  std::unique_ptr<TypeAnalysis> Analysis;
  auto Types = [&]() -> TypeAnalysis & {
    if (!Analysis)
      Analysis = std::make_unique<TypeAnalysis>(F);
    return *Analysis;
  };
  SmallVector<std::tuple<LoadInst *, Type *, Type *>, 4> Splits;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *LI = dyn_cast<LoadInst>(&I);
      if (!LI || !LI->isSimple() || !LI->getType()->isIntegerTy(64) ||
          !floatsReadFromBits(LI))
        continue;
      auto [Low, High] = laneTypes(*LI, Types);
      if (Low)
        Splits.push_back({LI, Low, High});
    }
  for (auto [LI, LowTy, HighTy] : Splits) {
    IRBuilder<> B(LI);
    Value *Ptr = LI->getPointerOperand();
    auto *Low =
        B.CreateAlignedLoad(LowTy, Ptr, LI->getAlign(), LI->getName() + ".lo");
    auto *High = B.CreateAlignedLoad(
        HighTy, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, 4),
        commonAlignment(LI->getAlign(), 4), LI->getName() + ".hi");
    Low->setDebugLoc(LI->getDebugLoc());
    High->setDebugLoc(LI->getDebugLoc());
    replacePackedWord(*LI, Low, High, LI->getIterator());
    LI->eraseFromParent();
  }
  return !Splits.empty();
}

} // namespace adcore
