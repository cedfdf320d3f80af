//===- ReversePowerRules.cpp - Adjoints of products of powers ------------===//
//
// `0.05 * u * u * u` is, after instcombine, (0.05 u) * (-u) * u: the
// product rule gives each factor an adjoint, which flows back to u through
// five multiplications and three sums. By the power rule (PowerRule.h) the
// adjoint of the whole product goes to u at once: a(u) += d * 3 * (the
// product of the other factors). The factors that only such products use
// get no adjoint, so their rules are skipped; they are no longer needed by
// the reverse sweep either (the tape plan sees the product needing the one
// factor it multiplies by).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// The factors of a product: its operands, or an fma's first two.
std::optional<std::pair<Value *, Value *>> factors(const Instruction &I) {
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    if (BO->getOpcode() == Instruction::FMul)
      return std::make_pair(BO->getOperand(0), BO->getOperand(1));
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->getIntrinsicID() == Intrinsic::fma ||
        II->getIntrinsicID() == Intrinsic::fmuladd)
      return std::make_pair(II->getArgOperand(0), II->getArgOperand(1));
  return std::nullopt;
}

/// The fneg and fmul instructions between \p V and the power's base \p X.
void collectChain(Value *V, Value *X,
                  SmallPtrSetImpl<const Instruction *> &Chain) {
  if (V == X || isa<Constant>(V))
    return;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Chain.insert(I).second)
    return;
  for (Value *Op : I->operands())
    collectChain(Op, X, Chain);
}

} // namespace

void ReverseEmitter::planPowerRules() {
  MapVector<const Instruction *, SmallPtrSet<const Instruction *, 4>> Chains;
  for (BasicBlock &BB : Aug)
    for (Instruction &I : BB) {
      std::optional<std::pair<Value *, Value *>> F = factors(I);
      if (!F || !isActiveFloat(&I) || !I.getType()->isFPOrFPVectorTy())
        continue;
      std::optional<PowerRule> Power = powerRule(F->first, F->second);
      if (!Power || !isActiveFloat(Power->X))
        continue;
      PowerProducts.insert(&I);
      collectChain(F->first, Power->X, Chains[&I]);
      collectChain(F->second, Power->X, Chains[&I]);
    }

  // A factor is bypassed when every user is a power product it is a factor
  // of (and not also the addend of: `a - a * a` is fmuladd(-a, a, a), whose
  // addend's adjoint goes through a's own rule), or a bypassed factor
  // itself.
  auto AsFactorOnly = [](const Instruction &Product, const Instruction *F) {
    auto *II = dyn_cast<IntrinsicInst>(&Product);
    return !II || !factors(*II) || II->getArgOperand(2) != F;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[Product, Chain] : Chains)
      for (const Instruction *Factor : Chain) {
        if (Bypassed.contains(Factor))
          continue;
        bool AllBypass = all_of(Factor->users(), [&](const User *U) {
          auto *UI = cast<Instruction>(U);
          auto It = Chains.find(UI);
          return Bypassed.contains(UI) ||
                 (It != Chains.end() && It->second.contains(Factor) &&
                  AsFactorOnly(*UI, Factor));
        });
        if (AllBypass && !Factor->use_empty()) {
          Bypassed.insert(Factor);
          Changed = true;
        }
      }
  }
}

std::optional<PowerRule>
ReverseEmitter::powerProduct(const Instruction &I) const {
  if (!PowerProducts.contains(&I))
    return std::nullopt;
  std::optional<std::pair<Value *, Value *>> F = factors(I);
  return powerRule(F->first, F->second);
}

bool ReverseEmitter::emitPowerAdjoint(Instruction &I, const PowerRule &Power,
                                      DenseMap<Value *, Value *> &Popped) {
  Value *D = takeAdjoint(&I);
  Value *Other = revValue(Power.Other, Popped);
  Value *Scaled =
      Power.Factor == 1.0
          ? Other
          : RB.CreateFMul(Other, ConstantFP::get(I.getType(), Power.Factor));
  addAdjoint(Power.X, RB.CreateFMul(D, Scaled));
  if (isa<IntrinsicInst>(I))
    addAdjoint(cast<IntrinsicInst>(I).getArgOperand(2), D);
  return true;
}

} // namespace adcore
