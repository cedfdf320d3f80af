//===- RuleWrappers.cpp - Rules made as functions of a module ------------===//

#include "RuleWrappers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

Function *makeRuleWrapper(Module &M, StringRef Name, FunctionType *FT) {
  if (Function *Old = M.getFunction(Name))
    return Old;
  Function *W = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  W->addFnAttr(Attribute::NoUnwind);
  return W;
}

FunctionCallee runtimeFunction(Module &M, StringRef Name, Type *Ret,
                               ArrayRef<Value *> Args) {
  SmallVector<Type *, 16> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Types, false));
}

} // namespace adcore
