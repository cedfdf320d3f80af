//===- SignMasks.cpp - Sign-bit masks on floating-point data -------------===//
//
// SIMD code takes absolute values and negates with masks on the sign bits:
// Eigen's pabs is `_mm_and_pd(a, mask)` with the sign bits of the mask
// clear, its pnegate an `_mm_xor_pd` with only the sign bits set. At -O1
// and up InstCombine makes them fabs and fneg; at -O0 they stay integer
// operations on the bits of the doubles,
//
//   %i = bitcast <2 x double> %a to <2 x i64>
//   %m = and <2 x i64> %i, <0x7fffffffffffffff, 0x7fffffffffffffff>
//   %r = bitcast <2 x i64> %m to <2 x double>
//
// which neither mode can differentiate (InstCombine may also leave the
// packet loaded as integers). Each is rewritten in the primal as
// the floating-point operation that gives the same bits (one table row per
// operation and mask): and with every bit but the sign is fabs, and with
// the sign only is copysign(0, a), xor with the sign is fneg, or with the
// sign is -fabs. The mask may be a constant or, at -O0, be computed from
// constants through local variables; it may change some lanes only (the
// others hold the operation's identity), which a shuffle then picks. A
// store of the integer result (InstCombine's at -O1) stores the
// floating-point result instead.
//
// Scalar code does the same on one double's bits (`memcpy(&u, &x, 8);
// u &= ~(1ull << 63);`, or a union), which InstCombine reads as fabs from
// -O1 on but -O0 leaves as integer operations once its locals are values;
// these are rewritten alike, and so are sign operations on the result of
// one (-fabs as an and then a xor) and copysign written on bits,
// `(bits(a) & ~sign) | (bits(b) & sign)`. Other integer operations on
// the bits stay errors.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

enum class MaskIs { SignOnly, AllButSign };
enum class SignOp { Abs, SignOf, Negate, NegativeAbs };

struct SignMaskRow {
  Instruction::BinaryOps Opcode;
  MaskIs Mask;
  SignOp Op;
};

const SignMaskRow SignMaskTable[] = {
    {Instruction::And, MaskIs::AllButSign, SignOp::Abs},
    {Instruction::And, MaskIs::SignOnly, SignOp::SignOf},
    {Instruction::Xor, MaskIs::SignOnly, SignOp::Negate},
    {Instruction::Or, MaskIs::SignOnly, SignOp::NegativeAbs},
};

/// The floating-point value of type \p T that \p V is the bits of: the
/// value it was bitcast from, or for a load of integers (InstCombine's
/// form of a packet read for pabs), the same memory loaded as a \p T.
Value *floatBitsOf(Value *V, Type *T) {
  if (auto *LI = dyn_cast<LoadInst>(V);
      LI && LI->isSimple() && LI->getType()->isIntOrIntVectorTy() &&
      LI->getType()->getPrimitiveSizeInBits() == T->getPrimitiveSizeInBits()) {
    IRBuilder<> B(LI);
    LoadInst *F = B.CreateAlignedLoad(T, LI->getPointerOperand(),
                                      LI->getAlign(), LI->getName());
    F->copyMetadata(*LI);
    return F;
  }
  while (auto *BC = dyn_cast<BitCastInst>(V)) {
    V = BC->getOperand(0);
    if (V->getType() == T)
      return V;
  }
  return nullptr;
}

/// The constant \p V holds (see evaluateConstant), lane by lane in elements of
/// \p Bits bits; or nothing.
std::optional<SmallVector<APInt, 4>> laneBits(Value *V, unsigned Bits,
                                              const DataLayout &DL) {
  auto *C = evaluateConstant(V, 24);
  if (!C || C->getType()->getPrimitiveSizeInBits() % Bits)
    return std::nullopt;
  // (A scalar: the bits of one double or float, as -O0 leaves
  // `memcpy(&u, &x, 8); u &= ~(1ull << 63);` once its locals are values.)
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    if (CI->getBitWidth() != Bits)
      return std::nullopt;
    return SmallVector<APInt, 4>{CI->getValue()};
  }
  if (!C->getType()->isVectorTy())
    return std::nullopt;
  unsigned Lanes = C->getType()->getPrimitiveSizeInBits() / Bits;
  auto *IntTy =
      FixedVectorType::get(IntegerType::get(C->getContext(), Bits), Lanes);
  Constant *Ints = ConstantFoldCastOperand(Instruction::BitCast, C, IntTy, DL);
  if (!Ints)
    return std::nullopt;
  SmallVector<APInt, 4> Out;
  for (unsigned L = 0; L < Lanes; ++L) {
    auto *E = dyn_cast_or_null<ConstantInt>(Ints->getAggregateElement(L));
    if (!E)
      return std::nullopt;
    Out.push_back(E->getValue());
  }
  return Out;
}

