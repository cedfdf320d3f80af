//===- AlignedBlocks.cpp - posix_memalign as aligned_alloc ----------------===//
//
// posix_memalign(&p, align, size) returns its block through a pointer
// argument. Before differentiation each call becomes what it does, in
// terms of an allocation function whose result is the block (POSIX):
//
//   if align is not a power of two multiple of sizeof(void *): EINVAL
//   else if (b = aligned_alloc(align, size)) == NULL:         ENOMEM
//   else: p = b, 0
//
// The block then gets its shadow as any aligned_alloc block does
// (MemoryFunctions.h), and the store into p stores that shadow through the
// shadow of &p, in both modes.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "PrimalRewrites.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {
namespace {

// (Linux's values of errno.h's codes.)
constexpr int ENOMEMCode = 12;
constexpr int EINVALCode = 22;

bool isPosixMemalign(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration() || F->getName() != "posix_memalign")
    return false;
  FunctionType *FT = F->getFunctionType();
  return !FT->isVarArg() && FT->getNumParams() == 3 &&
         FT->getParamType(0)->isPointerTy() &&
         FT->getParamType(1)->isIntegerTy() &&
         FT->getParamType(2) == FT->getParamType(1) &&
         FT->getReturnType()->isIntegerTy();
}

bool rewritePosixMemalign(CallInst &Call) {
  if (!isPosixMemalign(Call))
    return false;
  Module &M = *Call.getModule();
  Value *Out = Call.getArgOperand(0), *Align = Call.getArgOperand(1),
        *Size = Call.getArgOperand(2);
  Type *SizeTy = Align->getType();
  auto *RetTy = cast<IntegerType>(Call.getType());
  BasicBlock *Head = Call.getParent();
  BasicBlock *Join = Head->splitBasicBlock(Call.getIterator(), "memalign.join");
  Head->getTerminator()->eraseFromParent();
  LLVMContext &C = M.getContext();
  BasicBlock *Alloc =
      BasicBlock::Create(C, "memalign.alloc", Head->getParent(), Join);
  BasicBlock *Store =
      BasicBlock::Create(C, "memalign.store", Head->getParent(), Join);

  // A power of two, and a multiple of the size of a pointer.
  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  uint64_t PtrBytes = M.getDataLayout().getPointerSize();
  Value *Pow2 = B.CreateICmpEQ(
      B.CreateAnd(Align, B.CreateSub(Align, ConstantInt::get(SizeTy, 1))),
      ConstantInt::get(SizeTy, 0));
  Value *Large = B.CreateICmpUGE(Align, ConstantInt::get(SizeTy, PtrBytes));
  B.CreateCondBr(B.CreateAnd(Pow2, Large), Alloc, Join);

  B.SetInsertPoint(Alloc);
  FunctionCallee AlignedAlloc = M.getOrInsertFunction(
      "aligned_alloc", FunctionType::get(B.getPtrTy(), {SizeTy, SizeTy}, false));
  CallInst *Block = B.CreateCall(AlignedAlloc, {Align, Size}, "memalign");
  B.CreateCondBr(B.CreateIsNull(Block), Join, Store);

  B.SetInsertPoint(Store);
  B.CreateStore(Block, Out);
  B.CreateBr(Join);

  B.SetInsertPoint(Join, Join->begin());
  PHINode *Result = B.CreatePHI(RetTy, 3, "memalign.result");
  Result->addIncoming(ConstantInt::get(RetTy, EINVALCode), Head);
  Result->addIncoming(ConstantInt::get(RetTy, ENOMEMCode), Alloc);
  Result->addIncoming(ConstantInt::get(RetTy, 0), Store);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return true;
}

} // namespace

bool rewritePosixMemaligns(Function &F) {
  return rewriteEach<CallInst>(F, rewritePosixMemalign);
}

} // namespace adcore
