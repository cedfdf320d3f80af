//===- EnzymeCalls.cpp - Lowering Enzyme-style requests ------------------===//

#include "EnzymeCalls.h"
#include "EnzymeCallLowering.h"
#include "support/ShadowRelease.h"
#include "adcore/CrossTU.h"
#include "adcore/ParamShapes.h"
#include "DenseViews.h"

#include "support/CallSites.h"
#include "RequestMarkers.h"
#include "RequestValueTypes.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ScratchShadows.h"
#include "SplitResults.h"
#include "device/DeviceCode.h"
#include "rules/MpiRules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p M calls a derivative made at link time (a declaration named
/// by crossTUSymbol; \p ReverseOnly: of a gradient's sweeps). What such a
/// derivative does is unknown here: it may replace null shadow pointers by
/// scratch shadows, or mark pointer shadows, which a request must then
/// enter a session for (NullShadowGuards.h, PointerShadowMarks.h), as for
/// its own file's derivatives. (A shadow struct stored by this file with
/// a null shadow beside a pointer to its constant data, read by the other
/// file's derivative: tinyexpr's closure context `&three`.)
bool callsLinkTimeDerivatives(const Module &M, bool ReverseOnly) {
  for (const Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with(CrossTUPrefix))
      if (std::optional<CrossTURequest> R = parseCrossTUSymbol(F.getName()))
        if (!ReverseOnly || R->Combined ||
            R->Key.Mode != DerivativeMode::Forward)
          return true;
  return false;
}

} // namespace

SmallVector<Value *, 2> EnzymeCallLowering::addScratchShadows() {
  SmallVector<Value *, 2> Shadows;
  // Only where one call runs the whole derivative (not split mode, whose
  // sweeps run apart), on the host (the runtime reserves the pages), and
  // where the release can follow the call.
  const Triple &TT = Call.getModule()->getTargetTriple();
  if (SplitKind != Split::None || TT.isNVPTX() || TT.isAMDGPU() ||
      !isa<CallInst>(Call) || Ctx.defers(*R.Primal) ||
      R.Primal->isDeclaration())
    return Shadows;
  for (const ConstantPointer &P : reverse(ConstantPointers)) {
    if (constantMemoryUse(*R.Primal, Key.Args, P.ArgNo, Ctx.rules()) !=
        ConstantMemoryUse::ReadBack)
      continue;
    Key.Args[P.KeyIndex] = ArgActivity::Dup;
    for (unsigned L = 0; L < Key.Width; ++L) {
      Value *Shadow = beginScratchShadow(B, Args[P.ArgsIndex]);
      Args.insert(Args.begin() + P.ArgsIndex + 1 + L, Shadow);
      Shadows.push_back(Shadow);
    }
  }
  return Shadows;
}

bool EnzymeCallLowering::emitRecording() {
  DerivativeKey K = forwardSplitKey(Key);
  if (!Ctx.getOrCreate(K))
    return false;
  Function *Rec = Ctx.splitRecorder(K);
  if (!Rec)
    return false;
  // The recording sweep takes the primal's arguments only.
  SmallVector<Value *, 16> Primals;
  for (unsigned I = 0, A = 0; A < Key.Args.size(); ++A) {
    Primals.push_back(Args[I++]);
    if (hasShadow(Key.Args[A]))
      I += Key.Width;
  }
  Module &M = *Call.getModule();
  Type *Ptr = B.getPtrTy();
  std::string Tag = forwardSplitTag(K);
  Value *Records = B.CreateCall(
      M.getOrInsertFunction("adcc_fwdsplit_new",
                            FunctionType::get(Ptr, {Ptr}, false)),
      {B.CreateGlobalString(Tag, "adcc.fwdsplit.tag")}, "tape");
  Primals.push_back(Records);
  CallBase *NewCall = emitReplacementCall(B, Call, Rec, Primals);
  // (At the call that stays: the request's is erased.)
  Ctx.noteSplitTag(*R.Primal, Tag, *NewCall, /*Records=*/true);
  Value *Buffer =
      TapeArg && TapeArg->getType()->isPointerTy() ? TapeArg : nullptr;
  Value *Result =
      NoReturn || NewCall->getType()->isVoidTy() ? nullptr : NewCall;
  std::string Message;
  return emitAugmentResult(B, Call, SRet, Records, Result, Buffer,
                           R.Primal->getName(), Message) ||
         error(Message);
}