/// The row for \p BO with the mask bits \p M of each lane, or null; sets
/// \p Changed to the lanes it changes (the others hold the operation's
/// identity: no bits for xor and or, all bits for and).
const SignMaskRow *rowFor(const BinaryOperator &BO, ArrayRef<APInt> M,
                          SmallVectorImpl<bool> &Changed) {
  unsigned Bits = M.front().getBitWidth();
  APInt Sign = APInt::getSignMask(Bits);
  APInt Identity = BO.getOpcode() == Instruction::And ? APInt::getAllOnes(Bits)
                                                      : APInt::getZero(Bits);
  for (const SignMaskRow &Row : SignMaskTable) {
    APInt RowMask = Row.Mask == MaskIs::SignOnly ? Sign : ~Sign;
    if (Row.Opcode != BO.getOpcode() || RowMask == Identity)
      continue;
    Changed.clear();
    bool Fits = true, Any = false;
    for (const APInt &L : M) {
      Fits &= L == RowMask || L == Identity;
      Changed.push_back(L == RowMask);
      Any |= L == RowMask;
    }
    if (Fits && Any)
      return &Row;
  }
  return nullptr;
}

Value *emit(IRBuilder<> &B, SignOp Op, Value *A) {
  switch (Op) {
  case SignOp::Abs:
    return B.CreateUnaryIntrinsic(Intrinsic::fabs, A);
  case SignOp::SignOf:
    return B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                   ConstantFP::getZero(A->getType()), A);
  case SignOp::Negate:
    return B.CreateFNeg(A);
  case SignOp::NegativeAbs:
    return B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::fabs, A));
  }
  return nullptr;
}

Value *signMaskValue(BinaryOperator &BO, Type *T, Instruction &Before,
                     unsigned Depth);

/// The floating-point value of type \p T, emitted before \p Before, whose
/// bits \p V is: a cast or a load of it (floatBitsOf), or a sign operation
/// on the bits of one, \p Depth deep; else null.
Value *floatOfBits(Value *V, Type *T, Instruction &Before, unsigned Depth) {
  if (Value *F = floatBitsOf(V, T))
    return F;
  auto *BO = dyn_cast<BinaryOperator>(V);
  return BO && Depth ? signMaskValue(*BO, T, Before, Depth - 1) : nullptr;
}

/// The value \p V masks when it is an `and` with \p Mask in every lane
/// of \p Bits bits; else null.
Value *maskedBy(Value *V, MaskIs Mask, unsigned Bits) {
  auto *And = dyn_cast<BinaryOperator>(V);
  if (!And || And->getOpcode() != Instruction::And)
    return nullptr;
  APInt Sign = APInt::getSignMask(Bits);
  APInt Want = Mask == MaskIs::SignOnly ? Sign : ~Sign;
  for (unsigned K = 0; K < 2; ++K)
    if (auto M = laneBits(And->getOperand(1 - K), Bits, And->getDataLayout());
        M && all_of(*M, [&](const APInt &L) { return L == Want; }))
      return And->getOperand(K);
  return nullptr;
}

/// copysign(a, b) written on bits, `(bits(a) & ~sign) | (bits(b) & sign)`
/// (either order), emitted before \p Before; else null.
Value *copySignValue(BinaryOperator &Or, Type *T, Instruction &Before,
                     unsigned Depth) {
  unsigned Bits = T->getScalarSizeInBits();
  for (unsigned K = 0; K < 2; ++K) {
    Value *Magnitude = maskedBy(Or.getOperand(K), MaskIs::AllButSign, Bits);
    Value *SignSource =
        maskedBy(Or.getOperand(1 - K), MaskIs::SignOnly, Bits);
    if (!Magnitude || !SignSource)
      continue;
    Value *A = floatOfBits(Magnitude, T, Before, Depth);
    Value *S = A ? floatOfBits(SignSource, T, Before, Depth) : nullptr;
    if (!S) {
      if (auto *I = dyn_cast_or_null<Instruction>(A))
        RecursivelyDeleteTriviallyDeadInstructions(I);
      return nullptr;
    }
    IRBuilder<> B(&Before);
    B.SetCurrentDebugLocation(Before.getDebugLoc());
    return B.CreateBinaryIntrinsic(Intrinsic::copysign, A, S);
  }
  return nullptr;
}

