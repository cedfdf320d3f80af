//===- PowerRule.cpp - Products of powers of one value -------------------===//

#include "PowerRule.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {
namespace {

/// V = Coef * X^Degree.
struct Monomial {
  Value *X;
  unsigned Degree;
  double Coef;
};

/// A floating-point constant, or the value of a splat vector constant.
std::optional<double> constantFactor(Value *V) {
  auto *C = dyn_cast<Constant>(V);
  if (!C)
    return std::nullopt;
  if (C->getType()->isVectorTy())
    C = C->getSplatValue();
  auto *F = dyn_cast_or_null<ConstantFP>(C);
  if (!F || (!F->getType()->isDoubleTy() && !F->getType()->isFloatTy()))
    return std::nullopt;
  return F->getValueAPF().convertToDouble();
}

/// Monomials are followed a few levels deep only: the chains of interest
/// are short (x^3 with a coefficient), and this keeps the walk cheap.
constexpr unsigned MaxDepth = 6;

Monomial monomialOf(Value *V, unsigned Depth = 0) {
  Monomial Self{V, 1, 1.0};
  if (Depth == MaxDepth)
    return Self;
  if (auto *U = dyn_cast<UnaryOperator>(V)) {
    if (U->getOpcode() != Instruction::FNeg)
      return Self;
    Monomial M = monomialOf(U->getOperand(0), Depth + 1);
    M.Coef = -M.Coef;
    return M;
  }
  auto *Mul = dyn_cast<BinaryOperator>(V);
  if (!Mul || Mul->getOpcode() != Instruction::FMul)
    return Self;
  Value *A = Mul->getOperand(0), *B = Mul->getOperand(1);
  if (std::optional<double> K = constantFactor(B)) {
    Monomial M = monomialOf(A, Depth + 1);
    M.Coef *= *K;
    return M;
  }
  if (std::optional<double> K = constantFactor(A)) {
    Monomial M = monomialOf(B, Depth + 1);
    M.Coef *= *K;
    return M;
  }
  Monomial MA = monomialOf(A, Depth + 1), MB = monomialOf(B, Depth + 1);
  if (MA.X != MB.X)
    return Self;
  return {MA.X, MA.Degree + MB.Degree, MA.Coef * MB.Coef};
}

} // namespace

std::optional<PowerRule> powerRule(Value *A, Value *B) {
  if (isa<Constant>(A) || isa<Constant>(B))
    return std::nullopt;
  Monomial MA = monomialOf(A), MB = monomialOf(B);
  if (MA.X != MB.X || isa<Constant>(MA.X))
    return std::nullopt;
  double N = MA.Degree + MB.Degree;
  if (MB.Degree == 1)
    return PowerRule{MA.X, A, N * MB.Coef};
  if (MA.Degree == 1)
    return PowerRule{MA.X, B, N * MA.Coef};
  return std::nullopt;
}

} // namespace adcore
