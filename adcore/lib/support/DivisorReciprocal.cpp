//===- DivisorReciprocal.cpp - 1 / b for the derivatives of a / b --------===//

#include "DivisorReciprocal.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace adcore {

DivisorReciprocal reciprocalOf(IRBuilderBase &B, Value *Divisor) {
  DivisorReciprocal R;
  R.Divisor = Divisor;
  if (isa<Constant>(Divisor))
    return R;
  Type *T = Divisor->getType();
  Type *S = T->getScalarType();
  Value *One = ConstantFP::get(T, 1.0);
  // (Formats whose range holds 2^64 and 2^-(max exponent - 64); half's
  // does not: its reciprocal stays plain.)
  if (!S->isFloatTy() && !S->isDoubleTy() && !S->isX86_FP80Ty() &&
      !S->isFP128Ty()) {
    R.Reciprocal = B.CreateFDiv(One, Divisor);
    return R;
  }
  int MaxExp = APFloat::semanticsMaxExponent(S->getFltSemantics());
  Value *Tiny = B.CreateFCmpOLT(
      B.CreateUnaryIntrinsic(Intrinsic::fabs, Divisor),
      ConstantFP::get(T, std::ldexp(1.0, std::max(-1000, 64 - MaxExp))));
  R.Scale = Tiny;
  R.Reciprocal = B.CreateFDiv(
      One, B.CreateFMul(Divisor,
                        B.CreateSelect(Tiny, ConstantFP::get(T, 0x1p64), One)));
  return R;
}

Value *divideBy(IRBuilderBase &B, const DivisorReciprocal &R, Value *N) {
  if (!R.Reciprocal)
    return B.CreateFDiv(N, R.Divisor);
  Value *P = B.CreateFMul(N, R.Reciprocal);
  if (!R.Scale)
    return P;
  // (A choice of the product or the product scaled back, not a product by
  // s: products by s and 1 / (b s) whose sums have `reassoc` (adjoints)
  // were reassociated into 1 / b, inf, and a zero adjoint times it NaN.)
  return B.CreateSelect(
      R.Scale, B.CreateFMul(P, ConstantFP::get(P->getType(), 0x1p64)), P);
}

} // namespace adcore
