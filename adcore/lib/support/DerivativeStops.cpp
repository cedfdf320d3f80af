//===- DerivativeStops.cpp - Where a derivative stops at run time --------===//
//
// See DerivativeStops.h.
//
//===----------------------------------------------------------------------===//

#include "DerivativeStops.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/FPEnv.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {

/// The metadata kind of the mark: a tuple holding the message.
static constexpr const char *StopMetadata = "adcc.derivative.stop";

bool markDerivativeStop(Instruction &I, StringRef Message) {
  if (I.getMetadata(StopMetadata))
    return false;
  LLVMContext &C = I.getContext();
  I.setMetadata(StopMetadata, MDNode::get(C, MDString::get(C, Message)));
  return true;
}

/// A call of the runtime's stop with \p Message, at \p B's point.
static void callStop(IRBuilder<> &B, StringRef Message) {
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &C = M.getContext();
  FunctionCallee Stop = M.getOrInsertFunction(
      DerivativeStoppedFunction, Type::getVoidTy(C), PointerType::get(C, 0));
  if (auto *F = dyn_cast<Function>(Stop.getCallee()))
    F->setDoesNotReturn();
  CallInst *Call =
      B.CreateCall(Stop, {B.CreateGlobalString(Message, "adcc.stop.why")});
  Call->setDoesNotReturn();
}

/// "file:line:col" of \p L.
static std::string placeOf(const DILocation &L) {
  return sys::path::filename(L.getFilename()).str() + ":" +
         std::to_string(L.getLine()) + ":" + std::to_string(L.getColumn());
}

void emitUntargetedCallStop(CallBase &Call, const Instruction &At,
                            StringRef Function) {
  // The place is the outermost call site of inlined code (the program's
  // own line, not the library header's: `acc->sputn(...)` rather than
  // streambuf's call of xsputn), with the inlined place after it.
  std::string Where, Inlined;
  if (const DILocation *L = At.getDebugLoc().get()) {
    const DILocation *Outer = L;
    while (const DILocation *Up = Outer->getInlinedAt())
      Outer = Up;
    Where = placeOf(*Outer) + ": ";
    if (Outer != L)
      Inlined = " (at " + placeOf(*L) + ", inlined there)";
  }
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  callStop(B, Where + "the derivative of " + Function.str() +
                  " calls a function pointer" + Inlined +
                  ", and no function of the pointer's type is defined in "
                  "the translation unit that requests the derivative (none "
                  "has a derivative); define the target there");
}

void emitTangentOverflowStop(Instruction &Result, Value &Tangent,
                             StringRef Message) {
  auto *After = dyn_cast<Instruction>(&Tangent);
  if (!After || isa<PHINode>(After) || !Result.getType()->isFloatingPointTy())
    return;
  IRBuilder<> B(After->getNextNode());
  B.SetCurrentDebugLocation(Result.getDebugLoc());
  auto IsFinite = [&](Value *V) {
    return B.CreateIntrinsic(Intrinsic::is_fpclass, {V->getType()},
                             {V, B.getInt32(fcFinite)});
  };
  Value *Overflow = B.getFalse();
  if (auto *Lanes = dyn_cast<ArrayType>(Tangent.getType())) {
    for (unsigned L = 0; L < Lanes->getNumElements(); ++L)
      Overflow = B.CreateOr(
          Overflow, B.CreateNot(IsFinite(B.CreateExtractValue(&Tangent, L))));
  } else if (Tangent.getType() == Result.getType()) {
    Overflow = B.CreateNot(IsFinite(&Tangent));
  } else {
    return;
  }
  Overflow = B.CreateAnd(IsFinite(&Result), Overflow);
  Instruction *Then = SplitBlockAndInsertIfThen(
      Overflow, B.GetInsertPoint(), /*Unreachable=*/true);
  IRBuilder<> S(Then);
  S.SetCurrentDebugLocation(Result.getDebugLoc());
  callStop(S, Message);
}

void emitDerivativeStops(Function &D) {
  SmallVector<Instruction *, 2> Marked;
  for (Instruction &I : instructions(D))
    if (I.getMetadata(StopMetadata))
      Marked.push_back(&I);
  if (Marked.empty())
    return;
  Module &M = *D.getParent();
  LLVMContext &C = M.getContext();
  FunctionCallee Stop = M.getOrInsertFunction(
      DerivativeStoppedFunction, Type::getVoidTy(C), PointerType::get(C, 0));
  if (auto *F = dyn_cast<Function>(Stop.getCallee()))
    F->setDoesNotReturn();
  for (Instruction *I : Marked) {
    StringRef Message =
        cast<MDString>(I->getMetadata(StopMetadata)->getOperand(0))
            ->getString();
    I->setMetadata(StopMetadata, nullptr);
    // (Before a phi's block's first instruction that is not one.)
    IRBuilder<> B(isa<PHINode>(I) ? &*I->getParent()->getFirstInsertionPt()
                                  : I);
    B.SetCurrentDebugLocation(I->getDebugLoc());
    CallInst *Call =
        B.CreateCall(Stop, {B.CreateGlobalString(Message, "adcc.stop.why")});
    Call->setDoesNotReturn();
  }
}

} // namespace adcore
