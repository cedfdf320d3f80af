//===- SplitResults.cpp - What split mode's entry points return ----------===//

#include "SplitResults.h"
#include "RequestValueTypes.h"
#include "Synthesis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

unsigned tapeHandleSize(const Module &M) {
  return M.getDataLayout().getPointerSize();
}

DerivativeKey forwardSplitKey(const DerivativeKey &Parsed) {
  DerivativeKey K = Parsed;
  K.Mode = DerivativeMode::Forward;
  K.Split = true;
  K.StableMemory = false;
  for (ArgActivity &A : K.Args)
    if (A != ArgActivity::Const)
      A = ArgActivity::Dup;
  bool Void = K.Primal->getReturnType()->isVoidTy();
  K.ReturnPrimal = K.ReturnShadow = !Void;
  return K;
}

std::string forwardSplitTag(const DerivativeKey &Key) {
  std::string Tag = Key.Primal->getName().str() + ":";
  for (ArgActivity A : Key.Args)
    Tag += A == ArgActivity::Const ? 'c' : 'd';
  return Tag + ":" + std::to_string(Key.Width);
}

/// Whether values of \p T hold no pointer (it cannot be taken for a tape).
static bool holdsNoPointer(Type *T) {
  if (auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(), holdsNoPointer);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsNoPointer(AT->getElementType());
  return !T->isPtrOrPtrVectorTy();
}

bool emitAugmentResult(IRBuilder<> &B, CallBase &Call, Value *SRet,
                       Value *Handle, Value *Result, Value *TapeBuffer,
                       StringRef Primal, std::string &Error) {
  Module &M = *Call.getModule();
  Type *Ptr = B.getPtrTy();
  const DataLayout &DL = M.getDataLayout();
  // A caller's tape buffer holds the handle, and the result has no tape
  // field then.
  if (TapeBuffer)
    B.CreateStore(Handle, TapeBuffer);
  // What the entry point is declared to return (a large struct through the
  // hidden pointer).
  Type *Want = SRet ? Call.getParamStructRetType(0) : Call.getType();
  if (Want->isVoidTy() || (!SRet && Call.use_empty()))
    return true; // nothing to return
  if (!TapeBuffer && Want == Ptr) {
    Call.replaceAllUsesWith(Handle); // the tape alone
    return true;
  }
  // The primal's result, with the shadow of a pointer result (or of a
  // struct of pointers): {result, shadow}, flat or nested.
  SmallVector<Type *, 2> Fields;
  if (!TapeBuffer)
    Fields.push_back(Ptr);
  if (Result)
    Fields.push_back(Result->getType());
  auto Fits = [&](Type *Got) {
    return Got && sameScalars(Got, Want) &&
           DL.getTypeAllocSize(Got) == DL.getTypeAllocSize(Want);
  };
  // (Programs also declare {result, void *tape}: that order is taken where
  // the result holds no pointer, so that the fields cannot be confused.)
  bool TapeLast = false;
  if (Fields.size() == 2 && holdsNoPointer(Fields[1]) &&
      !Fits(StructType::get(Call.getContext(), Fields))) {
    std::swap(Fields[0], Fields[1]);
    TapeLast = Fits(StructType::get(Call.getContext(), Fields));
    if (!TapeLast)
      std::swap(Fields[0], Fields[1]);
  }
  Type *Got = Fields.empty()      ? nullptr
              : Fields.size() == 1 ? Fields[0]
                                   : StructType::get(Call.getContext(), Fields);
  if (!Fits(Got)) {
    Error = "__enzyme_augmentfwd returns {void *tape, result, shadow}, each "
            "field where it exists (the tape alone for a void function; no "
            "shadow for a floating-point result or with "
            "enzyme_const_return; no tape with enzyme_tape; {result, void "
            "*tape} also, for a result without pointers); it is declared "
            "to return " +
            typeName(Want) + ", but '" + Primal.str() + "' gives " +
            (Got ? typeName(Got) : std::string("nothing"));
    return false;
  }
  // (The shadow of a struct that mixes numbers and pointers: its numbers'
  // fields are zero, as Enzyme's; their adjoints are __enzyme_reverse's
  // seeds.)
  if (Result && Result->getType()->isStructTy() &&
      Result->getType()->getStructNumElements() == 2 &&
      mixesFloats(Result->getType()->getStructElementType(0)) &&
      carriesPointerShadow(Result->getType()->getStructElementType(0))) {
    Value *Shadow = onlyPointerFields(B, B.CreateExtractValue(Result, 1));
    Result = B.CreateInsertValue(Result, Shadow, 1);
  }
  Value *Out = TapeBuffer ? Result : Handle;
  if (Fields.size() == 2)
    Out = B.CreateInsertValue(
        B.CreateInsertValue(PoisonValue::get(Got), Handle, TapeLast ? 1 : 0),
        Result, TapeLast ? 0 : 1);
  if (Got != Want && !SRet)
    Out = reinterpretAs(B, Out, Want);
  if (SRet)
    B.CreateStore(Out, SRet);
  else
    Call.replaceAllUsesWith(Out);
  return true;
}

} // namespace adcore
