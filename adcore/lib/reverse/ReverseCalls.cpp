//===- ReverseCalls.cpp - Indirect calls and registered gradients --------===//
//
// The reverse-mode treatment of calls that are not plain calls of
// functions of the module: calls through function pointers (a dispatch to
// direct calls, before the augmented sweep is built) and calls of functions
// with a registered gradient (__enzyme_register_gradient_*).
//
//===----------------------------------------------------------------------===//

#include "../CallSites.h"
#include "ReverseEmitter.h"

#include "adcore/CustomRules.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// A call through a function pointer (or a virtual call) becomes a run-time
/// dispatch on the pointer's value to direct calls of every defined,
/// address-taken function of the call's type (anything else reaches
/// adcc_unknown_derivative). The direct calls are then differentiated like
/// any call, and the path records of the new blocks tell the reverse sweep
/// which one ran.
bool ReverseEmitter::dispatchIndirectCalls() {
  SmallVector<CallBase *, 4> Indirect;
  for (BasicBlock &BB : Aug)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (!Call->getCalledFunction() && !Call->isInlineAsm() &&
            (Active.contains(Call) || any_of(Call->args(), [&](const Use &U) {
               return Active.contains(U.get());
             })))
          Indirect.push_back(Call);
  Module &M = *Aug.getParent();
  LLVMContext &C = M.getContext();
  for (CallBase *Call : Indirect) {
    SmallVector<Function *, 8> Targets =
        possibleCallTargets(M, Call->getFunctionType());
    if (Targets.empty())
      return unsupported(*Call, "no function defined in this translation "
                                "unit can be the target of this call through "
                                "a function pointer");
    Value *Target = Call->getCalledOperand();
    BasicBlock *Head = Call->getParent();
    // An invoke (a call that may throw) becomes an invoke per target, each
    // unwinding where it did; they meet in a block of their own before the
    // normal destination.
    auto *Invoke = dyn_cast<InvokeInst>(Call);
    BasicBlock *Unwind = Invoke ? Invoke->getUnwindDest() : nullptr;
    BasicBlock *Tail = Invoke
                           ? BasicBlock::Create(C, Head->getName() + ".join",
                                                &Aug, Invoke->getNormalDest())
                           : Head->splitBasicBlock(Call->getIterator(),
                                                   Head->getName() + ".join");
    if (Invoke) {
      BranchInst::Create(Invoke->getNormalDest(), Tail);
      Invoke->getNormalDest()->replacePhiUsesWith(Head, Tail);
      Invoke->removeFromParent();
    } else {
      Head->getTerminator()->eraseFromParent();
    }
    IRBuilder<> B(Tail, Tail->begin());
    bool HasResult = !Call->getType()->isVoidTy();
    PHINode *Result =
        HasResult ? B.CreatePHI(Call->getType(), Targets.size()) : nullptr;
    BasicBlock *Test = Head;
    SmallVector<Value *, 8> Args(Call->args());
    for (Function *F : Targets) {
      BasicBlock *Case = BasicBlock::Create(C, "dispatch.case", &Aug, Tail);
      BasicBlock *Next = BasicBlock::Create(C, "dispatch.next", &Aug, Tail);
      B.SetInsertPoint(Test);
      B.SetCurrentDebugLocation(Call->getDebugLoc());
      B.CreateCondBr(B.CreateICmpEQ(Target, F), Case, Next);
      B.SetInsertPoint(Case);
      CallBase *Direct =
          Invoke
              ? static_cast<CallBase *>(B.CreateInvoke(F, Tail, Unwind, Args))
              : B.CreateCall(F, Args);
      if (Invoke)
        for (PHINode &Phi : Unwind->phis())
          Phi.addIncoming(Phi.getIncomingValueForBlock(Head), Case);
      // The direct call stands for the primal call: same activity.
      PrimalOf[Direct] = PrimalOf.lookup(Call);
      if (Active.contains(Call))
        Active.insert(Direct);
      if (Result)
        Result->addIncoming(Direct, Case);
      if (!Invoke)
        B.CreateBr(Tail);
      Test = Next;
    }
    B.SetInsertPoint(Test);
    B.CreateCall(M.getOrInsertFunction("adcc_unknown_derivative",
                                       Type::getVoidTy(C),
                                       PointerType::get(C, 0)),
                 {Target});
    B.CreateUnreachable();
    if (Result) {
      Call->replaceAllUsesWith(Result);
      if (Active.contains(Call))
        Active.insert(Result);
    }
    if (Invoke)
      for (PHINode &Phi : Unwind->phis())
        Phi.removeIncomingValue(Head, /*DeletePHIIfEmpty=*/false);
    PrimalOf.erase(Call);
    Active.erase(Call);
    if (Invoke)
      Invoke->deleteValue(); // (already out of its block)
    else
      Call->eraseFromParent();
  }
  return true;
}

