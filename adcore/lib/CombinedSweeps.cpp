//===- CombinedSweeps.cpp - Augmented and reverse sweep in one frame ------===//
//
// A combined gradient (`__enzyme_autodiff`, ADCC_REVERSE) runs the
// augmented sweep and then its reverse sweep, back to back. Both are called
// from one function made for the pair, `gradient_<f>`, where they are
// inlined (each has that one caller). The values the augmented sweep
// records once, at its return (arguments, addresses, values computed
// outside loops: the end records), are then read back by the code that
// follows in the same frame, and need not go through the thread's tape:
// their push and pop become one stack slot, which SROA turns into
// registers. The code between the two runs whatever else the sweeps record
// and reads it all back, so the pop always returns what the push did.
//
// The push and the pop are tagged with EndRecordsMetadata, naming their
// augmented sweep; they are left as calls (not expanded into the inline
// fast path) in sweeps that such a function calls, so that they can be
// found here. A pair that is not inlined keeps the runtime's calls.
//
//===----------------------------------------------------------------------===//

#include "CallSites.h"
#include "adcore/ADPass.h"
#include "adcore/Synthesis.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {

Function *SynthesisContext::getOrCreateCombined(Function &Aug, Function &Rev) {
  Function *&W = CombinedOf[&Aug];
  if (W)
    return W;
  SmallVector<Type *, 16> Params(Aug.getFunctionType()->params());
  append_range(Params, Rev.getFunctionType()->params());
  auto *FT = FunctionType::get(Rev.getReturnType(), Params, false);
  StringRef Name = Aug.getName();
  Name.consume_front("augmented_");
  W = Function::Create(FT, GlobalValue::InternalLinkage, "gradient_" + Name, M);
  LLVMContext &C = M.getContext();
  W->setAttributes(
      AttributeList::get(C, AttributeList::FunctionIndex,
                         AttrBuilder(C, Aug.getAttributes().getFnAttrs())));
  IRBuilder<> B(BasicBlock::Create(C, "", W));
  SmallVector<Value *, 16> AugArgs, RevArgs;
  for (Argument &A : W->args())
    (A.getArgNo() < Aug.arg_size() ? AugArgs : RevArgs).push_back(&A);
  B.CreateCall(&Aug, AugArgs);
  CallInst *Adjoints = B.CreateCall(&Rev, RevArgs);
  if (Adjoints->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Adjoints);
  noteCombined(*W, Aug, Rev);
  CombinedFunctions.push_back(W);
  return W;
}

namespace {

/// The one call in \p F tagged as \p Tag's end-record push or pop (\p
/// Callee), or null when there is none or several.
CallInst *taggedCall(Function &F, MDNode *Tag, StringRef Callee) {
  CallInst *Found = nullptr;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call || Call->getMetadata(EndRecordsMetadata) != Tag)
      continue;
    Function *Fn = Call->getCalledFunction();
    if (!Fn || Fn->getName() != Callee)
      continue;
    if (Found)
      return nullptr;
    Found = Call;
  }
  return Found;
}

/// Puts the end records of \p Aug, inlined into \p Caller together with
/// its reverse sweep, in a stack slot of \p Caller.
bool keepEndRecordsInFrame(Function &Caller, Function &Aug) {
  MDNode *Tag = MDNode::get(Aug.getContext(), ValueAsMetadata::get(&Aug));
  CallInst *Push = taggedCall(Caller, Tag, "adcc_tape_push");
  CallInst *Pop = taggedCall(Caller, Tag, "adcc_tape_pop");
  if (!Push || !Pop || Push->getArgOperand(1) != Pop->getArgOperand(1) ||
      !isa<ConstantInt>(Push->getArgOperand(1)))
    return false;
  DominatorTree DT(Caller);
  if (!DT.dominates(Push, Pop))
    return false;
  IRBuilder<> B(&*Caller.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot =
      B.CreateAlloca(B.getInt8Ty(), Push->getArgOperand(1), "end.records");
  Slot->setAlignment(
      Align(cast<ConstantInt>(Push->getArgOperand(2))->getZExtValue()));
  Push->replaceAllUsesWith(Slot);
  Pop->replaceAllUsesWith(Slot);
  Push->eraseFromParent();
  Pop->eraseFromParent();
  return true;
}

} // namespace

bool callsCombinedAlone(const CombinedSweeps &S) {
  auto OnlyFromCaller = [&](Function *F) {
    return !F->isDeclaration() && F->hasOneUse() &&
           all_of(F->users(), [&](User *U) {
             auto *Call = dyn_cast<CallInst>(U);
             return Call && Call->getCalledFunction() == F &&
                    Call->getFunction() == S.Caller;
           });
  };
  return OnlyFromCaller(S.Aug) && OnlyFromCaller(S.Rev);
}

void inlineCombinedSweeps(const SynthesisContext &Ctx,
                          SmallPtrSetImpl<Function *> &Touched) {
  for (const CombinedSweeps &S : Ctx.combined()) {
    if (!callsCombinedAlone(S))
      continue;
    auto *AugCall = cast<CallInst>(*S.Aug->user_begin());
    auto *RevCall = cast<CallInst>(*S.Rev->user_begin());
    InlineFunctionInfo AugInfo, RevInfo;
    if (!InlineFunction(*AugCall, AugInfo).isSuccess())
      continue;
    Touched.insert(S.Caller);
    if (InlineFunction(*RevCall, RevInfo).isSuccess())
      keepEndRecordsInFrame(*S.Caller, *S.Aug);
  }
}

} // namespace adcore
