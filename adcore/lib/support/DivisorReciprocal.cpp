//===- DivisorReciprocal.cpp - 1 / b for the derivatives of a / b --------===//

#include "DivisorReciprocal.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace llvm;

namespace adcore {
namespace {

/// The magnitude below which reciprocalOf scales a divisor of type \p T;
/// nothing for formats whose range does not hold 2^64 and
/// 2^-(max exponent - 64) (half's: its reciprocal stays plain).
std::optional<double> tinyBound(Type *T) {
  Type *S = T->getScalarType();
  if (!S->isFloatTy() && !S->isDoubleTy() && !S->isX86_FP80Ty() &&
      !S->isFP128Ty())
    return std::nullopt;
  int MaxExp = APFloat::semanticsMaxExponent(S->getFltSemantics());
  return std::ldexp(1.0, std::max(-1000, 64 - MaxExp));
}

/// A number every lane of \p V is at least (or NaN), from the way the
/// primal computes it: constants, exponentials, sums and products of
/// values known that way, square roots, absolute values, and loops'
/// phis whose every step keeps the bound of their first value. Rounding
/// is monotone, so the bounds of the operands bound the rounded result.
class LowerBounds {
public:
  std::optional<double> of(const Value *V, unsigned Depth = 0) {
    if (Depth > 8)
      return std::nullopt;
    std::optional<double> L = ofValue(V, Depth);
    if (L && std::isnan(*L))
      return std::nullopt;
    return L;
  }

private:
  /// Phis being bounded, with the bound assumed for them meanwhile.
  DenseMap<const PHINode *, double> Assumed;

  std::optional<double> ofValue(const Value *V, unsigned Depth) {
    if (auto *C = dyn_cast<Constant>(V))
      return ofConstant(C);
    if (auto *P = dyn_cast<PHINode>(V))
      return ofPhi(P, Depth);
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return std::nullopt;
    auto Both = [&](const Value *A, const Value *B) {
      std::optional<double> LA = of(A, Depth + 1);
      std::optional<double> LB = LA ? of(B, Depth + 1) : std::nullopt;
      return LA && LB ? std::optional(std::make_pair(*LA, *LB)) : std::nullopt;
    };
    switch (I->getOpcode()) {
    case Instruction::FAdd:
      if (auto L = Both(I->getOperand(0), I->getOperand(1)))
        return L->first + L->second;
      return std::nullopt;
    case Instruction::FMul:
      if (I->getOperand(0) == I->getOperand(1))
        return 0.0;
      if (auto L = Both(I->getOperand(0), I->getOperand(1));
          L && L->first >= 0 && L->second >= 0)
        return L->first * L->second;
      return std::nullopt;
    case Instruction::Freeze:
      return of(I->getOperand(0), Depth + 1);
    case Instruction::UIToFP:
    case Instruction::FPExt:
      return I->getOpcode() == Instruction::UIToFP
                 ? std::optional(0.0)
                 : of(I->getOperand(0), Depth + 1);
    case Instruction::Select: {
      auto L = Both(I->getOperand(1), I->getOperand(2));
      return L ? std::optional(std::min(L->first, L->second)) : std::nullopt;
    }
    case Instruction::Call:
      return ofCall(cast<CallInst>(*I), Depth);
    default:
      return std::nullopt;
    }
  }

  static std::optional<double> ofConstant(const Constant *C) {
    if (auto *CF = dyn_cast<ConstantFP>(C)) {
      if (CF->isNaN())
        return std::nullopt;
      // (Rounded down into a double: long double constants too.)
      APFloat Value = CF->getValueAPF();
      bool Lost;
      Value.convert(APFloat::IEEEdouble(), APFloat::rmTowardNegative, &Lost);
      return Value.convertToDouble();
    }
    if (C->getType()->isVectorTy()) {
      if (Constant *Splat = C->getSplatValue())
        return ofConstant(Splat);
      auto *CDV = dyn_cast<ConstantDataVector>(C);
      if (!CDV || !CDV->getElementType()->isFloatingPointTy())
        return std::nullopt;
      double L = INFINITY;
      for (unsigned K = 0, E = CDV->getNumElements(); K != E; ++K) {
        std::optional<double> LK = ofConstant(CDV->getElementAsConstant(K));
        if (!LK)
          return std::nullopt;
        L = std::min(L, *LK);
      }
      return L;
    }
    return std::nullopt;
  }

