//===- FloatBitMinMax.cpp - Minima and maxima of floats' bits -----------===//
//
// fdlibm's hypot orders its arguments by their high words, `if (hb > ha)
// {a = y; b = x; ...}`, and from -O1 InstCombine writes the larger and the
// smaller word as llvm.umax and llvm.umin of |hx| and |hy|, beside a select
// of x and y on the program's comparison. A float given one of those words
// (scaled in its exponent) copies the bits of x or of y, chosen at run
// time: the analysis of the bits (analysis/BitProvenance.h) follows a
// select's choice, not a minimum's. Each integer min or max of a float's
// bits becomes a comparison and a select: the program's comparison where
// the block makes the same one (or its inverse, the choice swapped) before
// it, so that ScaledFloatBits finds the program's own select of the floats,
// or a new one. The value is the same: where the two are equal either is
// the result.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "analysis/BitProvenance.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
bool expandFloatBitMinMax(Function &F) {
  // (Its own analysis: the memo of one kept past the erasures below could
  // hold an erased call's address.)
  BitProvenance Bits(F.getDataLayout());
  SmallVector<MinMaxIntrinsic *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *MM = dyn_cast<MinMaxIntrinsic>(&I);
        MM && MM->getType()->isIntegerTy() &&
        (copiesSignificand(Bits.of(MM->getLHS())) ||
         copiesSignificand(Bits.of(MM->getRHS()))))
      Calls.push_back(MM);
  for (MinMaxIntrinsic *MM : Calls) {
    Value *A = MM->getLHS(), *B = MM->getRHS();
    CmpInst::Predicate P = MM->getPredicate();
    // (Where the two are equal either is the result: a comparison strict
    // or not, or its inverse with the choice swapped, will do.)
    auto Like = [](CmpInst::Predicate Q, CmpInst::Predicate R) {
      return Q == R || Q == ICmpInst::getStrictPredicate(R) ||
             Q == ICmpInst::getNonStrictPredicate(R);
    };
    ICmpInst *Cmp = nullptr;
    bool Swap = false;
    for (Instruction &I : *MM->getParent()) {
      if (&I == MM)
        break;
      auto *C = dyn_cast<ICmpInst>(&I);
      if (!C || C->getOperand(0) != A || C->getOperand(1) != B)
        continue;
      if (Like(C->getPredicate(), P) ||
          Like(C->getPredicate(), ICmpInst::getInversePredicate(P))) {
        Cmp = C;
        Swap = !Like(C->getPredicate(), P);
      }
    }
    IRBuilder<> Builder(MM);
    Value *Cond = Cmp ? static_cast<Value *>(Cmp) : Builder.CreateICmp(P, A, B);
    Value *Sel = Swap ? Builder.CreateSelect(Cond, B, A)
                      : Builder.CreateSelect(Cond, A, B);
    Sel->takeName(MM);
    MM->replaceAllUsesWith(Sel);
    MM->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace adcore
