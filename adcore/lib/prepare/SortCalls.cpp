//===- SortCalls.cpp - qsort and bsearch in terms the engine follows -----===//
//
// qsort(base, n, size, cmp) has no body in the module, and no rule could
// know which parts of an element are numbers with derivatives and which are
// pointers whose shadows must move with them. Before differentiation each
// call in a function to differentiate becomes what it does, in terms the
// engine already differentiates:
//
//   perm = adcc_sort_permutation(base, n, size, cmp)   (inactive: the order)
//   tmp = malloc(n * size)
//   for (i = 0; i < n; ++i) memcpy(tmp + i*size, base + perm[i]*size, size)
//   for (i = 0; i < n; ++i) memcpy(base + i*size, tmp + i*size, size)
//   free(tmp); adcc_sort_release(perm)
//
// The copies move the elements' tangents and shadow pointers with them
// (forward mode) and their adjoints back (reverse mode), as any memcpy of
// that memory does; copies of one element each keep the length a constant
// where size is one, which the derivative of a struct mixing numbers and
// pointers needs. The order is the runtime's stable merge sort
// (runtime/lib/sort.c), one of the orders qsort may give; the primal runs
// it too, so ties come out the same in the program and its derivatives.
// glibc's qsort_r (a third argument for the comparator) is rewritten the
// same way.
//
// bsearch(key, base, n, size, cmp) returns the address of an element of
// base (whose derivatives the program then reads), but nothing ties that
// address to base's shadow: it becomes base plus the offset the runtime's
// search finds (adcc_search_offset, inactive), or null.
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

/// Whether \p Call is qsort(base, n, size, cmp) or glibc's qsort_r(base,
/// n, size, cmp, arg), declared with those types.
bool isSortCall(const CallInst &Call, bool &WithArg) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration())
    return false;
  WithArg = F->getName() == "qsort_r";
  if (F->getName() != "qsort" && !WithArg)
    return false;
  FunctionType *FT = F->getFunctionType();
  unsigned Params = WithArg ? 5 : 4;
  return !FT->isVarArg() && FT->getNumParams() == Params &&
         FT->getReturnType()->isVoidTy() &&
         FT->getParamType(0)->isPointerTy() &&
         FT->getParamType(1)->isIntegerTy(64) &&
         FT->getParamType(2)->isIntegerTy(64) &&
         FT->getParamType(3)->isPointerTy() &&
         (!WithArg || FT->getParamType(4)->isPointerTy());
}

