//===- DeferredScales.cpp - Powers of two applied after a source's rule --===//
//
// A float y given a new exponent in its bits is its source x scaled by 2^d
// (prepare/ScaledFloatBits.cpp: `y - (x' - x) * 2^h * 2^(d - h)`), and
// x's adjoint is 2^d times y's. Where x is small and d large, that adjoint
// passes the doubles though the adjoints of x's own operands do not:
// openlibm's `__frexp_exp` gives exp(u - 1799 ln 2) ~ 2^-775 the exponent
// of 2^1023, d = 1798, and u's adjoint is 2^1798 e(u) ~ 2^1023, where
// x's, 2^1798, is inf (then NaN). Reverse mode is linear in the adjoints,
// so each of the two products by powers of two, marked
// DeferredScaleMetadata, where its product with the adjoint is not a
// normal number, passes the adjoint on unscaled and keeps its factor in a
// slot (1 where it scaled); x's own adjoint rule (an operation's, a math
// function's, a callee's reverse sweep) multiplies what it adds to its
// operands' adjoints by them. Chosen at run time, by the numbers: where
// the result's adjoint is small (the result scaled down further, 2^-1020
// times e's 2^1023), scaling x's adjoint first keeps x's rule from
// underflowing. The prepare
// step marks only an x made in the rewrite's block whose derivative
// nothing else takes, so every adjoint of x is scaled by the same factors;
// this file defers only for an x whose rule adds its operands' adjoints
// through addAdjoint, and a deferral whose x's rule did not apply them is
// an error, never a derivative off by 2^d.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "support/DeferredScaleMark.h"
#include "support/IRMarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/FPEnv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace adcore {

/// The source x of a marked product of a rewrite, `(x' - x) * 2^h` or
/// `that * 2^(d - h)`; null where the shape is not the rewrite's.
static Value *scaledSource(BinaryOperator &Mul) {
  Value *V = Mul.getOperand(0);
  if (auto *Inner = dyn_cast<BinaryOperator>(V);
      Inner && Inner->getOpcode() == Instruction::FMul &&
      Inner->hasMetadata(DeferredScaleMetadata))
    V = Inner->getOperand(0);
  auto *Zero = dyn_cast<SelectInst>(V);
  if (!Zero)
    return nullptr;
  auto *Diff = dyn_cast<BinaryOperator>(Zero->getTrueValue());
  if (!Diff || Diff->getOpcode() != Instruction::FSub)
    return nullptr;
  return Diff->getOperand(1);
}

void ReverseEmitter::noteDeferredScale(BinaryOperator &Mul) {
  if (!Mul.hasMetadata(DeferredScaleMetadata) || Width != 1 ||
      !isActiveFloat(Mul.getOperand(0)) || isActiveFloat(Mul.getOperand(1)))
    return;
  auto *X = dyn_cast_or_null<Instruction>(scaledSource(Mul));
  if (!X || X->getParent() != Mul.getParent() || !isActiveFloat(X))
    return;
  // The instruction whose adjoint rule adds x's operands' adjoints: the
  // augmented call that replaced a user call, or x.
  Instruction *Rule = nullptr;
  for (auto &[Call, Result] : CallResult)
    if (Result == X && CallKeys.count(Call))
      Rule = Call;
  if (!Rule) {
    auto *Call = dyn_cast<CallBase>(X);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    bool Operation = isa<BinaryOperator, UnaryOperator, FPExtInst,
                         FPTruncInst>(X) &&
                     !PowerProducts.contains(X) && !Bypassed.contains(X);
    bool MathCall = Call && Callee && ruleFor(*Callee) &&
                    !CustomSites.count(Call) && !CallKeys.count(Call) &&
                    !Call->getType()->isStructTy();
    if (Operation || MathCall)
      Rule = X;
  }
  if (!Rule)
    return;
  // (Once: a factor listed twice would be applied twice.)
  if (DeferredMuls.insert(&Mul).second)
    DeferredSources[Rule].push_back(&Mul);
}

Value *ReverseEmitter::scaleSlot(Instruction &Mul) {
  auto [It, Inserted] = ScaleSlots.insert({&Mul, nullptr});
  if (Inserted) {
    IRBuilder<> EB(RevEntry, RevEntry->begin());
    It->second = EB.CreateAlloca(Mul.getType(), nullptr, "scale.deferred");
    EB.SetInsertPoint(RevEntry->getTerminator());
    EB.CreateStore(ConstantFP::get(Mul.getType(), 1.0), It->second);
  }
  return It->second;
}

void ReverseEmitter::emitDeferredScale(BinaryOperator &Mul, Value *D,
                                       Value *Factor) {
  // (Where x's adjoint is a normal number it is the better place: x's
  // rule may make a small adjoint smaller, as scaled_top(x) 2^-1020's
  // does, e's 2^-775 times the result's 2^-1020.)
  Value *Scaled = RB.CreateFMul(D, Factor);
  Value *Now = RB.CreateOr(
      RB.CreateIntrinsic(Intrinsic::is_fpclass, {D->getType()},
                         {Scaled, RB.getInt32(fcNormal)}),
      RB.CreateFCmpOEQ(D, ConstantFP::get(D->getType(), 0.0)));
  RB.CreateStore(
      RB.CreateSelect(Now, ConstantFP::get(Factor->getType(), 1.0), Factor),
      scaleSlot(Mul));
  addAdjoint(Mul.getOperand(0), RB.CreateSelect(Now, Scaled, D));
}

void ReverseEmitter::beginDeferredScales(Instruction &I) {
  PendingScales.clear();
  auto It = DeferredSources.find(&I);
  if (It == DeferredSources.end())
    return;
  for (Instruction *Mul : It->second)
    PendingScales.push_back(RB.CreateLoad(Mul->getType(), scaleSlot(*Mul)));
  AppliedScales.insert(&I);
}

Value *ReverseEmitter::applyPendingScales(Value *Delta) {
  Type *T = Delta->getType();
  if (!T->isFPOrFPVectorTy()) {
    DeferredScaleLost = true;
    return Delta;
  }
  // (Powers of two: exact in the operand's type, fpext or fptrunc's.)
  for (Value *S : PendingScales) {
    Value *F = RB.CreateFPCast(S, T->getScalarType());
    if (auto *VT = dyn_cast<VectorType>(T))
      F = RB.CreateVectorSplat(VT->getElementCount(), F);
    Delta = RB.CreateFMul(Delta, F);
  }
  return Delta;
}

bool ReverseEmitter::checkDeferredScales() {
  if (DeferredScaleLost && !DeferredSources.empty())
    return unsupported(*DeferredSources.begin()->second.front(),
                       "internal error: a power of two deferred to the "
                       "adjoint of a float's source met an adjoint that "
                       "is not a float");
  for (auto &[Rule, Muls] : DeferredSources)
    if (!AppliedScales.contains(Rule))
      return unsupported(*Muls.front(),
                         "internal error: a power of two deferred to the "
                         "adjoint of a float's source was not applied");
  return true;
}

void ReverseEmitter::endDeferredScales() { PendingScales.clear(); }

} // namespace adcore