  /// The least of the incoming values' bounds, where the phi's own bound
  /// assumed there holds for its steps (an induction: sum += exp(v)).
  std::optional<double> ofPhi(const PHINode *P, unsigned Depth) {
    if (auto It = Assumed.find(P); It != Assumed.end())
      return It->second;
    auto Least = [&]() -> std::optional<double> {
      double L = INFINITY;
      for (const Value *In : P->incoming_values()) {
        std::optional<double> LI = of(In, Depth + 1);
        if (!LI)
          return std::nullopt;
        L = std::min(L, *LI);
      }
      return L;
    };
    Assumed[P] = INFINITY;
    std::optional<double> Candidate = Least();
    std::optional<double> Checked;
    if (Candidate) {
      Assumed[P] = *Candidate;
      Checked = Least();
    }
    Assumed.erase(P);
    if (!Checked || *Checked < *Candidate)
      return std::nullopt;
    return Candidate;
  }

  std::optional<double> ofCall(const CallInst &Call, unsigned Depth) {
    const Function *F = Call.getCalledFunction();
    if (!F || Call.arg_size() == 0)
      return std::nullopt;
    switch (F->getIntrinsicID()) {
    case Intrinsic::exp:
    case Intrinsic::exp2:
    case Intrinsic::exp10:
    case Intrinsic::fabs:
      return 0.0;
    case Intrinsic::sqrt:
      return ofSqrt(Call.getArgOperand(0), Depth);
    case Intrinsic::fma:
    case Intrinsic::fmuladd: {
      // (a a + c, or a b + c of bounds at least 0.)
      const Value *A = Call.getArgOperand(0), *B = Call.getArgOperand(1);
      std::optional<double> LC = of(Call.getArgOperand(2), Depth + 1);
      if (!LC)
        return std::nullopt;
      if (A == B)
        return *LC;
      std::optional<double> LA = of(A, Depth + 1);
      std::optional<double> LB = LA ? of(B, Depth + 1) : std::nullopt;
      if (!LB || *LA < 0 || *LB < 0)
        return std::nullopt;
      return *LA * *LB + *LC;
    }
    case Intrinsic::not_intrinsic:
      break;
    default:
      return std::nullopt;
    }
    // (The C library's exponentials, declared: never below zero.)
    if (!F->isDeclaration())
      return std::nullopt;
    StringRef Name = F->getName();
    if (Name == "exp" || Name == "expf" || Name == "exp2" || Name == "exp2f" ||
        Name == "exp10" || Name == "exp10f")
      return 0.0;
    if (Name == "cosh" || Name == "coshf")
      return 1.0;
    if (Name == "sqrt" || Name == "sqrtf")
      return ofSqrt(Call.getArgOperand(0), Depth);
    return std::nullopt;
  }

  std::optional<double> ofSqrt(const Value *Arg, unsigned Depth) {
    if (std::optional<double> L = of(Arg, Depth + 1); L && *L >= 0)
      return std::sqrt(*L);
    return std::nullopt;
  }
};

} // namespace

bool neverTinyDivisor(const Value *V) {
  std::optional<double> Tiny = tinyBound(V->getType());
  if (!Tiny)
    return false;
  // (An integer's value: zero or at least 1 in magnitude.)
  if (isa<SIToFPInst, UIToFPInst>(V))
    return true;
  if (auto *Neg = dyn_cast<UnaryOperator>(V);
      Neg && Neg->getOpcode() == Instruction::FNeg)
    return neverTinyDivisor(Neg->getOperand(0));
  std::optional<double> L = LowerBounds().of(V);
  return L && *L >= *Tiny;
}

DivisorReciprocal reciprocalOf(IRBuilderBase &B, Value *Divisor,
                               const Value *Primal) {
  DivisorReciprocal R;
  R.Divisor = Divisor;
  if (isa<Constant>(Divisor))
    return R;
  Type *T = Divisor->getType();
  Value *One = ConstantFP::get(T, 1.0);
  std::optional<double> Bound = tinyBound(T);
  if (!Bound || (Primal && neverTinyDivisor(Primal))) {
    R.Reciprocal = B.CreateFDiv(One, Divisor);
    return R;
  }
  Value *Tiny =
      B.CreateFCmpOLT(B.CreateUnaryIntrinsic(Intrinsic::fabs, Divisor),
                      ConstantFP::get(T, *Bound));
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
