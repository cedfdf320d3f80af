//===- ReverseRules.cpp - What each instruction records; its adjoint -----===//
//
// Adjoint rules (d is the adjoint of the result, a(x) that of x):
//   a + b  ->  a(a) += d, a(b) += d        a - b  ->  a(a) += d, a(b) -= d
//   a * b  ->  a(a) += d b, a(b) += d a    -a     ->  a(a) -= d
//   q = a / b  ->  a(a) += d / b, a(b) -= d q / b
//   fmod(a, b) ->  a(a) += d, a(b) -= d trunc(a/b)
//   fpext / fptrunc  ->  the opposite cast of d
//   select(c, a, b)  ->  a(a) += c ? d : 0, a(b) += c ? 0 : d
//   v = *p           ->  shadow(p) += d
//   *p = v           ->  a(v) += shadow(p), shadow(p) = 0
//   f(x...) (rule)   ->  a(x_i) += d * df/dx_i
//   user call        ->  the callee's reverse sweep
// Each rule lists the primal values it needs; the augmented sweep records
// them right after the instruction runs (each execution, so loops work).
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"
#include "support/DivisorReciprocal.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ShadowAlignment.h"
#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

bool ReverseEmitter::writesOnlyNumbers(const Instruction &I) const {
  const Value *P = PrimalOf.lookup(&I);
  if (const auto *MT = dyn_cast_or_null<MemTransferInst>(P))
    return copiesOnlyIntegers(*Types, *MT);
  if (const auto *MS = dyn_cast_or_null<MemSetInst>(P))
    return holdsOnlyIntegers(*Types, MS->getRawDest(), MS->getLength());
  return false;
}

bool ReverseEmitter::mayWriteNumbers(const Instruction &I) const {
  const auto *MI = dyn_cast_or_null<MemIntrinsic>(PrimalOf.lookup(&I));
  if (!MI)
    return false;
  const auto *MT = dyn_cast<MemTransferInst>(MI);
  return !holdsFloatingPoint(*Types, MI->getRawDest(), MI->getLength()) &&
         !(MT &&
           holdsFloatingPoint(*Types, MT->getRawSource(), MT->getLength()));
}

