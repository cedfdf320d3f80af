//===- ForwardArith.cpp - Arithmetic, casts, select ----------------------===//
//
// Tangent rules (t(x) is the tangent of x):
//   a + b   ->  t(a) + t(b)          a - b  ->  t(a) - t(b)
//   a * b   ->  t(a) b + a t(b)      a / b  ->  (t(a) - (a/b) t(b)) / b
//   fmod(a, b) -> t(a) - trunc(a/b) t(b)          -a  ->  -t(a)
//   fpext / fptrunc / bitcast of a  ->  the same cast of t(a)
//   select(c, a, b) -> select(c, t(a), t(b))
// Integer operations carry shadows only as pointer bits (ptrtoint,
// inttoptr, add/sub/and/or on them): the shadow repeats the operation on the
// shadow operand.
//
//===----------------------------------------------------------------------===//

#include "rules/PowerRule.h"
#include "ForwardEmitter.h"

#include "analysis/ActivityAnalysis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace adcore {

namespace {

/// How many values deep mayBecomeAddress follows an integer.
constexpr unsigned AddressSteps = 16;

/// Whether the integer \p V may be turned into a pointer: it reaches an
/// inttoptr through integer operations, phis, selects and casts, or a
/// stack slot whose loads may (mayBecomePointer), or goes where adcc does
/// not follow it (a call, a return, other memory, \p Depth steps out).
/// Comparisons, branches and the indices of address computations (GEPs)
/// read it as a number. An integer narrower than a pointer (\p PointerBits)
/// becomes one only through an inttoptr or a widening cast: wherever else it
/// goes (memory, a call) it stays too narrow to hold an address.
bool mayBecomeAddress(const Value *V, unsigned Depth, unsigned PointerBits) {
  SmallVector<std::pair<const Value *, unsigned>, 16> Work = {{V, Depth}};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    auto [X, Left] = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (Left == 0)
      return true;
    bool Narrow = X->getType()->getScalarSizeInBits() < PointerBits;
    for (const User *U : X->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      if (isa<CmpInst, SwitchInst, BranchInst>(U))
        continue;
      if (Narrow && isa<StoreInst, CallBase, ReturnInst>(U))
        continue;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        if (GEP->getPointerOperand() == X)
          return true;
        continue;
      }
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == X &&
            mayBecomePointer(S->getPointerOperand(), Left))
          return true;
        continue;
      }
      if (isa<BinaryOperator, PHINode, SelectInst, CastInst, FreezeInst>(U)) {
        Work.push_back({U, Left - 1});
        continue;
      }
      return true;
    }
  }
  return false;
}

} // namespace

Value *ForwardEmitter::powerScale(const PowerRule &Power) {
  if (Power.Factor == 1.0)
    return Power.Other;
  return B.CreateFMul(Power.Other,
                      ConstantFP::get(Power.Other->getType(), Power.Factor));
}

std::optional<Value *> ForwardEmitter::powerRuleTangent(Value *A, Value *Bv) {
  std::optional<PowerRule> Power = powerRule(A, Bv);
  if (!Power)
    return std::nullopt;
  Value *TX = tangentOrNull(Power->X);
  if (!TX)
    return std::nullopt;
  // d(A * B) = Factor * Other * dx, the first product shared by the lanes.
  Value *Scaled = powerScale(*Power);
  return forEachLane(A->getType(), [&](unsigned L) -> Value * {
    return B.CreateFMul(Scaled, lane(TX, L));
  });
}