bool EnzymeCallLowering::emitForwardSplit() {
  DerivativeKey K = forwardSplitKey(Key);
  Function *D = Ctx.getOrCreate(K);
  if (!D)
    return false;
  // What the call returns, as in forward mode: the tangent, {primal,
  // tangent} with enzyme_primal_return, the primal alone with
  // enzyme_const_return; the sweep returns {primal, tangent}.
  Type *RetTy = R.Primal->getReturnType();
  bool WantPrimal = !RetTy->isVoidTy() && Key.ReturnPrimal;
  bool WantTangent = !RetTy->isVoidTy() && Key.ReturnShadow;
  Type *Got = WantPrimal && WantTangent ? D->getReturnType()
              : WantPrimal              ? RetTy
              : WantTangent             ? shadowType(RetTy, Key.Width)
                                        : B.getVoidTy();
  Type *Want = SRet ? Call.getParamStructRetType(0) : Call.getType();
  bool Used = (SRet || !Call.use_empty()) && !Want->isVoidTy();
  const DataLayout &DL = Call.getModule()->getDataLayout();
  bool Convert = Used && Got != Want && Got->isFloatingPointTy() &&
                 Want->isFloatingPointTy();
  if (Used && Got != Want && !Convert &&
      (Got->isVoidTy() || !sameScalars(Got, Want) ||
       DL.getTypeStoreSize(Got) > DL.getTypeAllocSize(Want)))
    return error("__enzyme_fwdsplit is declared to return " + typeName(Want) +
                 ", but the derivative of '" + R.Primal->getName() +
                 "' returns " + (Got->isVoidTy() ? "nothing" : typeName(Got)));

  Module &M = *Call.getModule();
  Type *Ptr = B.getPtrTy();
  std::string Tag = forwardSplitTag(K);
  // The records checked against the sweep's tag, and read from the start.
  Value *Records = B.CreateCall(
      M.getOrInsertFunction("adcc_fwdsplit_begin",
                            FunctionType::get(Ptr, {Ptr, Ptr}, false)),
      {TapeArg, B.CreateGlobalString(Tag, "adcc.fwdsplit.tag")}, "records");
  Args.push_back(Records);
  CallBase *NewCall = emitReplacementCall(B, Call, D, Args);
  Ctx.noteSplitTag(*R.Primal, Tag, *NewCall, /*Records=*/false);
  B.CreateCall(M.getOrInsertFunction(
                   "adcc_fwdsplit_end",
                   FunctionType::get(B.getVoidTy(), {Ptr, B.getInt32Ty()},
                                     false)),
               {Records, B.getInt32(KeepRecords)});
  if (!Used)
    return true;
  Value *Result = NewCall;
  if (WantPrimal != WantTangent)
    Result = B.CreateExtractValue(NewCall, WantPrimal ? 0 : 1);
  if (Convert)
    Result = B.CreateFPCast(Result, Want);
  else if (Got != Want)
    Result = reinterpretAs(B, Result, Want);
  if (SRet)
    B.CreateStore(Result, SRet);
  else
    Call.replaceAllUsesWith(Result);
  return true;
}

