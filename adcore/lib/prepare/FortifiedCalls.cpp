//===- FortifiedCalls.cpp - memcpy and memset of _FORTIFY_SOURCE ----------===//
//
// With -D_FORTIFY_SOURCE (part of Debian's and Ubuntu's default hardening
// flags) glibc's headers call __memcpy_chk(dst, src, n, dstlen),
// __memmove_chk and __memset_chk instead of memcpy, memmove and memset: the
// same operation after a check that n fits in what the compiler knows of
// dst's size (dstlen, from llvm.objectsize; -1 when it knows nothing).
// Each such call becomes that check, calling __chk_fail when n > dstlen as
// glibc does, followed by the llvm.memcpy / memmove / memset intrinsic,
// whose derivatives adcc knows. The primal keeps its check.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "PrimalRewrites.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {
namespace {

enum class Fortified { None, Copy, Move, Set };

Fortified fortifiedKind(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration() || Call.arg_size() != 4)
    return Fortified::None;
  // (Four arguments to a variadic function, fprintf(stderr, "%s %g", s, x),
  // are not four parameters.)
  FunctionType *FT = F->getFunctionType();
  if (FT->isVarArg() || FT->getNumParams() != 4 ||
      !FT->getParamType(0)->isPointerTy() ||
      !FT->getParamType(2)->isIntegerTy() ||
      FT->getParamType(3) != FT->getParamType(2))
    return Fortified::None;
  StringRef Name = F->getName();
  if (Name == "__memcpy_chk" && FT->getParamType(1)->isPointerTy())
    return Fortified::Copy;
  if (Name == "__memmove_chk" && FT->getParamType(1)->isPointerTy())
    return Fortified::Move;
  if (Name == "__memset_chk" && FT->getParamType(1)->isIntegerTy())
    return Fortified::Set;
  return Fortified::None;
}

bool rewriteFortifiedCall(CallInst &Call) {
  Fortified Kind = fortifiedKind(Call);
  if (Kind == Fortified::None)
    return false;
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1),
        *Len = Call.getArgOperand(2), *DstLen = Call.getArgOperand(3);
  // The check, unless the size of dst is unknown (-1: nothing to check).
  auto *Known = dyn_cast<ConstantInt>(DstLen);
  if (!Known || !Known->isMinusOne()) {
    IRBuilder<> B(&Call);
    Value *TooLong = B.CreateICmpULT(DstLen, Len, "chk.overflow");
    Instruction *Fail = SplitBlockAndInsertIfThen(
        TooLong, Call.getIterator(), /*Unreachable=*/true,
        MDBuilder(Call.getContext()).createUnlikelyBranchWeights());
    Module &M = *Call.getModule();
    FunctionCallee ChkFail = M.getOrInsertFunction(
        "__chk_fail", FunctionType::get(B.getVoidTy(), false));
    if (auto *Decl = dyn_cast<Function>(ChkFail.getCallee())) {
      Decl->setDoesNotReturn();
      Decl->setDoesNotThrow();
    }
    IRBuilder<> FB(Fail);
    CallInst *FailCall = FB.CreateCall(ChkFail);
    FailCall->setDoesNotReturn();
    FailCall->setDebugLoc(Call.getDebugLoc());
  }
  IRBuilder<> B(&Call);
  CallInst *Op;
  switch (Kind) {
  case Fortified::Copy:
    Op = B.CreateMemCpy(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
    break;
  case Fortified::Move:
    Op = B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
    break;
  default:
    Op = B.CreateMemSet(Dst, B.CreateTrunc(Src, B.getInt8Ty()), Len,
                        MaybeAlign());
    break;
  }
  Op->setDebugLoc(Call.getDebugLoc());
  // (The call returns dst.)
  Call.replaceAllUsesWith(Dst);
  Call.eraseFromParent();
  return true;
}

} // namespace

bool rewriteFortifiedCalls(Function &F) {
  return rewriteEach<CallInst>(F, rewriteFortifiedCall);
}

} // namespace adcore
