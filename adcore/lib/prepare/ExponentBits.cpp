//===- ExponentBits.cpp - A new exponent set in a float's bits -----------===//
//
// Vectorized logarithms split x into mantissa and exponent with integer
// operations on its bits (Eigen's pfrexp, in plog, plog1p, ppow, ...):
//
//   %i = bitcast <2 x double> %x to <2 x i64>
//   %k = and <2 x i64> %i, splat (i64 0x800fffffffffffff)  ; sign, mantissa
//                        (or 0x000fffffffffffff: the mantissa of |x|)
//   %e = or <2 x i64> %k, splat (i64 0x3fe0000000000000)   ; exponent 1022
//   %m = bitcast <2 x i64> %e to <2 x double>              ; in [0.5, 1)
//
// For a normal x this is x scaled by a power of two: frexp's mantissa,
// times 2^(e - 1022) for another exponent e. Each such bitcast is rewritten
// in the primal as
//
//   select(is.fpclass(x, normal), ldexp(frexp(x).mantissa, e - 1022), %m')
//
// where %m' repeats the bit operations on a bitcast of x that carries no
// derivative (NoDerivativeMetadata): for zero, subnormal, infinite and NaN
// inputs the bits stay exactly what they were, with a zero derivative
// (Eigen scales subnormals up first and overrides the others). frexp and
// ldexp are rows of the rule table. The exponent itself (a shift of the
// bits, converted to a float) is an integer, without derivative.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"
#include "support/IRMarks.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/FPEnv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace adcore {
namespace {

/// The exponent field of the IEEE format of \p T (double or float).
struct ExponentField {
  unsigned Shift; ///< mantissa bits
  unsigned Bias;
  APInt Mask;
};

std::optional<ExponentField> exponentField(Type *T) {
  Type *S = T->getScalarType();
  if (S->isDoubleTy())
    return ExponentField{52, 1023, APInt(64, 0x7ff0000000000000ULL)};
  if (S->isFloatTy())
    return ExponentField{23, 127, APInt(32, 0x7f800000U)};
  return std::nullopt;
}

} // namespace

bool rewriteExponentBits(BitCastInst &Cast) {
  Type *T = Cast.getType();
  std::optional<ExponentField> Field = exponentField(T);
  // (Scalars are ScaledFloatBits.cpp's, which follows subnormals too and
  // keeps a scale past 2^1023 out of the derivative's partials: here
  // ldexp(m, 1024)'s partial, 2^1024, was inf, and openlibm's __frexp_exp
  // got an infinite tangent at -O1 and above until 2026-12-07.)
  if (!T->isVectorTy() || !Field)
    return false;
  Value *Bits;
  const APInt *Keep, *Set;
  if (!match(Cast.getOperand(0),
             m_c_Or(m_c_And(m_BitCast(m_Value(Bits)), m_APInt(Keep)),
                    m_APInt(Set))))
    return false;
  Value *X = Bits;
  // The mask keeps the sign and the mantissa; or only the mantissa, the
  // mantissa of |x| (InstCombine clears the sign bit of the mask where x
  // cannot be negative, as x * x under -ffast-math).
  APInt MantissaOnly = ~Field->Mask;
  MantissaOnly.clearSignBit();
  bool OfAbs = *Keep == MantissaOnly;
  if (X->getType() != T || (*Keep != ~Field->Mask && !OfAbs) ||
      (*Set & ~Field->Mask) != 0 || *Set == Field->Mask || Set->isZero())
    return false;
  int Exponent = int(Set->lshr(Field->Shift).getZExtValue());

  IRBuilder<> B(&Cast);
  B.SetCurrentDebugLocation(Cast.getDebugLoc());
  // The same bits for inputs that are not normal numbers, no derivative.
  auto *Int = cast<Instruction>(B.CreateBitCast(X, Cast.getSrcTy()));
  Int->setMetadata(NoDerivativeMetadata, MDNode::get(Cast.getContext(), {}));
  Value *Old = B.CreateBitCast(
      B.CreateOr(B.CreateAnd(Int, ConstantInt::get(Int->getType(), *Keep)),
                 ConstantInt::get(Int->getType(), *Set)),
      T);
  // frexp's exponent is an i32 (per lane).
  Type *ExpTy = B.getInt32Ty();
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    ExpTy = FixedVectorType::get(ExpTy, VT->getNumElements());
  Value *Frexp = B.CreateIntrinsic(
      Intrinsic::frexp, {T, ExpTy},
      {OfAbs ? B.CreateUnaryIntrinsic(Intrinsic::fabs, X) : X});
  Value *Mantissa = B.CreateExtractValue(Frexp, 0); // exponent Bias - 1
  int Scale = Exponent - int(Field->Bias - 1);
  if (Scale != 0)
    Mantissa = B.CreateIntrinsic(Intrinsic::ldexp, {T, ExpTy},
                                 {Mantissa, ConstantInt::get(ExpTy, Scale)});
  Value *Normal =
      B.CreateIntrinsic(Intrinsic::is_fpclass, {T}, {X, B.getInt32(fcNormal)});
  replaceRewritten(Cast, B.CreateSelect(Normal, Mantissa, Old));
  return true;
}

} // namespace adcore