/// A registered gradient (__enzyme_register_gradient_f = {f, aug, rev}):
/// aug takes f's parameters, each pointer followed by its shadow, and
/// returns f's result, or {result, void *tape}, or (for a void f) a tape
/// pointer; rev takes the same parameters, then the adjoint of a
/// floating-point result, then the tape, and returns the adjoints of f's
/// floating-point parameters (one value, or a struct of them in order).
bool ReverseEmitter::augmentCustomGradient(CallBase &Call,
                                           const CustomGradient &G) {
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (U.get()->getType()->isPointerTy())
      Args.push_back(shadowOrZero(U.get()));
  }
  Type *RetTy = Call.getType();
  Type *Ptr = AB.getPtrTy();
  FunctionType *AT = G.Augmented->getFunctionType();
  bool ArgsMatch = AT->getNumParams() == Args.size();
  for (unsigned I = 0; ArgsMatch && I < Args.size(); ++I)
    ArgsMatch = AT->getParamType(I) == Args[I]->getType();
  Type *ART = AT->getReturnType();
  bool WithTape =
      RetTy->isVoidTy() ? ART == Ptr : ART == StructType::get(RetTy, Ptr);
  if (!ArgsMatch || (!WithTape && ART != RetTy))
    return unsupported(Call, "the registered augmented function '" +
                                 G.Augmented->getName() +
                                 "' does not have the expected signature "
                                 "(each pointer parameter followed by its "
                                 "shadow; returning the result, or {result, "
                                 "void *tape})");
  CallBase *New = emitReplacementCall(AB, Call, G.Augmented, Args);
  CustomSite Site;
  Site.Rule = &G;
  Value *Primal = nullptr;
  if (WithTape) {
    Site.Tape = RetTy->isVoidTy() ? New : AB.CreateExtractValue(New, 1);
    if (!RetTy->isVoidTy())
      Primal = AB.CreateExtractValue(New, 0);
  } else if (!RetTy->isVoidTy()) {
    Primal = New;
  }
  if (Primal) {
    Call.replaceAllUsesWith(Primal);
    if (Active.contains(&Call) && RetTy->isFPOrFPVectorTy())
      Active.insert(Primal);
  }
  Site.Result = Primal;
  Site.RevArgs.assign(Args.begin(), Args.end());
  SmallVector<Value *, 16> Keep(Args);
  if (Site.Tape)
    Keep.push_back(Site.Tape);
  record(*New, Keep);
  CustomSites[New] = Site;
  Dead.push_back(&Call);
  return true;
}

bool ReverseEmitter::emitCustomAdjoint(CallBase &AugCall,
                                       DenseMap<Value *, Value *> &Popped) {
  CustomSite &Site = CustomSites[&AugCall];
  Function &RevFn = *Site.Rule->Reverse;
  SmallVector<Value *, 16> Args;
  for (Value *V : Site.RevArgs)
    Args.push_back(revValue(V, Popped));
  Type *RetTy = Site.Result ? Site.Result->getType() : nullptr;
  if (RetTy && RetTy->isFPOrFPVectorTy())
    Args.push_back(isActiveFloat(Site.Result) ? takeAdjoint(Site.Result)
                                              : Constant::getNullValue(RetTy));
  if (Site.Tape)
    Args.push_back(revValue(Site.Tape, Popped));
  // The floating-point parameters, whose adjoints come back in order.
  SmallVector<Value *, 4> FloatArgs;
  for (Value *V : Site.RevArgs)
    if (V->getType()->isFPOrFPVectorTy())
      FloatArgs.push_back(V);
  FunctionType *RT = RevFn.getFunctionType();
  bool Match = RT->getNumParams() == Args.size();
  for (unsigned I = 0; Match && I < Args.size(); ++I)
    Match = RT->getParamType(I) == Args[I]->getType();
  Type *Want = FloatArgs.empty()       ? RB.getVoidTy()
               : FloatArgs.size() == 1 ? FloatArgs[0]->getType()
                                       : nullptr;
  if (!Want) {
    SmallVector<Type *, 4> Elts;
    for (Value *V : FloatArgs)
      Elts.push_back(V->getType());
    Want = StructType::get(Rev.getContext(), Elts);
  }
  if (!Match || RT->getReturnType() != Want)
    return unsupported(AugCall,
                       "the registered reverse function '" + RevFn.getName() +
                           "' does not have the expected signature (the "
                           "augmented function's parameters, then the "
                           "adjoint of a floating-point result, then the "
                           "tape; returning the adjoints of the "
                           "floating-point parameters)");
  Value *Adjoints = RB.CreateCall(&RevFn, Args);
  for (unsigned I = 0; I < FloatArgs.size(); ++I)
    addAdjoint(FloatArgs[I], FloatArgs.size() == 1
                                 ? Adjoints
                                 : RB.CreateExtractValue(Adjoints, I));
  return true;
}

/// Intrinsics with derivative inputs but no rule would silently get a zero
/// derivative: they are errors (memory intrinsics and reductions have
/// rules of their own; the rest carries no derivative).
} // namespace adcore