bool rewriteSortCall(CallInst &Call) {
  bool WithArg = false;
  if (!isSortCall(Call, WithArg))
    return false;
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  Value *Base = Call.getArgOperand(0), *N = Call.getArgOperand(1),
        *Size = Call.getArgOperand(2);
  Type *I64 = Type::getInt64Ty(C);
  PointerType *Ptr = PointerType::get(C, 0);

  BasicBlock *Head = Call.getParent();
  Function &F = *Head->getParent();
  BasicBlock *Done = Head->splitBasicBlock(Call.getIterator(), "sort.done");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Loop = BasicBlock::Create(C, "sort.move", &F, Done);
  BasicBlock *Back = BasicBlock::Create(C, "sort.back", &F, Done);

  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  SmallVector<Value *, 5> OrderArgs(Call.args());
  SmallVector<Type *, 5> OrderParams;
  for (Value *A : OrderArgs)
    OrderParams.push_back(A->getType());
  FunctionCallee Order = M.getOrInsertFunction(
      WithArg ? "adcc_sort_permutation_r" : "adcc_sort_permutation",
      FunctionType::get(Ptr, OrderParams, false));
  Value *Perm = B.CreateCall(Order, OrderArgs, "sort.perm");
  FunctionCallee Malloc =
      M.getOrInsertFunction("malloc", FunctionType::get(Ptr, {I64}, false));
  Value *Bytes = B.CreateMul(N, Size, "sort.bytes");
  Value *Tmp = B.CreateCall(Malloc, {Bytes}, "sort.tmp");
  B.CreateCondBr(B.CreateICmpEQ(N, ConstantInt::get(I64, 0)), Done, Loop);

  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "sort.i");
  I->addIncoming(ConstantInt::get(I64, 0), Head);
  Value *From = B.CreateLoad(I64, B.CreateGEP(I64, Perm, I), "sort.from");
  Value *Src = B.CreateGEP(B.getInt8Ty(), Base, B.CreateMul(From, Size));
  Value *Dst = B.CreateGEP(B.getInt8Ty(), Tmp, B.CreateMul(I, Size));
  B.CreateMemCpy(Dst, MaybeAlign(1), Src, MaybeAlign(1), Size);
  Value *Next = B.CreateAdd(I, ConstantInt::get(I64, 1), "sort.next");
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(Next, N), Loop, Back);

  B.SetInsertPoint(Back);
  PHINode *J = B.CreatePHI(I64, 2, "sort.j");
  J->addIncoming(ConstantInt::get(I64, 0), Loop);
  Value *At = B.CreateMul(J, Size);
  B.CreateMemCpy(B.CreateGEP(B.getInt8Ty(), Base, At), MaybeAlign(1),
                 B.CreateGEP(B.getInt8Ty(), Tmp, At), MaybeAlign(1), Size);
  Value *NextJ = B.CreateAdd(J, ConstantInt::get(I64, 1), "sort.next");
  J->addIncoming(NextJ, Back);
  B.CreateCondBr(B.CreateICmpULT(NextJ, N), Back, Done);

  B.SetInsertPoint(Done, Done->begin());
  FunctionCallee Free = M.getOrInsertFunction(
      "free", FunctionType::get(B.getVoidTy(), {Ptr}, false));
  B.CreateCall(Free, {Tmp});
  FunctionCallee Release = M.getOrInsertFunction(
      "adcc_sort_release", FunctionType::get(B.getVoidTy(), {Ptr}, false));
  B.CreateCall(Release, {Perm});
  Call.eraseFromParent();
  return true;
}

/// Whether \p Call is bsearch(key, base, n, size, cmp), declared with
/// those types.
bool isSearchCall(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration() || F->getName() != "bsearch")
    return false;
  FunctionType *FT = F->getFunctionType();
  return !FT->isVarArg() && FT->getNumParams() == 5 &&
         FT->getReturnType()->isPointerTy() &&
         FT->getParamType(0)->isPointerTy() &&
         FT->getParamType(1)->isPointerTy() &&
         FT->getParamType(2)->isIntegerTy(64) &&
         FT->getParamType(3)->isIntegerTy(64) &&
         FT->getParamType(4)->isPointerTy();
}

bool rewriteSearchCall(CallInst &Call) {
  if (!isSearchCall(Call))
    return false;
  Module &M = *Call.getModule();
  IRBuilder<> B(&Call);
  SmallVector<Value *, 5> Args(Call.args());
  SmallVector<Type *, 5> Params;
  for (Value *A : Args)
    Params.push_back(A->getType());
  FunctionCallee Search = M.getOrInsertFunction(
      "adcc_search_offset", FunctionType::get(B.getInt64Ty(), Params, false));
  Value *Offset = B.CreateCall(Search, Args, "search.offset");
  Value *Found = B.CreateICmpSGE(Offset, B.getInt64(0), "search.found");
  Value *At = B.CreateGEP(B.getInt8Ty(), Args[1], Offset, "search.at");
  Value *Result = B.CreateSelect(
      Found, At, ConstantPointerNull::get(cast<PointerType>(Call.getType())),
      Call.getName());
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return true;
}

} // namespace

bool rewriteSortCalls(Function &F) {
  return rewriteEach<CallInst>(F, rewriteSortCall) |
         rewriteEach<CallInst>(F, rewriteSearchCall);
}

} // namespace adcore
