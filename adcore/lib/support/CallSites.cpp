//===- CallSites.cpp - Replacing calls and invokes -----------------------===//

#include "CallSites.h"
#include "DerivativeStops.h"
#include "IRMarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {

CallBase *emitReplacementCall(IRBuilder<> &B, CallBase &Old,
                              FunctionCallee Callee, ArrayRef<Value *> Args,
                              const Twine &Name) {
  auto *Invoke = dyn_cast<InvokeInst>(&Old);
  if (!Invoke) {
    // At the builder's position: the caller put it near the old call,
    // after the code computing the arguments.
    B.SetCurrentDebugLocation(Old.getDebugLoc());
    return B.CreateCall(Callee, Args, Name);
  }
  // The result is used on the normal path: give that edge a block of its
  // own so the code after the call dominates every use, phis included.
  // (Split by hand: llvm::SplitEdge crashed on such an edge in a forward
  // derivative of Eigen code built with -O1 -fno-inline.)
  BasicBlock *From = Invoke->getParent(), *To = Invoke->getNormalDest();
  BasicBlock *Normal = BasicBlock::Create(
      From->getContext(), To->getName() + ".split", From->getParent(), To);
  BranchInst::Create(To, Normal)->setDebugLoc(Old.getDebugLoc());
  Invoke->setNormalDest(Normal);
  To->replacePhiUsesWith(From, Normal);
  B.SetInsertPoint(Invoke);
  B.SetCurrentDebugLocation(Old.getDebugLoc());
  InvokeInst *New =
      B.CreateInvoke(Callee, Normal, Invoke->getUnwindDest(), Args, Name);
  B.SetInsertPoint(Normal->getFirstNonPHIIt());
  return New;
}

void prepareDerivativeFunction(const Function &Primal, Function &D) {
  AttrBuilder Attrs(D.getContext(), Primal.getAttributes().getFnAttrs());
  for (Attribute::AttrKind Kind :
       {Attribute::OptimizeNone, Attribute::NoInline, Attribute::Memory,
        Attribute::NoFree, Attribute::WillReturn, Attribute::NoSync})
    Attrs.removeAttribute(Kind);
  D.setAttributes(
      AttributeList::get(D.getContext(), AttributeList::FunctionIndex, Attrs));
  D.setLinkage(GlobalValue::InternalLinkage);
  // Calls to derivatives use the C convention, whatever the optimizer made
  // of the primal's (fastcc for internal functions).
  D.setCallingConv(CallingConv::C);
  D.setVisibility(GlobalValue::DefaultVisibility);
  D.setDSOLocal(true);
  // (Paths of the primal without a derivative stop there at run time.)
  emitDerivativeStops(D);
}

void prepareReverseSweep(const Function &Primal, Function &Rev) {
  static constexpr Attribute::AttrKind CompileOptions[] = {
      Attribute::UWTable,
      Attribute::StackProtect,
      Attribute::StackProtectStrong,
      Attribute::StackProtectReq,
      Attribute::OptimizeForSize,
      Attribute::MinSize,
      Attribute::NoRedZone,
      Attribute::NoImplicitFloat,
      Attribute::NullPointerIsValid,
      Attribute::SanitizeAddress,
      Attribute::SanitizeThread,
      Attribute::SanitizeMemory,
      Attribute::SanitizeHWAddress,
      Attribute::ShadowCallStack,
      Attribute::SpeculativeLoadHardening};
  AttrBuilder Attrs(Rev.getContext());
  for (const Attribute &A : Primal.getAttributes().getFnAttrs()) {
    if (A.isStringAttribute()) {
      // (What AMDGPU's attributor found the primal does not use, such as
      // "amdgpu-no-workitem-id-y", may not hold of its sweep.)
      StringRef Kind = A.getKindAsString();
      if (Kind != "alloc-family" && !Kind.starts_with("amdgpu-no-"))
        Attrs.addAttribute(A);
    } else if ((A.isEnumAttribute() || A.isIntAttribute()) &&
               is_contained(CompileOptions, A.getKindAsEnum())) {
      Attrs.addAttribute(A);
    }
  }
  Rev.addFnAttrs(Attrs);
}

void copyPointerFacts(const Function &From, unsigned FromArg, Function &To,
                      unsigned ToArg) {
  for (Attribute::AttrKind Kind :
       {Attribute::NoAlias, Attribute::NonNull, Attribute::Alignment,
        Attribute::Dereferenceable})
    if (From.getArg(FromArg)->hasAttribute(Kind))
      To.addParamAttr(ToArg, From.getAttributes().getParamAttr(FromArg, Kind));
}

StringRef constantString(Constant *C) {
  auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return {};
  if (auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer()))
    if (Data->isCString())
      return Data->getAsCString();
  return {};
}

SmallVector<Function *, 8> possibleCallTargets(Module &M, FunctionType *FT) {
  SmallVector<Function *, 8> Targets;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.isIntrinsic() && F.getFunctionType() == FT &&
        F.hasAddressTaken() && !F.hasFnAttribute(UsesTapeAttribute) &&
        !F.hasFnAttribute(NotCalledThroughPointers))
      Targets.push_back(&F);
  return Targets;
}

void positionAfterCall(IRBuilder<> &B, CallBase &Call) {
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  auto *Invoke = dyn_cast<InvokeInst>(&Call);
  if (!Invoke) {
    B.SetInsertPoint(Call.getNextNode());
    return;
  }
  BasicBlock *Normal = SplitEdge(Invoke->getParent(), Invoke->getNormalDest());
  B.SetInsertPoint(Normal->getFirstNonPHIIt());
}

bool isExceptionObject(const Value *Obj) {
  auto *Call = dyn_cast<CallBase>(Obj);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && F->getName() == "__cxa_allocate_exception";
}

std::string missingBodyMessage(const Function &Callee, StringRef Registration) {
  StringRef Name = Callee.getName();
  // Complex multiplication and division call the compiler runtime
  // (__muldc3, __divsc3, ...) for their infinity and NaN recovery.
  bool Complex = (Name.starts_with("__mul") || Name.starts_with("__div")) &&
                 Name.size() == 8 && Name.ends_with("c3");
  if (Complex)
    return ("complex " +
            Twine(Name.starts_with("__mul") ? "multiplication" : "division") +
            " calls the runtime function '" + Name +
            "', which has no derivative rule; compile with "
            "-fcx-limited-range (or -ffast-math) to compute it inline")
        .str();
  return ("the external function '" + Name +
          "' has no body and no derivative rule; define it in this "
          "translation unit, register a custom derivative (" +
          Registration + Name + ") or mark it inactive")
      .str();
}

void inlineHelperCalls(Module &M, StringRef Name) {
  Function *F = M.getFunction(Name);
  if (!F)
    return;
  SmallVector<CallBase *, 16> Calls;
  for (User *U : F->users())
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledFunction() == F)
      Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    InlineFunctionInfo IFI;
    InlineFunction(*Call, IFI);
  }
  if (F->use_empty())
    F->eraseFromParent();
}

} // namespace adcore