bool ReverseEmitter::neededValues(Instruction &I,
                                  SmallVectorImpl<Value *> &Out) {
  auto Need = [&](Value *V) { Out.push_back(V); };
  if (Bypassed.contains(&I))
    return true;
  if (std::optional<PowerRule> Power = powerProduct(I)) {
    Need(Power->Other);
    return true;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    if (!isActiveFloat(BO))
      return true;
    Value *A = BO->getOperand(0), *Bv = BO->getOperand(1);
    switch (BO->getOpcode()) {
    case Instruction::FMul:
      if (isActiveFloat(A))
        Need(Bv);
      if (isActiveFloat(Bv))
        Need(A);
      noteDeferredScale(*BO);
      return true;
    case Instruction::FDiv:
      Need(Bv);
      if (isActiveFloat(Bv))
        Need(BO);
      return true;
    case Instruction::FRem:
      if (isActiveFloat(Bv)) {
        Need(A);
        Need(Bv);
      }
      return true;
    default:
      return true;
    }
  }
  if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    if (isActiveFloat(Sel))
      Need(Sel->getCondition());
    return true;
  }
  // (Through a pointer read from a tape record, its shadow too: null for
  // a pointer without derivatives. NestedRecords.cpp)
  auto NeedBase = [&](Value *Ptr) {
    if (LoadInst *Base = recordedBase(Ptr))
      Need(shadowOrNull(Base));
  };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (isActiveFloat(LI) || FloatView.count(LI))
      if (Value *SP = shadowOrNull(LI->getPointerOperand())) {
        Need(SP);
        NeedBase(LI->getPointerOperand());
      }
    return true;
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (RMW->getValOperand()->getType()->isFPOrFPVectorTy())
      if (Value *SP = shadowOrNull(RMW->getPointerOperand()))
        Need(SP);
    return true;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *SP = shadowOrNull(SI->getPointerOperand());
    Type *T = SI->getValueOperand()->getType();
    // (A pointer's shadow stored with a record: its reverse puts back the
    // bytes from before. PointerShadowMarks.h)
    if (SP && MarkedStores.contains(SI) && !isa<Constant>(SP)) {
      Need(SP);
      return true;
    }
    if (SP &&
        (T->isFPOrFPVectorTy() || FloatView.count(SI->getValueOperand()) ||
         (T->isAggregateType() && canCarryDerivative(T)))) {
      Need(SP);
      NeedBase(SI->getPointerOperand());
    }
    return true;
  }
  if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    Value *SD = shadowOrNull(MT->getRawDest());
    Value *SS = shadowOrNull(MT->getRawSource());
    // (A copy from memory without derivatives into a shadow global clears
    // the global's adjoints.)
    if (!SD || (!SS && !isa<Constant>(SD)) || writesOnlyNumbers(*MT))
      return true;
    Need(SD);
    if (SS)
      Need(SS);
    else if (mayWriteNumbers(*MT))
      Need(MT->getRawDest());
    Need(MT->getLength());
    return true;
  }
  if (auto *MS = dyn_cast<MemSetInst>(&I)) {
    if (writesOnlyNumbers(*MS))
      return true;
    if (Value *SD = shadowOrNull(MS->getRawDest())) {
      Need(SD);
      Need(MS->getLength());
      if (mayWriteNumbers(*MS))
        Need(MS->getRawDest());
    }
    return true;
  }
  if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    if (isActiveFloat(EE))
      Need(EE->getIndexOperand());
    return true;
  }
  if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    if (isActiveFloat(IE))
      Need(IE->getOperand(2));
    return true;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return true;
    if (Call->getIntrinsicID() == Intrinsic::sincos && isActiveFloat(Call)) {
      Need(Call);
      return true;
    }
    if (const MathRule *Rule = ruleFor(*Callee)) {
      bool Any = false;
      for (unsigned K = 0; K < Rule->NumArgs && K < Call->arg_size(); ++K)
        Any |= Rule->Partials[K] && isActiveFloat(Call->getArgOperand(K));
      if (!Any)
        return true;
      StringRef Name(Rule->Name);
      if (Name == "fma" || Name == "fmuladd") {
        // d/da = b, d/db = a, d/dc = 1: only the other factor is needed.
        if (isActiveFloat(Call->getArgOperand(0)))
          Need(Call->getArgOperand(1));
        if (isActiveFloat(Call->getArgOperand(1)))
          Need(Call->getArgOperand(0));
        return true;
      }
      // cos x for sin x: the primal's own call when it makes one. One
      // before the call is recorded with it; one after it records its own
      // value for the call (the reverse sweep reaches it first).
      bool Negate = false;
      if (CallInst *C = companionCall(
              *Call, Rule->Name, Negate,
              [&](const CallInst &C) {
                return !Ctx.rules().gradient(C.getCalledFunction());
              },
              CompanionMove::None)) {
        Companions[Call] = {C, Negate};
        if (C->comesBefore(Call))
          Need(C);
        else
          CarriesOwnValue.insert(C);
        if (CarriesOwnValue.contains(Call))
          Need(Call);
        return true;
      }
      if (CarriesOwnValue.contains(Call))
        Need(Call);
      // Integer arguments (powi's exponent) are always needed.
      for (unsigned K = 0; K < Call->arg_size(); ++K)
        if ((Rule->Uses & UsesArgs) ||
            !Call->getArgOperand(K)->getType()->isFPOrFPVectorTy())
          Need(Call->getArgOperand(K));
      if (Rule->Uses & UsesResult)
        Need(Call);
      return true;
    }
    if (ShadowMallocs.contains(Call)) {
      Need(shadows().lookup(Call));
      // (A registered deallocator may take the allocator's arguments.)
      if (classifyMemoryFunction(*Callee) == MemoryFunctionKind::AllocationLike)
        for (Value *A : deallocationOf(*Call, nullptr, [](Value *V) {
                          return V;
                        }).Args)
          if (A)
            Need(A);
    }
    if (AdjointCopies.contains(Call))
      adjointCopyNeeds(*Call, Out);
    if (auto It = reallocSites().find(Call); It != reallocSites().end()) {
      Need(shadows().lookup(Call));
      if (It->second.OldShadow) {
        Need(It->second.OldShadow);
        Need(It->second.Bytes);
      }
    }
    return true;
  }
  return true;
}

