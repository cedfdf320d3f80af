//===- ForwardIndirectCalls.cpp - Calls through function pointers --------===//
//
//   (*fp)(x)  ->  if (fp == f1) f1'(x, t) else if (fp == f2) f2'(x, t) ...
//                 else adcc_unknown_derivative(fp)
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"
#include "support/CallSites.h"
#include "support/DerivativeStops.h"
#include "support/OtherFileTargets.h"
#include "support/PointerTargets.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

/// A call through a function pointer (or a virtual call) dispatches at run
/// time on the pointer's value to the derivative of each function of this
/// module that it may point to: every defined, address-taken function of
/// the call's type. Any other target reaches adcc_unknown_derivative.
bool ForwardEmitter::emitIndirectCall(CallBase &Call) {
  Module &M = *Call.getModule();
  SmallVector<Function *, 8> Targets =
      possibleCallTargets(M, Call.getFunctionType());
  // (Only functions of other files, whose derivatives are made at link
  // time: -O0 code that passes one to a helper, `via(sq_e, x)`.)
  if (Targets.empty())
    Targets = possibleOtherFileTargets(
        M, Call.getFunctionType(),
        [&](const Function &F) { return Ctx.defers(F); });
  // (A function of another file of its type, declared here: the call may
  // reach it, and it has no derivative.)
  if (Targets.empty() &&
      !possibleOtherFileTargets(M, Call.getFunctionType(), [](const Function &) {
         return true;
       }).empty())
    return unsupported(Call, "no function defined in this translation unit "
                             "can be the target of this call through a "
                             "function pointer");
  // (None at all: the program stops where the call runs, and the call,
  // left as it was, has no tangent. A null callback that is tested
  // first, liblbfgs's proc_progress, never does.)
  if (Targets.empty()) {
    emitUntargetedCallStop(Call, Ctx.placeOf(Call, *Key.Primal),
                           Ctx.describe(*Key.Primal));
    return true;
  }

  DerivativeKey K = calleeKey(Call, nullptr);
  // (The recording sweep dispatches the same way: ForwardSplit.cpp.)
  if (Key.Split)
    SplitCallees[cast<Instruction>(PrimalOf.lookup(&Call))] = K;
  SmallVector<Function *, 8> Derivatives;
  for (Function *F : Targets) {
    K.Primal = F;
    Function *D = Ctx.getOrCreate(K);
    if (!D)
      return false;
    Derivatives.push_back(D);
  }
  // (Before the call: at width > 1 the lanes of the tangents are taken
  // out, which must precede the blocks made below.)
  B.SetInsertPoint(&Call);
  SmallVector<Value *, 16> Args = calleeArgs(Call);
  Value *Target = Call.getCalledOperand();

  // Head: [code before the call] -> compare chain -> cases -> Tail. An
  // invoke (a call that may throw) becomes an invoke per target, each
  // unwinding where it did, meeting in Tail before the normal destination.
  BasicBlock *Head = Call.getParent();
  LLVMContext &C = M.getContext();
  Function *Fn = Head->getParent();
  auto *Invoke = dyn_cast<InvokeInst>(&Call);
  BasicBlock *Unwind = Invoke ? Invoke->getUnwindDest() : nullptr;
  BasicBlock *Tail;
  if (Invoke) {
    Tail = BasicBlock::Create(C, Head->getName() + ".indirect.join", Fn,
                              Invoke->getNormalDest());
    BranchInst::Create(Invoke->getNormalDest(), Tail);
    Invoke->getNormalDest()->replacePhiUsesWith(Head, Tail);
    Invoke->removeFromParent();
  } else {
    Tail = Head->splitBasicBlock(Call.getIterator(),
                                 Head->getName() + ".indirect.join");
    Head->getTerminator()->eraseFromParent();
  }
  DebugLoc Loc = Call.getDebugLoc();
  Type *ResultTy = Derivatives.front()->getReturnType();
  B.SetInsertPoint(Tail, Tail->begin());
  PHINode *Result = ResultTy->isVoidTy()
                        ? nullptr
                        : B.CreatePHI(ResultTy, Targets.size(), "indirect");
  BasicBlock *Test = Head;
  for (unsigned I = 0; I < Targets.size(); ++I) {
    BasicBlock *Case = BasicBlock::Create(C, "indirect.case", Fn, Tail);
    BasicBlock *Next = BasicBlock::Create(C, "indirect.next", Fn, Tail);
    B.SetInsertPoint(Test);
    B.SetCurrentDebugLocation(Loc);
    B.CreateCondBr(pointsToTarget(B, Target, Targets[I]), Case, Next);
    B.SetInsertPoint(Case);
    CallBase *Sub = B.CreateCall(Derivatives[I], Args);
    if (Invoke) {
      Sub->eraseFromParent();
      Sub = B.CreateInvoke(Derivatives[I], Tail, Unwind, Args);
      for (PHINode &Phi : Unwind->phis())
        Phi.addIncoming(Phi.getIncomingValueForBlock(Head), Case);
    }
    if (Result)
      Result->addIncoming(Sub, Case);
    if (!Invoke)
      B.CreateBr(Tail);
    Test = Next;
  }
  B.SetInsertPoint(Test);
  FunctionCallee Unknown = M.getOrInsertFunction(
      "adcc_unknown_derivative", Type::getVoidTy(C), PointerType::get(C, 0));
  B.CreateCall(Unknown, {Target});
  B.CreateUnreachable();

  if (Invoke) {
    for (PHINode &Phi : Unwind->phis())
      Phi.removeIncomingValue(Head, /*DeletePHIIfEmpty=*/false);
    // The invoke is out of its block already: replaced and deleted now.
    B.SetInsertPoint(Tail->getTerminator());
    B.SetCurrentDebugLocation(Loc);
    replaceCall(Call, Result, K);
    Dead.pop_back();
    PrimalOf.erase(Invoke);
    ActiveClones.erase(Invoke);
    Graveyard.bury(Invoke);
    return true;
  }
  B.SetInsertPoint(Call.getNextNode());
  B.SetCurrentDebugLocation(Loc);
  replaceCall(Call, Result, K);
  return true;
}

} // namespace adcore
