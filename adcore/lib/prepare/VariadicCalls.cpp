//===- VariadicCalls.cpp - Variadic functions called without extras ------===//
//
// A function declared with `...` whose body never reads its variable
// arguments (no va_start), called with only its fixed arguments, is an
// ordinary function for its derivative. libstdc++'s std::visit names its
// variant through such a lambda (`[](_V0 &__v, ...) -> _V0 & { return __v;
// }(__variants...)`), which stays a call at -O0. Each such call in a
// function to differentiate calls an internal copy of the function
// declared without `...` instead, which the engine differentiates like any
// other; calls that pass variable arguments, and functions that read
// them, stay as they were (and are refused where they carry derivatives).
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "PrimalRewrites.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p F reads its variable arguments (va_start or va_copy).
bool readsVariableArguments(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::vastart ||
            II->getIntrinsicID() == Intrinsic::vacopy)
          return true;
  return false;
}

/// The internal copy of the variadic \p F declared without `...`.
Function *fixedCopy(Function &F) {
  Module &M = *F.getParent();
  std::string Name = (F.getName() + ".fixed").str();
  if (Function *Copy = M.getFunction(Name))
    return Copy;
  FunctionType *FT = F.getFunctionType();
  auto *Fixed =
      FunctionType::get(FT->getReturnType(), FT->params(), /*isVarArg=*/false);
  Function *Copy =
      Function::Create(Fixed, GlobalValue::InternalLinkage, Name, M);
  ValueToValueMapTy VMap;
  auto To = Copy->arg_begin();
  for (Argument &A : F.args()) {
    To->setName(A.getName());
    VMap[&A] = &*To++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  return Copy;
}

bool rewriteVariadicCall(CallBase &Call) {
  Function *F = Call.getCalledFunction();
  if (!F || !F->isVarArg() || F->isDeclaration() || F->isInterposable() ||
      Call.arg_size() != F->arg_size() || Call.isMustTailCall() ||
      readsVariableArguments(*F))
    return false;
  Call.setCalledFunction(fixedCopy(*F));
  return true;
}

} // namespace

bool rewriteVariadicCalls(Function &F) {
  return rewriteEach<CallBase>(F, rewriteVariadicCall);
}

} // namespace adcore