bool ReverseEmitter::emitAdjoint(Instruction &I,
                                 DenseMap<Value *, Value *> &Popped) {
  auto Val = [&](Value *V) { return revValue(V, Popped); };
  // The reverse sweep's shadow address of \p P, or null where the memory
  // has no shadow. (A shadow global's address needs no record.)
  auto ShadowAt = [&](Value *P) -> Value * {
    Value *S = shadowOrNull(P);
    if (auto *C = dyn_cast_or_null<Constant>(S))
      return C->isNullValue() ? nullptr : C;
    return S ? Popped.lookup(S) : nullptr;
  };

  if (DeviceCode && mirrorsBarrier(I, Popped))
    return true;
  if (TaskSyncs.count(&I))
    return Lane != 0 || mirrorsTaskSync(I, Popped);
  if (Key.Parallel && !DeviceCode && mirrorsOpenMPSync(I, Popped))
    return true;
  if (ForkSites.count(&I))
    return emitForkAdjoint(cast<CallBase>(I), Popped);
  if (TaskSites.count(&I))
    return emitTaskAdjoint(cast<CallBase>(I), Popped);
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return emitAtomicAdjoint(*RMW, ShadowAt(RMW->getPointerOperand()));
  if (CustomSites.count(&I))
    return emitCustomAdjoint(cast<CallBase>(I), Popped);
  if (Bypassed.contains(&I))
    return true;
  if (PowerProducts.contains(&I)) {
    std::optional<PowerRule> Power = powerProduct(I);
    if (!Power)
      return unsupported(I, "internal error: a power product lost its form");
    return emitPowerAdjoint(I, *Power, Popped);
  }

  // A user call: the callee's reverse sweep.
  auto KeyIt = CallKeys.find(&I);
  if (KeyIt != CallKeys.end()) {
    DerivativeKey K = KeyIt->second;
    K.Mode = DerivativeMode::Reverse;
    Function *RevCallee = Ctx.cache().lookup(K);
    if (!RevCallee)
      return unsupported(I, "internal error: no reverse sweep for a callee");
    // Every lane at once: the seeds and adjoints come in arrays.
    SmallVector<Value *, 1> Args;
    Value *Result = CallResult.lookup(&I);
    if (RevCallee->arg_size() == 1) {
      Type *SeedTy = RevCallee->getArg(0)->getType();
      Value *Seed = Constant::getNullValue(SeedTy);
      if (Result && isActiveFloat(Result))
        for (Lane = 0; Lane < Width; ++Lane)
          Seed = Width == 1
                     ? takeAdjoint(Result)
                     : RB.CreateInsertValue(Seed, takeAdjoint(Result), Lane);
      Args.push_back(Seed);
    }
    Value *Adjoints = RB.CreateCall(RevCallee, Args);
    auto &Call = cast<CallBase>(I);
    unsigned N = 0, Count = 0;
    for (ArgActivity A : K.Args)
      Count += A == ArgActivity::Active;
    for (unsigned ArgNo = 0; ArgNo < K.Args.size(); ++ArgNo) {
      if (K.Args[ArgNo] != ArgActivity::Active)
        continue;
      // The augmented call has Width shadows after each Dup argument.
      unsigned Pos = 0;
      for (unsigned J = 0; J < ArgNo; ++J)
        Pos += hasShadow(K.Args[J]) ? 1 + Width : 1;
      Value *D = Count == 1 ? Adjoints : RB.CreateExtractValue(Adjoints, N);
      for (Lane = 0; Lane < Width; ++Lane)
        addAdjoint(Call.getArgOperand(Pos),
                   Width == 1 ? D : RB.CreateExtractValue(D, Lane));
      ++N;
    }
    return true;
  }

  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    auto It = ShadowAllocas.find(AI);
    if (It != ShadowAllocas.end()) {
      // A variable-length array: its element count was recorded.
      Value *Bytes = RB.getInt64(It->second);
      if (!It->second)
        Bytes = RB.CreateMul(
            RB.CreateZExtOrTrunc(Val(AI->getArraySize()), RB.getInt64Ty()),
            RB.getInt64(Aug.getParent()->getDataLayout().getTypeAllocSize(
                AI->getAllocatedType())));
      CallInst *Pop =
          RB.CreateCall(tapeRecordFunction(*Rev.getParent(), "adcc_tape_pop"),
                        {RevTape, Bytes, RB.getInt64(AI->getAlign().value())});
      Pop->setMetadata(ShadowBlockMetadata, MDNode::get(Rev.getContext(), {}));
      Pop->setMetadata(EndRecordsMetadata, ShadowBlockTags.lookup(AI));
    }
    return true;
  }

  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    if (!isActiveFloat(BO))
      return true;
    Value *A = BO->getOperand(0), *Bv = BO->getOperand(1);
    Value *D = takeAdjoint(BO);
    RB.setFastMathFlags(BO->getFastMathFlags());
    switch (BO->getOpcode()) {
    case Instruction::FAdd:
      addAdjoint(A, D);
      addAdjoint(Bv, D);
      break;
    case Instruction::FSub:
      addAdjoint(A, D);
      if (isActiveFloat(Bv))
        addAdjoint(Bv, RB.CreateFNeg(D));
      break;
    case Instruction::FMul:
      // (A power of two that x's own rule applies: DeferredScales.cpp.)
      if (DeferredMuls.contains(BO)) {
        emitDeferredScale(*BO, D, Val(Bv));
        break;
      }
      if (isActiveFloat(A))
        addAdjoint(A, RB.CreateFMul(D, Val(Bv)));
      if (isActiveFloat(Bv))
        addAdjoint(Bv, RB.CreateFMul(D, Val(A)));
      break;
    case Instruction::FDiv: {
      // One reciprocal of the divisor, shared by both adjoints, every lane
      // and (once CSE'd) every quotient with the same divisor; finite for
      // a subnormal divisor (support/DivisorReciprocal.h), plain where the
      // primal's divisor is never that small.
      DivisorReciprocal R = reciprocalOf(RB, Val(Bv), Bv);
      auto Divide = [&](Value *N) { return divideBy(RB, R, N); };
      if (isActiveFloat(A))
        addAdjoint(A, Divide(D));
      if (isActiveFloat(Bv))
        addAdjoint(Bv, RB.CreateFNeg(Divide(RB.CreateFMul(D, Val(BO)))));
      break;
    }
    case Instruction::FRem:
      addAdjoint(A, D);
      if (isActiveFloat(Bv))
        addAdjoint(
            Bv, RB.CreateFNeg(RB.CreateFMul(
                    D, RB.CreateUnaryIntrinsic(
                           Intrinsic::trunc, RB.CreateFDiv(Val(A), Val(Bv))))));
      break;
    default:
      RB.clearFastMathFlags();
      return unsupported(I, Twine("the operation '") + BO->getOpcodeName() +
                                "' on floating-point values");
    }
    RB.clearFastMathFlags();
    return true;
  }
  if (auto *FI = dyn_cast<FreezeInst>(&I)) {
    // freeze(a) is a: the adjoint passes through.
    if (isActiveFloat(FI))
      addAdjoint(FI->getOperand(0), takeAdjoint(FI));
    return true;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(&I)) {
    if (isActiveFloat(UO))
      addAdjoint(UO->getOperand(0), RB.CreateFNeg(takeAdjoint(UO)));
    return true;
  }
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    if (!isActiveFloat(Cast))
      return true;
    Value *D = takeAdjoint(Cast);
    Value *Op = Cast->getOperand(0);
    switch (Cast->getOpcode()) {
    case Instruction::FPExt:
    case Instruction::FPTrunc:
      addAdjoint(Op, RB.CreateFPCast(D, Op->getType()));
      return true;
    case Instruction::BitCast:
      if (Op->getType()->isFPOrFPVectorTy())
        addAdjoint(Op, RB.CreateBitCast(D, Op->getType()));
      else if (FloatView.count(Op))
        castAdjointToView(Op, D);
      else if (ViewElement.count(Cast))
        elementAdjointToView(*cast<BitCastInst>(Cast), D);
      else if (Active.contains(Op))
        return unsupported(I, "integer bits reinterpreted as a "
                              "floating-point value carry a derivative "
                              "adcc cannot follow; use floating-point "
                              "loads and operations");
      return true;
    default:
      return true;
    }
  }
  if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    if (!isActiveFloat(Sel))
      return true;
    Value *D = takeAdjoint(Sel);
    Value *C = Val(Sel->getCondition());
    Value *Zero = Constant::getNullValue(Sel->getType());
    addAdjoint(Sel->getTrueValue(), RB.CreateSelect(C, D, Zero));
    addAdjoint(Sel->getFalseValue(), RB.CreateSelect(C, Zero, D));
    return true;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (FloatView.count(LI)) {
      // (Through a shadow that may be null: NullShadowGuards.h.)
      if (Value *SP = ShadowAt(LI->getPointerOperand()))
        loadAdjointOfView(*LI, SP, nullable(LI->getPointerOperand()));
      return true;
    }
    if (!isActiveFloat(LI))
      return true;
    Value *D = takeAdjoint(LI);
    Value *Shadow = shadowOrNull(LI->getPointerOperand());
    if (!Shadow)
      // The activity analysis let a derivative through this pointer, but
      // the augmented sweep made no shadow for it: dropping the adjoint
      // would give a wrong gradient.
      return unsupported(I, "a floating-point value with a derivative is "
                            "read through a pointer whose shadow is not "
                            "known here (a pointer rebuilt from an "
                            "integer?); compute the address with pointer "
                            "arithmetic, or pass the memory as a "
                            "duplicated argument");
    Value *SP = ShadowAt(LI->getPointerOperand());
    if (!SP)
      return true; // memory without shadow: constant
    Value *To = SP, *IsNull;
    const DataLayout &DL = Rev.getParent()->getDataLayout();
    const Align ShadowA = shadowAlign(DL, LI->getType(), LI->getAlign());
    if (LoadInst *Base = recordedBase(LI->getPointerOperand())) {
      SP = guardRecorded(RB, LI->getPointerOperand(), SP,
                         Popped.lookup(shadowOrNull(Base)),
                         DL.getTypeStoreSize(LI->getType()), false, IsNull);
      To = SP;
    } else if (nullable(LI->getPointerOperand())) {
      // (Through a shadow that may be null: the adjoint is dropped.)
      Value *Unguarded = SP;
      SP = guardedReadAddress(RB, Unguarded, LI->getType(), ShadowA);
      To = guardedWriteAddress(RB, Unguarded, LI->getType(), ShadowA);
    }
    if ((DeviceCode || Key.Parallel) && addAtomically(*LI, To, D, SP, ShadowA))
      return true;
    LoadInst *Old = RB.CreateAlignedLoad(LI->getType(), SP, ShadowA);
    tagMemoryClass(*Old, MemoryClass::Shadow);
    tagMemoryClass(*RB.CreateAlignedStore(sum(Old, D), To, ShadowA),
                   MemoryClass::Shadow);
    return true;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *V = SI->getValueOperand();
    Value *SP = ShadowAt(SI->getPointerOperand());
    if (!SP)
      return true;
    // The reverse of a pointer's shadow stored over bytes that may have
    // held a float's adjoint: those bytes get it back, for the reverse of
    // the float's loads and store before it (PointerShadowMarks.h).
    if (MarkedStores.contains(SI)) {
      if (!isa<Constant>(SP))
        unmarkPointerShadow(RB, SP,
                            Rev.getParent()->getDataLayout().getTypeStoreSize(
                                V->getType()),
                            Key.TapeLevel);
      return true;
    }
    Value *To = SP;
    bool Guarded = nullable(SI->getPointerOperand());
    if (FloatView.count(V)) {
      storeAdjointOfView(*SI, SP, Guarded);
      return true;
    }
    Value *IsNull = nullptr;
    const Align ShadowA = shadowAlign(Rev.getParent()->getDataLayout(),
                                      V->getType(), SI->getAlign());
    if (LoadInst *Base = recordedBase(SI->getPointerOperand())) {
      SP = guardRecorded(
          RB, SI->getPointerOperand(), SP, Popped.lookup(shadowOrNull(Base)),
          Rev.getParent()->getDataLayout().getTypeStoreSize(V->getType()),
          false, IsNull);
      To = SP;
    } else if (Guarded) {
      // (Through a shadow that may be null: no adjoint.)
      Value *Unguarded = SP;
      SP = guardedReadAddress(RB, Unguarded, V->getType(), ShadowA);
      To = guardedWriteAddress(RB, Unguarded, V->getType(), ShadowA);
    }
    LoadInst *Old = RB.CreateAlignedLoad(V->getType(), SP, ShadowA);
    tagMemoryClass(*Old, MemoryClass::Shadow);
    tagMemoryClass(*RB.CreateAlignedStore(Constant::getNullValue(V->getType()),
                                          To, ShadowA),
                   MemoryClass::Shadow);
    // (Memory without derivatives gives none back.)
    addAdjoint(V, IsNull ? RB.CreateSelect(IsNull,
                                           Constant::getNullValue(V->getType()),
                                           Old)
                         : static_cast<Value *>(Old));
    return true;
  }
  // (Numbers: no adjoints, and a shadow that may be the primal's table.)
  if (isa<MemIntrinsic>(I) && writesOnlyNumbers(I))
    return true;
  if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    Value *SD = ShadowAt(MT->getRawDest());
    if (!SD)
      return true;
    Value *SS = ShadowAt(MT->getRawSource());
    if (!SS) {
      // (Copied from memory without derivatives: what the copy overwrote
      // had its adjoints cleared. Not a shadow that is the primal's own
      // memory, where the bytes may be numbers.)
      Value *Len = mayWriteNumbers(*MT)
                       ? lengthUnlessPrimal(RB, Val(MT->getRawDest()), SD,
                                            Val(MT->getLength()))
                       : Val(MT->getLength());
      if (nullable(MT->getRawDest()))
        guardedShadowClear(RB, SD, Len);
      else
        RB.CreateMemSet(SD, RB.getInt8(0), Len,
                        shadowAlign(MT->getDestAlign()));
      return true;
    }
    return emitCopyAdjoint(*MT, SD, SS, Val(MT->getLength()));
  }
  if (auto *MS = dyn_cast<MemSetInst>(&I)) {
    Value *SD = ShadowAt(MS->getRawDest());
    if (!SD)
      return true;
    Value *Len = mayWriteNumbers(*MS)
                     ? lengthUnlessPrimal(RB, Val(MS->getRawDest()), SD,
                                          Val(MS->getLength()))
                     : Val(MS->getLength());
    if (nullable(MS->getRawDest()))
      guardedShadowClear(RB, SD, Len);
    else
      RB.CreateMemSet(SD, RB.getInt8(0), Len, shadowAlign(MS->getDestAlign()));
    return true;
  }
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    if (!isActiveFloat(EV))
      return true;
    Value *D = takeAdjoint(EV);
    Value *Agg = EV->getAggregateOperand();
    if (isActiveFloat(Agg))
      addAdjoint(Agg,
                 RB.CreateInsertValue(Constant::getNullValue(Agg->getType()), D,
                                      EV->getIndices()));
    return true;
  }
  if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    if (!isActiveFloat(IV))
      return true;
    Value *D = takeAdjoint(IV);
    Value *Elt = IV->getInsertedValueOperand();
    if (isActiveFloat(Elt))
      addAdjoint(Elt, RB.CreateExtractValue(D, IV->getIndices()));
    addAdjoint(IV->getAggregateOperand(),
               RB.CreateInsertValue(D, Constant::getNullValue(Elt->getType()),
                                    IV->getIndices()));
    return true;
  }
  if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    if (!isActiveFloat(EE))
      return true;
    Value *D = takeAdjoint(EE);
    Value *Vec = EE->getVectorOperand();
    addAdjoint(Vec,
               RB.CreateInsertElement(Constant::getNullValue(Vec->getType()), D,
                                      Val(EE->getIndexOperand())));
    return true;
  }
  if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    if (!isActiveFloat(IE))
      return true;
    Value *D = takeAdjoint(IE);
    Value *Idx = Val(IE->getOperand(2));
    addAdjoint(IE->getOperand(1), RB.CreateExtractElement(D, Idx));
    addAdjoint(
        IE->getOperand(0),
        RB.CreateInsertElement(
            D, Constant::getNullValue(IE->getOperand(1)->getType()), Idx));
    return true;
  }
  if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    if (!isActiveFloat(SV))
      return true;
    Value *D = takeAdjoint(SV);
    Value *Ops[2] = {SV->getOperand(0), SV->getOperand(1)};
    auto *InTy = cast<FixedVectorType>(Ops[0]->getType());
    unsigned N = InTy->getNumElements();
    Value *Acc[2] = {Constant::getNullValue(InTy),
                     Constant::getNullValue(InTy)};
    ArrayRef<int> Mask = SV->getShuffleMask();
    for (unsigned Out = 0; Out < Mask.size(); ++Out) {
      if (Mask[Out] < 0)
        continue;
      unsigned Which = unsigned(Mask[Out]) / N, Lane = unsigned(Mask[Out]) % N;
      Value *Cur = RB.CreateExtractElement(Acc[Which], Lane);
      Acc[Which] = RB.CreateInsertElement(
          Acc[Which], RB.CreateFAdd(Cur, RB.CreateExtractElement(D, Out)),
          Lane);
    }
    addAdjoint(Ops[0], Acc[0]);
    addAdjoint(Ops[1], Acc[1]);
    return true;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return true;
    if (NestedMarkEnds.contains(Call)) {
      unnestPointerShadowMarks(RB, Key.TapeLevel);
      return true;
    }
    if (reallocSites().count(Call)) {
      emitReallocAdjoint(*Call, Popped);
      return true;
    }
    if (AdjointCopies.contains(Call)) {
      emitAdjointCopyAdjoint(*Call, Popped);
      return true;
    }
    if (ShadowMallocs.contains(Call)) {
      // The shadow block dies at the reverse of its allocation.
      Value *S = Val(shadows().lookup(Call));
      if (classifyMemoryFunction(*Callee) ==
          MemoryFunctionKind::AllocationLike) {
        Deallocation D = deallocationOf(*Call, S, Val);
        RB.CreateCall(D.Callee, D.Args);
        return true;
      }
      FunctionCallee Free = Rev.getParent()->getOrInsertFunction(
          "free", FunctionType::get(RB.getVoidTy(), {RB.getPtrTy()}, false));
      if (shadowBlockAllocator(*Callee))
        Free = shadowBlockDeallocator(*Rev.getParent());
      else if (Callee->getName().starts_with("_Zn"))
        Free = Rev.getParent()->getOrInsertFunction(
            Callee->getName().starts_with("_Znw") ? "_ZdlPv" : "_ZdaPv",
            FunctionType::get(RB.getVoidTy(), {RB.getPtrTy()}, false));
      RB.CreateCall(Free, {S});
      return true;
    }
    if (Call->getIntrinsicID() == Intrinsic::modf ||
        Call->getIntrinsicID() == Intrinsic::sincos) {
      // modf: a(x) += a(frac); sincos: a(x) += a(sin) cos - a(cos) sin
      if (!isActiveFloat(Call))
        return true;
      Value *D = takeAdjoint(Call);
      Value *DFirst = RB.CreateExtractValue(D, 0);
      if (Call->getIntrinsicID() == Intrinsic::modf) {
        addAdjoint(Call->getArgOperand(0), DFirst);
        return true;
      }
      Value *R = Val(Call);
      Value *Sin = RB.CreateExtractValue(R, 0),
            *Cos = RB.CreateExtractValue(R, 1);
      Value *DSecond = RB.CreateExtractValue(D, 1);
      addAdjoint(Call->getArgOperand(0),
                 RB.CreateFSub(RB.CreateFMul(DFirst, Cos),
                               RB.CreateFMul(DSecond, Sin)));
      return true;
    }
    if (Call->getIntrinsicID() == Intrinsic::vector_reduce_fadd) {
      if (!isActiveFloat(Call))
        return true;
      Value *D = takeAdjoint(Call);
      addAdjoint(Call->getArgOperand(0), D);
      Value *Vec = Call->getArgOperand(1);
      auto *VT = cast<FixedVectorType>(Vec->getType());
      addAdjoint(Vec, RB.CreateVectorSplat(VT->getNumElements(), D));
      return true;
    }
    const MathRule *Rule = ruleFor(*Callee);
    if (!Rule || !isActiveFloat(Call))
      return true;
    Value *D = takeAdjoint(Call);
    if (auto It = Companions.find(Call); It != Companions.end()) {
      auto [C, Negate] = It->second;
      Value *V = C->comesBefore(Call) ? Popped.lookup(C) : Carried.lookup(C);
      if (isa<FPMathOperator>(Call))
        RB.setFastMathFlags(Call->getFastMathFlags());
      addAdjoint(Call->getArgOperand(0),
                 RB.CreateFMul(D, Negate ? RB.CreateFNeg(V) : V));
      RB.clearFastMathFlags();
      return true;
    }
    SmallVector<Value *, MaxMathArgs> Args;
    for (unsigned K = 0; K < Call->arg_size(); ++K) {
      Value *A = Call->getArgOperand(K);
      Value *V = isa<Constant>(A) ? A : Popped.lookup(A);
      Args.push_back(V ? V : PoisonValue::get(A->getType()));
    }
    Value *Result = (Rule->Uses & UsesResult)
                        ? Val(Call)
                        : PoisonValue::get(Call->getType());
    if (Call->getType()->isStructTy()) // llvm.frexp: the mantissa's adjoint
      D = RB.CreateExtractValue(D, 0);
    if (isa<FPMathOperator>(Call))
      RB.setFastMathFlags(Call->getFastMathFlags());
    for (unsigned K = 0; K < Rule->NumArgs && K < Call->arg_size(); ++K) {
      Value *A = Call->getArgOperand(K);
      if (!Rule->Partials[K] || !isActiveFloat(A))
        continue;
      addAdjoint(
          A, mathAdjoint(RB, *Rule, Rule->Partials[K](RB, Args, Result), D));
    }
    RB.clearFastMathFlags();
    return true;
  }
  return true;
}

} // namespace adcore