bool EnzymeCallLowering::emitCall() {
  if (SplitKind == Split::Forward)
    return emitForwardSplit();
  if (SplitKind == Split::Augment && Recording)
    return emitRecording();
  // The two sweeps of a combined call run back to back: nothing can write
  // the argument memory in between.
  Key.StableMemory = Reverse && SplitKind == Split::None && !PrimalResult;
  if (Key.ErrorEstimate && Key.Width != 1)
    return error("__enzyme_error_estimate has no batched form: enzyme_width "
                 "must be 1");
  // (Another file's function would get its forward derivative at link
  // time.)
  if (Key.ErrorEstimate && R.Primal->isDeclaration() &&
      !Ctx.rules().isInactive(R.Primal))
    return error("no error estimation rule for '" + R.Primal->getName() +
                 "', whose body is not in this translation unit");
  // (A registered rule gives tangents, not error estimates.)
  if (Key.ErrorEstimate && Ctx.rules().forwardDerivative(R.Primal))
    return error("'" + R.Primal->getName() +
                 "' has a registered derivative, which gives no error "
                 "estimate; estimate the errors of a function that calls it "
                 "without the registration");
  Function *D = Ctx.getOrCreate(Key);
  if (!D)
    return false;
  Function *RevD = nullptr;
  if (Reverse) {
    DerivativeKey RevKey = Key;
    RevKey.Mode = DerivativeMode::Reverse;
    RevD = Ctx.cache().lookup(RevKey);
    if (!RevD)
      return false;
  }

  // The derivative's result must fit what the entry point is declared to
  // return (checked before any code is emitted). In reverse mode that is
  // the reverse sweep's result: the adjoints of the active arguments.
  Type *Got = RevD ? RevD->getReturnType() : D->getReturnType();
  // The primal's result first, then the adjoints.
  if (PrimalResult && !R.Primal->getReturnType()->isVoidTy()) {
    SmallVector<Type *, 8> Fields{R.Primal->getReturnType()};
    if (auto *ST = dyn_cast<StructType>(Got))
      Fields.append(ST->element_begin(), ST->element_end());
    else if (!Got->isVoidTy())
      Fields.push_back(Got);
    Got = StructType::get(Call.getContext(), Fields);
  } else {
    PrimalResult = false;
  }
  Type *Want = SRet ? Call.getParamStructRetType(0) : Call.getType();
  bool Used = (SRet || !Call.use_empty()) && SplitKind != Split::Augment;
  const DataLayout &DL = Call.getModule()->getDataLayout();
  // A derivative without a result (no active scalar) read as a value: zero.
  bool ZeroResult = Used && !Want->isVoidTy() && Got->isVoidTy();
  bool Coerce = Used && !Want->isVoidTy() && Got != Want && !ZeroResult;
  // The same values, laid out as another type ({<2 x float>, float} for
  // {float, [2 x float]}, a struct of doubles for [N x double]); a scalar
  // of another precision is converted.
  bool Convert =
      Coerce && Got->isFloatingPointTy() && Want->isFloatingPointTy();
  if (Convert)
    Coerce = false;
  if (Coerce && (Got->isVoidTy() || !sameScalars(Got, Want) ||
                 DL.getTypeStoreSize(Got) > DL.getTypeAllocSize(Want)))
    return error(entryPointName(R.Kind) + " is declared to return " +
                 typeName(Want) + ", but the derivative of '" +
                 R.Primal->getName() + "' returns " + typeName(Got));

  Module &M = *Call.getModule();
  Type *Ptr = B.getPtrTy();
  // A combined call runs both sweeps from one function made for them
  // (CombinedSweeps.cpp).
  bool Combined = Reverse && SplitKind == Split::None && !PrimalResult;
  CallBase *NewCall = nullptr;
  // Split mode in device code records in the caller's slot (enzyme_tape):
  // there is no runtime tape to mark (DeviceTape.cpp).
  bool DeviceSlot = (SplitKind == Split::Augment ||
                     SplitKind == Split::Reverse) &&
                    isDeviceModule(M) && TapeArg &&
                    TapeArg->getType()->isPointerTy();
  if (DeviceSlot)
    emitDeviceTapeSlot(B, TapeArg, *R.Primal, SplitKind == Split::Augment);
  if (SplitKind != Split::Reverse && !Combined)
    NewCall = emitReplacementCall(B, Call, D, Args);
  // (The augmented sweep's result: the primal's.)
  Value *PrimalValue = PrimalResult ? NewCall : nullptr;
  // The tape level the sweeps record on (TapeLevels.h): above 0 for code
  // that itself runs reverse sweeps.
  unsigned Level = Reverse && !Ctx.defers(*R.Primal)
                       ? Ctx.tapeLevelFor(*R.Primal)
                       : 0;
  if (SplitKind == Split::Augment && DeviceSlot) {
    // (The handle: the slot, which holds the records.)
    Value *Result = NoReturn || NewCall->getType()->isVoidTy() ? nullptr
                                                               : NewCall;
    std::string Message;
    return emitAugmentResult(B, Call, SRet, TapeArg, Result, nullptr,
                             R.Primal->getName(), Message) ||
           error(Message);
  }
  if (SplitKind == Split::Augment) {
    // The handle names this augmented sweep's place on the thread's tape.
    Value *Handle =
        Level == 0
            ? B.CreateCall(M.getOrInsertFunction("adcc_split_mark",
                                                 FunctionType::get(Ptr, false)),
                           {}, "tape")
            : B.CreateCall(
                  M.getOrInsertFunction(
                      "adcc_split_mark_level",
                      FunctionType::get(Ptr, {B.getInt32Ty()}, false)),
                  {B.getInt32(Level)}, "tape");
    // (SplitResults.cpp)
    Value *Buffer =
        TapeArg && TapeArg->getType()->isPointerTy() ? TapeArg : nullptr;
    Value *Result = NoReturn || NewCall->getType()->isVoidTy() ? nullptr
                                                               : NewCall;
    SplitHandle = Handle;
    std::string Message;
    return emitAugmentResult(B, Call, SRet, Handle, Result, Buffer,
                             R.Primal->getName(), Message) ||
           error(Message);
  }
  if (RevD) {
    SmallVector<Value *, 1> Seed;
    if (SplitKind == Split::Reverse) {
      // The reverse sweep of the most recent augmented sweep: checked.
      if (DeviceSlot)
        ;
      else if (Level == 0)
        B.CreateCall(M.getOrInsertFunction(
                         "adcc_split_check",
                         FunctionType::get(B.getVoidTy(), {Ptr}, false)),
                     {TapeArg});
      else
        B.CreateCall(M.getOrInsertFunction(
                         "adcc_split_check_level",
                         FunctionType::get(B.getVoidTy(),
                                           {Ptr, B.getInt32Ty()}, false)),
                     {TapeArg, B.getInt32(Level)});
      if (RevD->arg_size() == 1)
        Seed.push_back(SeedArg
                           ? SeedArg
                           : ConstantFP::get(RevD->getArg(0)->getType(), 0.0));
    } else if (RevD->arg_size() == 1) {
      // The reverse sweep, seeded with 1 for a floating-point result (in
      // every lane at width > 1).
      Type *SeedTy = RevD->getArg(0)->getType();
      if (auto *AT = dyn_cast<ArrayType>(SeedTy))
        Seed.push_back(ConstantArray::get(
            AT, SmallVector<Constant *, 8>(
                    AT->getNumElements(),
                    ConstantFP::get(AT->getElementType(), 1.0))));
      else
        Seed.push_back(ConstantFP::get(SeedTy, 1.0));
    }
    if (Combined) {
      Args.append(Seed.begin(), Seed.end());
      NewCall = emitReplacementCall(B, Call, Ctx.getOrCreateCombined(*D, *RevD),
                                    Args);
    } else {
      // (An invoke of __enzyme_reverse, in a function that runs
      // destructors when a call throws, stays an invoke.)
      NewCall = emitReplacementCall(B, Call, RevD, Seed);
    }
  }
  // (Not after an augmented sweep, whose reverse sweep reads them still;
  // nor after a checkpointed loop's step, whose adjoints of the globals
  // the steps before it read. After a reverse sweep, those of its augmented
  // sweep too: the sweep may take a shadow's address from the records, as
  // that of an argument's shadow.)
  Function *Entry = Call.getCalledFunction();
  bool Step = Entry && Entry->getName().ends_with(".adcc.checkpoint");
  if (NewCall && !Step && !isDeviceModule(M))
    if (Function *Callee = NewCall->getCalledFunction())
      releaseOwnShadows(B, {D, Callee}, [](const Function &F) {
        return parseCrossTUSymbol(F.getName())
                   ? crossTUReleaseSymbol(F.getName())
                   : std::string();
      });
  Value *Result = NewCall;
  if (PrimalValue) {
    // {primal, adjoints...}
    auto *ST = cast<StructType>(Got);
    Value *Packed = B.CreateInsertValue(PoisonValue::get(ST), PrimalValue, 0);
    Type *Adjoints = NewCall->getType();
    if (auto *AST = dyn_cast<StructType>(Adjoints)) {
      for (unsigned I = 0; I < AST->getNumElements(); ++I)
        Packed = B.CreateInsertValue(Packed, B.CreateExtractValue(NewCall, I),
                                     I + 1);
    } else if (!Adjoints->isVoidTy()) {
      Packed = B.CreateInsertValue(Packed, NewCall, 1);
    }
    Result = Packed;
  }
  if (Coerce)
    Result = reinterpretAs(B, Result, Want);
  if (Convert)
    Result = B.CreateFPCast(Result, Want);
  if (SRet) {
    B.CreateStore(ZeroResult
                      ? static_cast<Value *>(Constant::getNullValue(Want))
                      : Result,
                  SRet);
  } else if (!Call.use_empty()) {
    Call.replaceAllUsesWith(ZeroResult ? Constant::getNullValue(Call.getType())
                                       : Result);
  }
  return true;
}

