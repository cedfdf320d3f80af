//===- LaneMasks.cpp - and/or of floats' bits with run-time lane masks ---===//
//
// SIMD code selects lanes by combining a comparison mask (all ones or all
// zeros per lane) with data: Eigen's pselect is `por(pand(mask, a),
// pandnot(mask, b))`, and its vectorized exp, log and floor `pand` a mask
// with a value. At -O1 and up InstCombine makes selects of them; at -O0
// pand, pandnot and por are functions of their own, where the mask is just
// another double:
//
//   %i = bitcast <2 x double> %a to <2 x i64>
//   %j = bitcast <2 x double> %b to <2 x i64>
//   %r = and <2 x i64> %i, %j          ; or: or; andnot: and (xor %i, -1), %j
//   %f = bitcast <2 x i64> %r to <2 x double>
//
// Which operand is the mask is known only at run time, lane by lane. Each
// such cast is rewritten in the primal as selects on the operands' bits
// that give the same bits with the derivative of what they do:
//
//   and:  y all ones -> x;  y zero -> +0;  x all ones -> y;  x zero -> +0;
//         y all but the sign -> fabs(x);  x all but the sign -> fabs(y)
//   or:   y zero -> x;  x zero -> y;  x only a sign bit, y's sign clear ->
//         copysign(y, x) (and the other way round)
//
// and in every other lane the original operation on the bits, taken to
// have no derivative (NoDerivativeMetadata): it is no selection (a sign
// bit alone, exponent bits). (Constant masks are read by SignMasks.cpp
// first.)
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"
#include "support/IRMarks.h"

#include "PrimalRewrites.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace adcore {
namespace {

/// The value of floating-point type \p T whose bits \p Bits are: the value
/// it was cast from, or a cast of \p Bits (a mask inverted by andnot);
/// null when \p Bits is neither the bits of such a value nor their
/// complement.
Value *asFloat(IRBuilder<> &B, Value *Bits, Type *T) {
  if (auto *BC = dyn_cast<BitCastInst>(Bits); BC && BC->getSrcTy() == T)
    return BC->getOperand(0);
  Value *Inner;
  if (auto *X = dyn_cast<BinaryOperator>(Bits);
      X && X->getOpcode() == Instruction::Xor &&
      match(X->getOperand(1), m_AllOnes()) &&
      isa<BitCastInst>(Inner = X->getOperand(0)) &&
      cast<BitCastInst>(Inner)->getSrcTy() == T)
    return B.CreateBitCast(Bits, T);
  return nullptr;
}

Value *equals(IRBuilder<> &B, Value *Bits, const APInt &C) {
  return B.CreateICmpEQ(Bits, ConstantInt::get(Bits->getType(), C));
}

bool rewriteLaneMask(BitCastInst &Cast) {
  Type *T = Cast.getType();
  auto *Op = dyn_cast<BinaryOperator>(Cast.getOperand(0));
  if (!T->isFPOrFPVectorTy() || !Op ||
      (Op->getOpcode() != Instruction::And &&
       Op->getOpcode() != Instruction::Or) ||
      isa<Constant>(Op->getOperand(0)) || isa<Constant>(Op->getOperand(1)))
    return false;
  unsigned W = T->getScalarSizeInBits();
  if (Op->getType()->getScalarSizeInBits() != W)
    return false; // (lanes of another width)
  IRBuilder<> B(&Cast);
  B.SetCurrentDebugLocation(Cast.getDebugLoc());
  Value *XI = Op->getOperand(0), *YI = Op->getOperand(1);
  Value *X = asFloat(B, XI, T), *Y = asFloat(B, YI, T);
  if (!X || !Y)
    return false;
  // The bits as they were, without derivative: the lanes that are not a
  // selection.
  auto Bits = [&](Value *F) {
    auto *I = cast<Instruction>(B.CreateBitCast(F, Op->getType()));
    I->setMetadata(NoDerivativeMetadata, MDNode::get(Cast.getContext(), {}));
    return I;
  };
  Value *R =
      B.CreateBitCast(B.CreateBinOp(Op->getOpcode(), Bits(X), Bits(Y)), T);
  APInt Ones = APInt::getAllOnes(W), Zero = APInt::getZero(W),
        NoSign = APInt::getSignedMaxValue(W);
  Constant *PlusZero = ConstantFP::getZero(T);
  if (Op->getOpcode() == Instruction::And) {
    // Innermost first: the last select decides.
    R = B.CreateSelect(equals(B, XI, NoSign),
                       B.CreateUnaryIntrinsic(Intrinsic::fabs, Y), R);
    R = B.CreateSelect(equals(B, YI, NoSign),
                       B.CreateUnaryIntrinsic(Intrinsic::fabs, X), R);
    R = B.CreateSelect(equals(B, XI, Zero), PlusZero, R);
    R = B.CreateSelect(equals(B, XI, Ones), Y, R);
    R = B.CreateSelect(equals(B, YI, Zero), PlusZero, R);
    R = B.CreateSelect(equals(B, YI, Ones), X, R);
  } else {
    // The sign of one and the magnitude of the other (copysign built from
    // masks: `(x & SIGN) | (y & ~SIGN)`).
    APInt Sign = APInt::getSignMask(W);
    auto SignOnly = [&](Value *Bits) {
      return equals(
          B, B.CreateAnd(Bits, ConstantInt::get(Bits->getType(), ~Sign)), Zero);
    };
    auto SignClear = [&](Value *Bits) {
      return equals(
          B, B.CreateAnd(Bits, ConstantInt::get(Bits->getType(), Sign)), Zero);
    };
    auto CopySign = [&](Value *Mag, Value *SignOf) {
      return B.CreateBinaryIntrinsic(Intrinsic::copysign, Mag, SignOf);
    };
    R = B.CreateSelect(B.CreateAnd(SignOnly(YI), SignClear(XI)), CopySign(X, Y),
                       R);
    R = B.CreateSelect(B.CreateAnd(SignOnly(XI), SignClear(YI)), CopySign(Y, X),
                       R);
    R = B.CreateSelect(equals(B, XI, Zero), Y, R);
    R = B.CreateSelect(equals(B, YI, Zero), X, R);
  }
  replaceRewritten(Cast, R);
  return true;
}

} // namespace

bool rewriteLaneMasks(Function &F) {
  return rewriteEach<BitCastInst>(F, rewriteLaneMask);
}

} // namespace adcore