bool ForwardEmitter::visitBinaryOperator(BinaryOperator &I) {
  Value *A = I.getOperand(0), *Bv = I.getOperand(1);
  Value *TA = tangentOrNull(A), *TB = tangentOrNull(Bv);
  if (!TA && !TB)
    return true;

  if (!I.getType()->isFPOrFPVectorTy()) {
    // Pointer arithmetic in integers: the shadow follows the active operand.
    if (!isAnalyzedActive(&I))
      return true;
    // One float taken out of an integer holding several (a right shift by
    // a constant): the tangent's bits move the same way.
    if (I.getOpcode() == Instruction::LShr && TA && !TB &&
        isa<ConstantInt>(Bv)) {
      setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
        return B.CreateLShr(lane(TA, L), Bv);
      }));
      return true;
    }
    if (holdsFloatBits(&I) || holdsFloatBits(A) || holdsFloatBits(Bv))
      return unsupported(I, "the bits of a floating-point value are changed "
                            "by the integer operation '" +
                                Twine(I.getOpcodeName()) +
                                "'; use floating-point operations (fabs, "
                                "copysign, -x) instead");
    // Flags (a bool negated, Eigen's `!m_reverse` in an object copied as
    // bytes) and other integers narrower than any float hold no address.
    if (I.getType()->getScalarSizeInBits() < 16)
      return true;
    // Nor do wider integers narrower than a pointer unless they become one:
    // `cnt[b]++` on a table of ints read through a pointer whose loads
    // have tangents (no TBAA with -fno-strict-aliasing: the type analysis
    // cannot tell the ints from a float's bits) is a count, and a tangent
    // made for it (the loaded shadow plus 1) would be stored into the
    // shadow table, which may be the primal's own.
    unsigned PointerBits =
        I.getModule()->getDataLayout().getPointerSizeInBits();
    if (I.getType()->getScalarSizeInBits() < PointerBits &&
        !mayBecomeAddress(&I, AddressSteps, PointerBits))
      return true;
    // The distance between two pointers (`end - begin`) is a number, the
    // same between their shadows.
    if (TA && TB && I.getOpcode() == Instruction::Sub)
      return true;
    if (TA && TB)
      return unsupported(I, "integer arithmetic on two pointer shadows");
    // (A number computed from an address, such as Eigen's count of
    // elements before the first aligned one, `(start + step) % packet`
    // made an xor, that never becomes an address again: no derivative.)
    if (!isAddressArithmetic(I) &&
        !mayBecomeAddress(&I, AddressSteps, PointerBits))
      return true;
    if (!isAddressArithmetic(I))
      return unsupported(I, "an address kept in an integer is changed by "
                            "the integer operation '" +
                                Twine(I.getOpcodeName()) +
                                "', whose derivative adcc cannot follow; "
                                "compute the address with pointer "
                                "arithmetic");
    unsigned Opc = I.getOpcode();
    setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
      Value *X = TA ? lane(TA, L) : A;
      Value *Y = TB ? lane(TB, L) : Bv;
      return B.CreateBinOp(Instruction::BinaryOps(Opc), X, Y);
    }));
    return true;
  }

  if (Key.ErrorEstimate)
    return emitErrorOperation(I);
  B.setFastMathFlags(I.getFastMathFlags());
  Value *T = nullptr;
  if (Width > 1 && I.getType()->isFloatingPointTy() &&
      VectorLaneBlocks.contains(I.getParent()))
    if ((T = vectorTangent(I, TA, TB))) {
      B.clearFastMathFlags();
      setTangent(&I, T);
      return true;
    }
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    T = forEachLane(I.getType(), [&](unsigned L) -> Value * {
      if (!TA)
        return lane(TB, L);
      if (!TB)
        return lane(TA, L);
      return B.CreateFAdd(lane(TA, L), lane(TB, L));
    });
    break;
  case Instruction::FSub:
    T = forEachLane(I.getType(), [&](unsigned L) -> Value * {
      if (!TA)
        return B.CreateFNeg(lane(TB, L));
      if (!TB)
        return lane(TA, L);
      return B.CreateFSub(lane(TA, L), lane(TB, L));
    });
    break;
  case Instruction::FMul:
    if (std::optional<Value *> Power = powerRuleTangent(A, Bv)) {
      T = *Power;
      break;
    }
    T = forEachLane(I.getType(), [&](unsigned L) -> Value * {
      Value *X = TA ? B.CreateFMul(lane(TA, L), Bv) : nullptr;
      Value *Y = TB ? B.CreateFMul(A, lane(TB, L)) : nullptr;
      if (X && Y)
        return B.CreateFAdd(X, Y);
      return X ? X : Y;
    });
    break;
  case Instruction::FDiv: {
    // One reciprocal of the divisor for every lane (and, once CSE'd, every
    // quotient with the same divisor); a constant divisor stays a division.
    // (Not reverse mode's scaled reciprocal, support/DivisorReciprocal.h:
    // its test and select on every quotient cost LSTM's tangent 18 %; a
    // tangent past the doubles at a subnormal divisor is retried with
    // smaller seeds instead, forward/ScaledSeeds.h.)
    Value *R = isa<Constant>(Bv)
                   ? nullptr
                   : B.CreateFDiv(ConstantFP::get(Bv->getType(), 1.0), Bv);
    auto Divide = [&](Value *N) {
      return R ? B.CreateFMul(N, R) : B.CreateFDiv(N, Bv);
    };
    T = forEachLane(I.getType(), [&](unsigned L) -> Value * {
      if (!TB)
        return Divide(lane(TA, L));
      Value *Q = B.CreateFMul(&I, lane(TB, L));
      return Divide(TA ? B.CreateFSub(lane(TA, L), Q) : B.CreateFNeg(Q));
    });
    break;
  }
  case Instruction::FRem: {
    Value *Quot = nullptr;
    if (TB)
      Quot = B.CreateUnaryIntrinsic(Intrinsic::trunc, B.CreateFDiv(A, Bv));
    T = forEachLane(I.getType(), [&](unsigned L) -> Value * {
      Value *Y = TB ? B.CreateFMul(Quot, lane(TB, L)) : nullptr;
      if (!TA)
        return B.CreateFNeg(Y);
      return Y ? B.CreateFSub(lane(TA, L), Y) : lane(TA, L);
    });
    break;
  }
  default:
    B.clearFastMathFlags();
    return unsupported(I, Twine("the operation '") + I.getOpcodeName() +
                              "' on floating-point values");
  }
  B.clearFastMathFlags();
  setTangent(&I, T);
  return true;
}