bool EnzymeCallLowering::run() {
  // A large struct result is returned through a hidden first argument.
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    SRet = Call.getArgOperand(0);
    Next = 2;
  }
  Function &F = *R.Primal;
  // (Its arguments would be matched against the hidden result pointer.)
  if (F.arg_size() > 0 && F.hasParamAttribute(0, Attribute::StructRet))
    return error("'" + demangle(F.getName()) +
                 "' returns its result through memory (a struct of more "
                 "than 16 bytes), which a request cannot pass; return it "
                 "through a pointer argument (enzyme_dup) instead");
  Key.Primal = &F;
  Key.Mode = Reverse ? DerivativeMode::Augmented : DerivativeMode::Forward;
  Key.ErrorEstimate = R.Kind == RequestKind::ErrorEstimate;
  Key.ReturnShadow = !F.getReturnType()->isVoidTy();
  if (Reverse) {
    // An active result: a floating-point one, and in split mode a pointer
    // (or a struct of pointers), whose shadow the augmented sweep returns
    // for the caller to accumulate adjoints into before the reverse sweep;
    // in split mode too a struct that mixes floating-point values with
    // pointers or integers: its pointers' shadows come back with it, and
    // __enzyme_reverse takes the seeds of its floating-point fields.
    Type *Ret = F.getReturnType();
    Key.ReturnShadow = Ret->isFPOrFPVectorTy() ||
                       (SplitKind != Split::None &&
                        (Ret->isPointerTy() || isPointerAggregate(Ret) ||
                         mixesFloats(Ret)));
  }
  // The derivatives of a checkpointed loop's step (CheckpointedCalls.cpp):
  // its state and parameter blocks may hold pointers to constant data
  // (enzyme_const where the loop runs: a loop marked ADCC_CHECKPOINT
  // keeps the pointers it reads in its parameter block), whose shadows
  // there are null; accesses through them are guarded.
  if (Function *Entry = Call.getCalledFunction();
      Entry && Entry->getName().ends_with(".adcc.checkpoint"))
    for (Argument &A : F.args())
      if (A.getType()->isPointerTy() && A.getArgNo() < 64)
        Key.NullReaching |= uint64_t(1) << A.getArgNo();
  findInterleave();
  // Global markers may precede the first parameter.
  StringRef Name;
  for (Marker M; (M = peekMarker(Name)) != Marker::None && !isActivity(M);) {
    consumeMarker();
    if (!parseGlobalMarker(M, Name))
      return false;
  }
  if (auto Groups = groupParameters(F)) {
    // Source parameters the ABI passes as two IR ones, or none.
    for (unsigned I = 0; I < Groups->size(); ++I) {
      const ParamGroup &G = (*Groups)[I];
      if (G.Count == 1 && !parseParameter(*F.getArg(G.First), I))
        return false;
      if (G.Count == 2 &&
          !parsePair(*F.getArg(G.First), *F.getArg(G.First + 1), I))
        return false;
    }
  } else if (!paramShapes(F).empty()) {
    return error("adcc cannot match the parameters of '" + F.getName() +
                 "' with their types in the source (an unusual calling "
                 "convention?); pass structs by pointer with enzyme_dup");
  } else {
    for (Argument &Param : F.args())
      if (!parseParameter(Param, Param.getArgNo()))
        return false;
  }
  if (ShadowNext) {
    if (Next < PrimalEnd)
      return error("too many arguments before enzyme_interleave for '" +
                   F.getName() + "': it takes " + Twine(F.arg_size()) +
                   " parameters");
    // What follows the shadows: global markers, the seed and the tape.
    Next = ShadowNext;
    PrimalEnd = Call.arg_size();
    ShadowNext = 0;
  }
  if (!parseTrailingMarkers())
    return false;
  if (SplitKind == Split::Reverse || SplitKind == Split::Forward) {
    Type *RetTy = F.getReturnType();
    if (SplitKind == Split::Reverse && RetTy->isFPOrFPVectorTy() &&
        !ConstantResult && !parseSeeds(RetTy))
      return false;
    if (SplitKind == Split::Reverse && Key.ReturnShadow &&
        mixesFloats(RetTy) && !ConstantResult && !parseFieldSeeds(RetTy))
      return false;
    if (!TapeArg && (!(TapeArg = next("the tape from __enzyme_augmentfwd")) ||
                     !parseTrailingMarkers()))
      return false;
    if (!TapeArg->getType()->isPointerTy())
      return error("the tape given to " + entryPointName(R.Kind) +
                   " must be the pointer that __enzyme_augmentfwd returned");
  }
  if (Next < Call.arg_size())
    return error("too many arguments to " + entryPointName(R.Kind) + " for '" +
                 F.getName() + "': it takes " + Twine(F.arg_size()) +
                 " parameters, each followed by its shadow(s) when duplicated");
  if (Reverse && !ConstantResult && !Key.ReturnShadow &&
      holdsFloats(F.getReturnType()))
    return error("reverse mode of '" + F.getName() +
                 "' cannot seed its result, "
                 "of type " +
                 typeName(F.getReturnType()) +
                 ": only a floating-point result is seeded; return a "
                 "floating-point value, or write the results through a "
                 "pointer parameter (enzyme_dup) and seed its shadow; "
                 "enzyme_const_return if the result carries no derivative");
  SmallVector<Value *, 2> Scratch = addScratchShadows();
  // (Null shadow pointers the derivative replaces with scratch shadows
  // live as long as the call: NullShadowGuards.h. In split mode, from the
  // augmented sweep to the reverse sweep given its tape; the recording
  // sweep of split forward mode runs the primal alone. Not on GPUs.)
  const Triple &TT = Call.getModule()->getTargetTriple();
  CallInst *Enter = nullptr;
  if (!Recording && !TT.isNVPTX() && !TT.isAMDGPU())
    Enter = SplitKind == Split::Reverse ? resumeNullShadowSession(B, TapeArg)
                                        : enterNullShadowSession(B);
  // (A request's augmented sweep starts with no pointer shadows marked:
  // PointerShadowMarks.h. Not on GPUs.)
  CallInst *Marks = nullptr;
  if (Reverse && SplitKind != Split::Reverse && !Recording && !TT.isNVPTX() &&
      !TT.isAMDGPU())
    Marks = beginPointerShadowMarks(B, 0);
  // (The begin call and the caller's stack pointer it is given.)
  auto EraseMarks = [&] {
    auto *Stack = dyn_cast<Instruction>(Marks->getArgOperand(0));
    Marks->eraseFromParent();
    if (Stack && Stack->use_empty())
      Stack->eraseFromParent();
  };
  if (!emitCall()) {
    if (Enter)
      Enter->eraseFromParent();
    if (Marks)
      EraseMarks();
    return false;
  }
  // (A derivative made at link time: whether it marks pointer shadows, and
  // on which tape level, only the link step knows; the functions it makes
  // with the derivative begin and end the marks, or do nothing.
  // crossTUMarksSymbol.)
  std::string DeferredSymbol;
  if (Reverse && Ctx.defers(*R.Primal) && !Recording && !TT.isNVPTX() &&
      !TT.isAMDGPU()) {
    DerivativeKey AugKey = Key;
    AugKey.Mode = DerivativeMode::Augmented;
    if (Function *Aug = Ctx.cache().lookup(AugKey))
      DeferredSymbol = Aug->getName().str();
  }
  if (Marks && !DeferredSymbol.empty()) {
    IRBuilder<> At(Marks);
    At.CreateCall(Call.getModule()->getOrInsertFunction(
                      crossTUMarksSymbol(DeferredSymbol, /*Begin=*/true),
                      FunctionType::get(At.getVoidTy(), {At.getPtrTy()},
                                        false)),
                  {Marks->getArgOperand(0)});
    Marks->eraseFromParent();
    Marks = nullptr;
  }
  if (Marks && !usesPointerShadowMarks(*Call.getModule()) &&
      !callsLinkTimeDerivatives(*Call.getModule(), /*ReverseOnly=*/true)) {
    EraseMarks();
    Marks = nullptr;
  }
  // (On the tape level its derivative records on, known once it is made:
  // a request nested in differentiated code keeps its marks apart from
  // the outer request's.)
  unsigned MarksLevel =
      Reverse && !Ctx.defers(*R.Primal) ? Ctx.tapeLevelFor(*R.Primal) : 0;
  if (Marks)
    Marks->setArgOperand(1, B.getInt32(MarksLevel));
  // (After the reverse sweep, before the null shadows' session ends and
  // the scratch shadows go: the caller's memory gets back the pointer
  // shadows it ended the augmented sweep with.)
  if (Reverse &&
      (SplitKind == Split::None || SplitKind == Split::Reverse) &&
      !DeferredSymbol.empty())
    B.CreateCall(Call.getModule()->getOrInsertFunction(
                     crossTUMarksSymbol(DeferredSymbol, /*Begin=*/false),
                     FunctionType::get(B.getVoidTy(), false)),
                 {});
  else if (Reverse &&
           (SplitKind == Split::None || SplitKind == Split::Reverse) &&
           !Recording && !TT.isNVPTX() && !TT.isAMDGPU() &&
           (usesPointerShadowMarks(*Call.getModule()) ||
            callsLinkTimeDerivatives(*Call.getModule(), /*ReverseOnly=*/true)))
    endPointerShadowMarks(B, MarksLevel);
  if (Enter && ((!usesNullShadowScratch(*Call.getModule()) &&
                 !callsLinkTimeDerivatives(*Call.getModule(),
                                           /*ReverseOnly=*/false)) ||
                (SplitKind == Split::Augment && !SplitHandle))) {
    Enter->eraseFromParent();
    Enter = nullptr;
  }
  if (Enter) {
    // (After the call's results: B is there, on an invoke's normal path
    // too.)
    if (SplitKind == Split::Augment)
      suspendNullShadowSession(B, SplitHandle);
    else
      leaveNullShadowSession(B);
    if (auto *Invoke = dyn_cast<InvokeInst>(&Call))
      restoreNullShadowsOnUnwind(*Invoke, *Enter);
  }
  if (!Scratch.empty() || !ActivityShadows.empty()) {
    IRBuilder<> After(isa<CallInst>(Call) ? Call.getNextNode()
                                          : &*B.GetInsertPoint());
    for (Value *Shadow : Scratch)
      endScratchShadow(After, Shadow);
    for (const ActivityShadow &S : reverse(ActivityShadows))
      endRuntimeActivityShadow(After, S.Primal, S.Given, S.Passed);
  }
  // (A reverse sweep of MPI code may leave adjoint messages sent from kept
  // copies: they complete before the call returns.)
  if (Reverse &&
      (SplitKind == Split::None || SplitKind == Split::Reverse) &&
      isa<CallInst>(Call) && !TT.isNVPTX() && !TT.isAMDGPU() &&
      callsMpi(*Call.getModule()))
    emitMpiDrainAfter(cast<CallInst>(Call));
  Call.eraseFromParent();
  for (Instruction *I : MarkerLoads)
    if (I->use_empty())
      I->eraseFromParent();
  return true;
}

