//===- LibraryPointers.cpp - library functions called through pointers ---===//
//
// A call through a function pointer is differentiated by comparing the
// pointer with each function of the module it may point to and calling
// that function's derivative (emitIndirectCall). A table of libm functions
// (`double (*table[])(double) = {sin, cos, exp}`), or an allocator kept in
// a struct (`{.alloc = malloc, .release = free}`), holds addresses of
// declarations, which have no body to differentiate but a rule. Each such
// address becomes the address of an internal wrapper that calls the
// function: the wrapper has a body, the call in it has the rule (or is the
// allocation whose block gets a shadow), and the program calls the same
// function as before.
//
//===----------------------------------------------------------------------===//

#include "prepare/Prepare.h"

#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"
#include "support/PointerTargets.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

namespace {

/// Whether \p U uses its function other than as the callee of a call.
bool takesAddress(const Use &U) {
  auto *Call = dyn_cast<CallBase>(U.getUser());
  return !Call || !Call->isCallee(&U);
}

Function *wrapperOf(Function &F) {
  Module &M = *F.getParent();
  std::string Name = (LibraryPointerPrefix + F.getName()).str();
  if (Function *W = M.getFunction(Name))
    return W;
  Function *W = Function::Create(F.getFunctionType(),
                                 GlobalValue::InternalLinkage, Name, M);
  W->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", W));
  SmallVector<Value *, 2> Args;
  for (Argument &A : W->args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&F, Args);
  Call->setAttributes(F.getAttributes());
  if (Call->getType()->isVoidTy())
    B.CreateRetVoid(); // (free)
  else
    B.CreateRet(Call);
  return W;
}

/// The C library's allocation and deallocation functions (not adcc's tape
/// functions, nor a program's registered allocators, which have bodies).
bool isLibraryMemoryFunction(const Function &F) {
  switch (classifyMemoryFunction(F)) {
  case MemoryFunctionKind::Malloc:
  case MemoryFunctionKind::Calloc:
  case MemoryFunctionKind::Realloc:
  case MemoryFunctionKind::AlignedAlloc:
  case MemoryFunctionKind::Free:
    return true;
  default:
    return false;
  }
}

} // namespace

bool wrapLibraryFunctionPointers(Module &M) {
  SmallVector<Function *, 4> Taken;
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() &&
        (findMathRule(F) || isLibraryMemoryFunction(F)) &&
        any_of(F.uses(), takesAddress))
      Taken.push_back(&F);
  for (Function *F : Taken) {
    Function *W = wrapperOf(*F);
    F->replaceUsesWithIf(W, [&](Use &U) {
      return takesAddress(U) &&
             !(isa<Instruction>(U.getUser()) &&
               cast<Instruction>(U.getUser())->getFunction() == W);
    });
  }
  return !Taken.empty();
}

} // namespace adcore
