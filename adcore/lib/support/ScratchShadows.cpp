//===- ScratchShadows.cpp - Shadows for constant memory a call writes -----===//

#include "ScratchShadows.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

namespace {

constexpr const char *BeginName = "adcc_scratch_shadow_begin";
constexpr const char *EndName = "adcc_scratch_shadow_end";

} // namespace

Value *beginScratchShadow(IRBuilder<> &B, Value *Primal) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Begin =
      M.getOrInsertFunction(BeginName, FunctionType::get(Ptr, {Ptr}, false));
  return B.CreateCall(Begin, {Primal}, "scratch.shadow");
}

void endScratchShadow(IRBuilder<> &B, Value *Shadow) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee End = M.getOrInsertFunction(
      EndName, FunctionType::get(B.getVoidTy(), {Ptr}, false));
  B.CreateCall(End, {Shadow});
}

bool isScratchShadowBegin(const Function &F) { return F.getName() == BeginName; }

} // namespace adcore