namespace {

/// The function to differentiate must be defined in this translation unit,
/// or in another one whose derivatives are made when adcc links them.
bool hasBody(const Request &R, SynthesisContext &Ctx) {
  if (!R.Primal->isDeclaration() || Ctx.defers(*R.Primal))
    return true;
  // (A registered rule or mark is enough.)
  if (Ctx.rules().coversDerivative(R.Primal,
                                   R.Kind == RequestKind::Forward ||
                                       R.Kind == RequestKind::ErrorEstimate))
    return true;
  Ctx.error(*R.Site, "cannot differentiate '" + R.Primal->getName() +
                         "': its body is not available in this translation "
                         "unit (and -fno-adcc-cross-tu is given)");
  return false;
}

} // namespace

bool lowerForwardRequest(const Request &R, SynthesisContext &Ctx) {
  if (!hasBody(R, Ctx))
    return false;
  EnzymeCallLowering Lowering(R, Ctx);
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

bool lowerSplitRequest(const Request &R, SynthesisContext &Ctx) {
  if (R.Kind == RequestKind::AugmentSize) {
    // The tape is the runtime's: the caller only keeps a handle.
    CallBase &Call = *R.Site;
    if (!Call.getType()->isIntegerTy()) {
      Ctx.error(Call, "__enzyme_augmentsize must be declared to return an "
                      "integer");
      return false;
    }
    // (In device code: the bytes of a tape slot, DeviceTape.cpp.)
    IRBuilder<> B(&Call);
    Call.replaceAllUsesWith(
        isDeviceModule(*Call.getModule()) && R.Primal
            ? emitDeviceTapeSize(B, *R.Primal, Call.getType())
            : ConstantInt::get(Call.getType(),
                               tapeHandleSize(*Call.getModule())));
    Call.eraseFromParent();
    return true;
  }
  if (!hasBody(R, Ctx))
    return false;
  EnzymeCallLowering Lowering(R, Ctx);
  Lowering.Reverse = true;
  Lowering.SplitKind = R.Kind == RequestKind::AugmentedForward
                           ? EnzymeCallLowering::Split::Augment
                           : EnzymeCallLowering::Split::Reverse;
  Lowering.Recording = R.Kind == RequestKind::AugmentedForward &&
                       Ctx.recordsForwardSplit(*R.Primal);
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

bool lowerForwardSplitRequest(const Request &R, SynthesisContext &Ctx) {
  // (Both sweeps are made from the function's body: getOrCreate reports a
  // function without one.)
  EnzymeCallLowering Lowering(R, Ctx);
  Lowering.SplitKind = EnzymeCallLowering::Split::Forward;
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

bool lowerReverseRequest(const Request &R, SynthesisContext &Ctx) {
  if (!hasBody(R, Ctx))
    return false;
  EnzymeCallLowering Lowering(R, Ctx);
  Lowering.Reverse = true;
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

} // namespace adcore