bool ForwardEmitter::visitUnaryOperator(UnaryOperator &I) {
  Value *TA = tangentOrNull(I.getOperand(0));
  if (!TA)
    return true;
  if (I.getOpcode() != Instruction::FNeg)
    return unsupported(I, Twine("the operation '") + I.getOpcodeName() + "'");
  if (Key.ErrorEstimate)
    return emitErrorOperation(I);
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateFNeg(lane(TA, L));
  }));
  return true;
}

bool ForwardEmitter::visitCastInst(CastInst &I) {
  Value *TA = tangentOrNull(I.getOperand(0));
  if (!TA)
    return true;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::ZExt:
  case Instruction::Trunc:
    if (!isAnalyzedActive(&I) && !I.getType()->isFPOrFPVectorTy())
      return true;
    setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
      return B.CreateCast(I.getOpcode(), lane(TA, L), I.getType());
    }));
    return true;
  default:
    // fptosi and friends: the result is an integer without derivative.
    return true;
  }
}

bool ForwardEmitter::visitSelectInst(SelectInst &I) {
  Value *TT = tangentOrNull(I.getTrueValue());
  Value *TF = tangentOrNull(I.getFalseValue());
  if (!TT && !TF)
    return true;
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    Value *X = TT ? lane(TT, L) : Constant::getNullValue(I.getType());
    Value *Y = TF ? lane(TF, L) : Constant::getNullValue(I.getType());
    return B.CreateSelect(I.getCondition(), X, Y);
  }));
  return true;
}

bool ForwardEmitter::visitFreezeInst(FreezeInst &I) {
  // (A freeze without derivative: NoDerivativeMetadata.)
  Value *TA = tangentOrNull(I.getOperand(0));
  if (TA && isAnalyzedActive(&I))
    setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
      return B.CreateFreeze(lane(TA, L));
    }));
  return true;
}

} // namespace adcore