/// The floating-point operation of type \p T, emitted before \p Before,
/// that gives the bits \p BO computes when it is a sign-mask operation on
/// the bits of a value of type \p T (itself such an operation, up to
/// \p Depth deep: a negated absolute value written as two), or
/// copysign written on bits; else null.
Value *signMaskValue(BinaryOperator &BO, Type *T, Instruction &Before,
                     unsigned Depth) {
  if (!T->isFPOrFPVectorTy())
    return nullptr;
  unsigned Bits = T->getScalarSizeInBits();
  if (BO.getOpcode() == Instruction::Or)
    if (Value *R = copySignValue(BO, T, Before, Depth))
      return R;
  for (unsigned K = 0; K < 2; ++K) {
    auto M = laneBits(BO.getOperand(1 - K), Bits, BO.getDataLayout());
    SmallVector<bool, 4> Changed;
    const SignMaskRow *Row = M ? rowFor(BO, *M, Changed) : nullptr;
    // Some lanes only (Eigen's quaternion product negates one of two):
    // the others keep the value's own bits, picked by a shuffle.
    bool Some = !all_of(Changed, [](bool C) { return C; });
    auto *VT = dyn_cast<FixedVectorType>(T);
    if (Row && Some && (!VT || VT->getNumElements() != Changed.size()))
      return nullptr;
    Value *A = Row ? floatOfBits(BO.getOperand(K), T, Before, Depth) : nullptr;
    if (!A)
      continue;
    IRBuilder<> B(&Before);
    B.SetCurrentDebugLocation(Before.getDebugLoc());
    Value *R = emit(B, Row->Op, A);
    if (Some) {
      SmallVector<int, 8> Pick;
      for (unsigned L = 0; L < Changed.size(); ++L)
        Pick.push_back(Changed[L] ? int(Changed.size() + L) : int(L));
      R = B.CreateShuffleVector(A, R, Pick);
    }
    return R;
  }
  return nullptr;
}

/// How many sign operations on bits one rewrite follows.
constexpr unsigned SignOpDepth = 4;

/// Rewrites \p Cast, a bitcast to floating-point of a sign-mask operation
/// on the bits of a value of its type; returns whether it did.
bool rewriteSignMask(BitCastInst &Cast) {
  auto *BO = dyn_cast<BinaryOperator>(Cast.getOperand(0));
  Value *R =
      BO ? signMaskValue(*BO, Cast.getType(), Cast, SignOpDepth) : nullptr;
  if (!R)
    return false;
  replaceRewritten(Cast, R);
  return true;
}

/// Rewrites \p SI when it stores the result of a sign-mask operation (at
/// -O1 InstCombine stores pabs's integers as they are) as a store of the
/// floating-point operation, of doubles for 64-bit lanes and floats for
/// 32-bit ones; returns whether it did.
bool rewriteSignMaskStore(StoreInst &SI) {
  // (Packets only: a scalar integer masked so is more likely a number.)
  auto *BO = dyn_cast<BinaryOperator>(SI.getValueOperand());
  if (!BO || !SI.isSimple() || !BO->getType()->isVectorTy())
    return false;
  Type *IntTy = BO->getType();
  unsigned Bits = IntTy->getScalarSizeInBits();
  LLVMContext &C = SI.getContext();
  Type *Elt = Bits == 64   ? Type::getDoubleTy(C)
              : Bits == 32 ? Type::getFloatTy(C)
                           : nullptr;
  if (!Elt)
    return false;
  Type *T =
      FixedVectorType::get(Elt, cast<FixedVectorType>(IntTy)->getNumElements());
  Value *R = signMaskValue(*BO, T, SI, SignOpDepth);
  if (!R)
    return false;
  SI.setOperand(0, R);
  RecursivelyDeleteTriviallyDeadInstructions(BO);
  return true;
}

} // namespace

bool rewriteSignMasks(Function &F) {
  bool Changed = rewriteEach<BitCastInst>(F, [](BitCastInst &BC) {
    return rewriteSignMask(BC) || rewriteExponentBits(BC);
  });
  return rewriteEach<StoreInst>(F, rewriteSignMaskStore) || Changed;
}

} // namespace adcore
