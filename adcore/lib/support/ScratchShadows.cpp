//===- ScratchShadows.cpp - Shadows for constant memory a call writes -----===//

#include "ScratchShadows.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

namespace {

constexpr const char *BeginName = "adcc_scratch_shadow_begin";
constexpr const char *EndName = "adcc_scratch_shadow_end";
constexpr const char *ActivityBeginName = "adcc_runtime_activity_begin";
constexpr const char *ActivityEndName = "adcc_runtime_activity_end";

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

Value *beginRuntimeActivityShadow(IRBuilder<> &B, Value *Primal,
                                  Value *Shadow) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Begin = M.getOrInsertFunction(
      ActivityBeginName, FunctionType::get(Ptr, {Ptr, Ptr}, false));
  return B.CreateCall(Begin, {Primal, Shadow}, "activity.shadow");
}

void endRuntimeActivityShadow(IRBuilder<> &B, Value *Primal, Value *Given,
                              Value *Passed) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee End = M.getOrInsertFunction(
      ActivityEndName,
      FunctionType::get(B.getVoidTy(), {Ptr, Ptr, Ptr}, false));
  B.CreateCall(End, {Primal, Given, Passed});
}

bool isScratchShadowBegin(const Function &F) {
  return F.getName() == BeginName || F.getName() == ActivityBeginName;
}

} // namespace adcore
