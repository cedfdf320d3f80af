//===- ContractArithmetic.cpp - Multiply-adds in derivative code ---------===//
//
//   a*b + c  ->  fmuladd(a, b, c)        c + a*b  ->  fmuladd(a, b, c)
//   a*b - c  ->  fmuladd(a, b, -c)       c - a*b  ->  fmuladd(-a, b, c)
// (the forms clang gives the same expressions in source). The product must
// have no other use, in the same block. The multiply-add keeps the sum's
// fast-math flags: an adjoint sum's `reassoc nsz` keep a loop's adjoint
// reduction within the vectorizer's reach.
//
//===----------------------------------------------------------------------===//

#include "ContractArithmetic.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace adcore {
namespace {

/// The product among \p I's operands that can be fused into it (the first
/// one), with its operand number; null when there is none.
std::pair<BinaryOperator *, unsigned>
fusableProduct(BinaryOperator &I,
               function_ref<bool(const Instruction &)> IsDerivativeCode) {
  for (unsigned N = 0; N < 2; ++N) {
    auto *Mul = dyn_cast<BinaryOperator>(I.getOperand(N));
    if (Mul && Mul->getOpcode() == Instruction::FMul && Mul->hasOneUse() &&
        Mul->getParent() == I.getParent() && IsDerivativeCode(*Mul))
      return {Mul, N};
  }
  return {nullptr, 0};
}

} // namespace

unsigned contractDerivativeArithmetic(
    Function &F, function_ref<bool(const Instruction &)> IsDerivativeCode) {
  SmallVector<BinaryOperator *, 64> Sums;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Op = dyn_cast<BinaryOperator>(&I))
        if ((Op->getOpcode() == Instruction::FAdd ||
             Op->getOpcode() == Instruction::FSub) &&
            IsDerivativeCode(*Op))
          Sums.push_back(Op);
  unsigned Made = 0;
  for (BinaryOperator *Sum : Sums) {
    auto [Mul, N] = fusableProduct(*Sum, IsDerivativeCode);
    if (!Mul)
      continue;
    IRBuilder<> B(Sum);
    B.setFastMathFlags(Sum->getFastMathFlags());
    Value *X = Mul->getOperand(0), *Y = Mul->getOperand(1);
    Value *Addend = Sum->getOperand(1 - N);
    if (Sum->getOpcode() == Instruction::FSub) {
      if (N == 0)
        Addend = B.CreateFNeg(Addend);
      else
        X = B.CreateFNeg(X);
    }
    Value *Fused =
        B.CreateIntrinsic(Intrinsic::fmuladd, {Sum->getType()}, {X, Y, Addend});
    Fused->takeName(Sum);
    Sum->replaceAllUsesWith(Fused);
    Sum->eraseFromParent();
    Mul->eraseFromParent();
    ++Made;
  }
  return Made;
}

} // namespace adcore
