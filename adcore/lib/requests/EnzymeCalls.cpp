//===- EnzymeCalls.cpp - Lowering Enzyme-style requests ------------------===//

#include "EnzymeCalls.h"
#include "adcore/ParamShapes.h"
#include "DenseViews.h"

#include "support/CallSites.h"
#include "RequestMarkers.h"
#include "RequestValueTypes.h"
#include "support/NullShadowGuards.h"
#include "support/ScratchShadows.h"
#include "SplitResults.h"
#include "device/DeviceCode.h"

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

/// Parses and lowers one request call.
class ForwardCallLowering {
public:
  /// Reverse mode (__enzyme_autodiff) instead of forward mode.
  bool Reverse = false;
  /// Split mode: only the augmented sweep (__enzyme_augmentfwd), only the
  /// reverse sweep (__enzyme_reverse), or split forward mode's tangent
  /// sweep (__enzyme_fwdsplit).
  enum class Split { None, Augment, Reverse, Forward } SplitKind = Split::None;
  /// __enzyme_augmentfwd of a function whose tangents __enzyme_fwdsplit
  /// computes in this file: split forward mode's recording sweep.
  bool Recording = false;

public:
  ForwardCallLowering(const Request &R, SynthesisContext &Ctx)
      : R(R), Ctx(Ctx), Call(*R.Site), B(R.Site) {}

  bool run();

private:
  bool error(const Twine &Message) {
    Ctx.error(Call, Message);
    return false;
  }
  /// The next argument, or null (after an error) when there is none.
  Value *next(const Twine &What);
  /// Steps over the marker at Next (its load is erased with the call).
  /// The marker at argument Next (None past PrimalEnd or for a value),
  /// not consumed.
  Marker peekMarker(StringRef &Name) {
    if (Next >= PrimalEnd)
      return Marker::None;
    return markerOf(Call.getArgOperand(Next), Name);
  }
  /// Whether \p M is the activity of the parameter that follows it.
  bool isActivity(Marker M) const {
    return M == Marker::Dup || M == Marker::DupNoNeed || M == Marker::Const ||
           M == Marker::DupV || (M == Marker::Out && Reverse);
  }
  void consumeMarker() {
    if (auto *LI = dyn_cast<LoadInst>(Call.getArgOperand(Next)))
      MarkerLoads.insert(LI);
    ++Next;
  }
  /// The next shadow: the next argument, or in the interleaved form the
  /// next one after enzyme_interleave.
  Value *nextShadow(const Twine &What);
  /// Finds enzyme_interleave: the primals (with their activity markers)
  /// come before it, their shadows after it, in the same order.
  void findInterleave();
  /// \p V converted to \p To as a C variadic call would have promoted it.
  Value *convert(Value *V, Type *To, const Twine &What);
  bool parseGlobalMarker(Marker M, StringRef Name);
  /// The markers before a parameter's value: global ones, then at most
  /// one activity (None if there is none).
  bool parseMarkers(Marker &Activity);
  bool parseParameter(Argument &Param, unsigned SourceNo);
  /// A by-value aggregate that the ABI passes as the two IR parameters
  /// \p Lo and \p Hi (ParamShapes.h): its value's halves come first, then
  /// each shadow's.
  bool parsePair(Argument &Lo, Argument &Hi, unsigned SourceNo);
  /// The next value of shape 'p' (its shadow if \p Shadow) as the IR types
  /// of \p Lo and \p Hi: two arguments, or one pointer to memory holding
  /// it.
  bool readPair(Argument &Lo, Argument &Hi, bool Shadow, const Twine &What,
                Value *&OutLo, Value *&OutHi);
  bool emitCall();
  /// Passes scratch shadows for the enzyme_const pointers whose memory the
  /// function overwrites with values that have derivatives and reads back
  /// (ScratchShadows.h); returns them, for release after the call.
  SmallVector<Value *, 2> addScratchShadows();
  /// Split forward mode's sweeps (ForwardSplit.cpp): the recording one
  /// (__enzyme_augmentfwd) and the tangent one (__enzyme_fwdsplit).
  bool emitRecording();
  bool emitForwardSplit();
  /// Global markers after the parameters (enzyme_allocated, enzyme_tape,
  /// ...), which Enzyme accepts anywhere in the call.
  bool parseTrailingMarkers();
  /// __enzyme_reverse's adjoint of a floating-point result of type \p T:
  /// one value per lane (W values at width W), into SeedArg.
  bool parseSeeds(Type *T);

  const Request &R;
  SynthesisContext &Ctx;
  CallBase &Call;
  IRBuilder<> B;
  unsigned Next = 1;
  /// The interleaved form: where the primals end (at enzyme_interleave),
  /// the next shadow after it, and the activity marker in force (it holds
  /// until the next one).
  unsigned PrimalEnd = 0, ShadowNext = 0;
  Marker Sticky = Marker::None;
  /// enzyme_const_return or enzyme_noret: the result has no derivative.
  bool ConstantResult = false;
  /// Reverse mode with enzyme_primal_return: the result is {primal,
  /// adjoints...} (Enzyme's `ReverseWithPrimal`).
  bool PrimalResult = false;
  /// enzyme_noret: the augmented sweep's result is not returned.
  bool NoReturn = false;
  Value *SRet = nullptr;
  DerivativeKey Key;
  SmallVector<Value *, 16> Args;
  SmallPtrSet<Instruction *, 8> MarkerLoads;
  /// The pointer parameters passed enzyme_const: the parameter, and the
  /// places of its value in Args and of its activity in Key.Args.
  struct ConstantPointer {
    unsigned ArgNo, ArgsIndex, KeyIndex;
  };
  SmallVector<ConstantPointer, 4> ConstantPointers;
  /// Split reverse mode: the tape handle and the adjoint of the result.
  Value *TapeArg = nullptr;
  Value *SeedArg = nullptr;
  /// enzyme_nofree: split forward mode's records stay for another
  /// __enzyme_fwdsplit.
  bool KeepRecords = false;
};

Value *ForwardCallLowering::next(const Twine &What) {
  if (Next >= PrimalEnd) {
    error("too few arguments to " + entryPointName(R.Kind) + " for '" +
          R.Primal->getName() + "': missing " + What +
          (PrimalEnd < Call.arg_size() ? " before enzyme_interleave" : ""));
    return nullptr;
  }
  return Call.getArgOperand(Next++);
}

Value *ForwardCallLowering::nextShadow(const Twine &What) {
  if (!ShadowNext)
    return next(What);
  if (ShadowNext >= Call.arg_size()) {
    error("too few arguments to " + entryPointName(R.Kind) + " for '" +
          R.Primal->getName() + "': missing " + What +
          " after enzyme_interleave");
    return nullptr;
  }
  return Call.getArgOperand(ShadowNext++);
}

void ForwardCallLowering::findInterleave() {
  PrimalEnd = Call.arg_size();
  for (unsigned I = Next; I < Call.arg_size(); ++I) {
    StringRef Name;
    if (markerOf(Call.getArgOperand(I), Name) != Marker::Interleave)
      continue;
    if (auto *LI = dyn_cast<LoadInst>(Call.getArgOperand(I)))
      MarkerLoads.insert(LI);
    PrimalEnd = I;
    ShadowNext = I + 1;
    return;
  }
}

Value *ForwardCallLowering::convert(Value *V, Type *To, const Twine &What) {
  if (Value *C = convertArgument(B, V, To))
    return C;
  error(What + " of '" + R.Primal->getName() + "' has type " +
        typeName(V->getType()) + ", but the function expects " + typeName(To));
  return nullptr;
}

bool ForwardCallLowering::parseGlobalMarker(Marker M, StringRef Name) {
  switch (M) {
  case Marker::Width: {
    Value *W = next("the width after enzyme_width");
    if (!W)
      return false;
    auto *C = dyn_cast<ConstantInt>(W);
    if (!C || C->isZero() || C->getValue().ugt(64))
      return error("enzyme_width must be followed by a constant between 1 "
                   "and 64");
    Key.Width = unsigned(C->getZExtValue());
    return true;
  }
  case Marker::PrimalReturn:
    // (The augmented sweep returns the primal anyway.)
    if (Reverse)
      PrimalResult = SplitKind == Split::None;
    else
      Key.ReturnPrimal = true;
    return true;
  case Marker::ConstReturn:
    Key.ReturnPrimal = true;
    Key.ReturnShadow = false;
    ConstantResult = true;
    return true;
  case Marker::NoRet:
    // As in Enzyme: __enzyme_augmentfwd returns neither the result nor its
    // shadow; elsewhere the result's derivative is still returned (forward)
    // or seeded (reverse).
    NoReturn = true;
    return true;
  case Marker::Interleave:
    return error("enzyme_interleave may appear only once in a call");
  case Marker::Allocated: {
    // Enzyme's caller-allocated tape: adcc's records live on the runtime's
    // tape, and the buffer holds the handle to them.
    Value *Size = next("the size after enzyme_allocated");
    if (!Size)
      return false;
    unsigned Need = tapeHandleSize(*Call.getModule());
    auto *C = dyn_cast<ConstantInt>(Size);
    if (C && C->getValue().ult(Need))
      return error("the tape buffer of enzyme_allocated has " +
                   Twine(C->getZExtValue()) + " bytes; adcc needs " +
                   Twine(Need) + " (what __enzyme_augmentsize returns)");
    return true;
  }
  case Marker::Tape:
    TapeArg = next("the tape after enzyme_tape");
    return TapeArg != nullptr;
  case Marker::NoFree:
    KeepRecords = true;
    return true;
  case Marker::Out:
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  case Marker::RuntimeActivity:
    return error("enzyme_runtime_activity is not supported by adcc: its "
                 "derivatives are compiled for shadows that are separate "
                 "memory from their primals; pass a separate shadow (or the "
                 "argument with enzyme_const)");
  case Marker::Unknown:
    return error("unknown Enzyme marker '" + Name + "'");
  default:
    return error("marker '" + Name + "' is not valid here");
  }
}

bool ForwardCallLowering::parseMarkers(Marker &Activity) {
  Activity = Marker::None;
  StringRef Name;
  for (Marker M; (M = peekMarker(Name)) != Marker::None;) {
    consumeMarker();
    if (isActivity(M)) {
      Activity = M;
      if (ShadowNext)
        Sticky = M;
      break;
    }
    if (!parseGlobalMarker(M, Name))
      return false;
  }
  if (Activity == Marker::None)
    Activity = Sticky;
  return true;
}

bool ForwardCallLowering::parseParameter(Argument &Param, unsigned SourceNo) {
  Type *T = Param.getType();
  std::string Which = ("argument " + Twine(SourceNo + 1)).str();
  Marker Activity;
  if (!parseMarkers(Activity))
    return false;

  if (Activity == Marker::Out && !Reverse)
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  if (Activity == Marker::None) {
    if (T->isIntegerTy())
      Activity = Marker::Const;
    else if (Reverse && T->isFPOrFPVectorTy())
      Activity = Marker::Out;
    else
      Activity = Marker::Dup;
  }
  if (Reverse && Activity == Marker::Out && !T->isFPOrFPVectorTy())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 "; enzyme_out is for floating-point values (use enzyme_dup "
                 "for pointers)");
  if (Reverse && (Activity == Marker::Dup || Activity == Marker::DupNoNeed) &&
      !T->isPointerTy())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 "; in reverse mode enzyme_dup is for pointers, a "
                 "floating-point value is passed with enzyme_out");
  if ((Activity == Marker::Dup || Activity == Marker::DupV) &&
      !T->isFPOrFPVectorTy() && !T->isPointerTy() && !T->isAggregateType())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 ", which carries no derivative; pass it with enzyme_const");

  // enzyme_dupv, stride, primal, base: shadow k is at base + k * stride
  // bytes (the shadows of a batch laid out in one array).
  Value *Stride = nullptr;
  if (Activity == Marker::DupV &&
      !(Stride = next("the byte stride after enzyme_dupv")))
    return false;
  if (Stride && !Stride->getType()->isIntegerTy())
    return error("enzyme_dupv must be followed by an integer byte stride");

  Value *Primal = next("the value of " + Which);
  if (!Primal || !(Primal = convert(Primal, T, Which)))
    return false;
  if (Activity == Marker::DupNoNeed && isConstantAddress(Primal))
    Primal = makeNoPrimalMemory(B);
  Args.push_back(Primal);
  if (Activity == Marker::Const) {
    if (T->isPointerTy())
      ConstantPointers.push_back({Param.getArgNo(), unsigned(Args.size() - 1),
                                  unsigned(Key.Args.size())});
    Key.Args.push_back(ArgActivity::Const);
    return true;
  }
  if (Activity == Marker::Out) {
    Key.Args.push_back(ArgActivity::Active);
    return true;
  }
  Key.Args.push_back(Activity == Marker::DupNoNeed ? ArgActivity::DupNoNeed
                                                   : ArgActivity::Dup);
  Value *Base = nullptr;
  if (Stride) {
    Base = nextShadow("the shadow array of " + Which);
    if (!Base)
      return false;
    if (!Base->getType()->isPointerTy())
      return error("the shadows of " + Which +
                   " after enzyme_dupv must be "
                   "given as a pointer to their array");
    Stride = B.CreateSExtOrTrunc(Stride, B.getInt64Ty());
  }
  for (unsigned L = 0; L < Key.Width; ++L) {
    Value *S;
    if (Base) {
      Value *Addr =
          B.CreateGEP(B.getInt8Ty(), Base, B.CreateMul(Stride, B.getInt64(L)));
      S = T->isPointerTy() ? Addr : B.CreateLoad(T, Addr);
    } else {
      S = nextShadow("the shadow of " + Which);
      if (!S || !(S = convert(S, T, "the shadow of " + Which)))
        return false;
    }
    Args.push_back(S);
    // (A shadow struct the caller zeroes: its pointers may be null where
    // the primal's are not; reads through them give no derivative. Split
    // sweeps keep one key for both calls: not there.)
    if (T->isPointerTy() && SplitKind == Split::None && !Recording &&
        Param.getArgNo() < 64 && shadowMayHoldNullPointers(S, Call, Ctx))
      Key.NullReaching |= uint64_t(1) << Param.getArgNo();
  }
  return true;
}

bool ForwardCallLowering::readPair(Argument &Lo, Argument &Hi, bool Shadow,
                                   const Twine &What, Value *&OutLo,
                                   Value *&OutHi) {
  unsigned Index = Shadow && ShadowNext ? ShadowNext : Next;
  auto Take = [&]() { return Shadow ? nextShadow(What) : next(What); };
  if (pairArgumentCount(Call, Index) == 2) {
    Value *A = Take();
    Value *C = A ? Take() : nullptr;
    if (!C)
      return false;
    OutLo = convert(A, Lo.getType(), What);
    OutHi = OutLo ? convert(C, Hi.getType(), What) : nullptr;
    return OutHi != nullptr;
  }
  // Passed in memory (registers ran out at the call): the halves are its
  // eightbytes.
  Value *Mem = Take();
  if (!Mem)
    return false;
  if (!Mem->getType()->isPointerTy() ||
      !Call.paramHasAttr(Index, Attribute::ByVal)) {
    error(What + " of '" + R.Primal->getName() + "' has type " +
          typeName(Mem->getType()) + ", but the function expects " +
          typeName(Lo.getType()) + " and " + typeName(Hi.getType()));
    return false;
  }
  OutLo = B.CreateLoad(Lo.getType(), Mem);
  OutHi = B.CreateLoad(Hi.getType(),
                       B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Mem, 8));
  return true;
}

bool ForwardCallLowering::parsePair(Argument &Lo, Argument &Hi,
                                    unsigned SourceNo) {
  std::string Which = ("argument " + Twine(SourceNo + 1)).str();
  Marker Activity;
  if (!parseMarkers(Activity))
    return false;
  auto IsFloat = [](Argument &A) { return A.getType()->isFPOrFPVectorTy(); };
  auto IsPointer = [](Argument &A) { return A.getType()->isPointerTy(); };
  if (Activity == Marker::None) {
    if (IsFloat(Lo) || IsFloat(Hi))
      Activity = Reverse ? Marker::Out : Marker::Dup;
    else if (IsPointer(Lo) || IsPointer(Hi))
      Activity = Marker::Dup;
    else
      Activity = Marker::Const;
  }
  if (Activity == Marker::Out && !Reverse)
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  if (Activity == Marker::DupV)
    return error("enzyme_dupv is not supported for " + Which + " of '" +
                 R.Primal->getName() +
                 "', a struct or complex value passed by value; pass its "
                 "shadows one by one");
  bool Shadowed = Activity == Marker::Dup || Activity == Marker::DupNoNeed;
  if (Reverse && Shadowed && !IsPointer(Lo) && !IsPointer(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' is a struct or complex value passed by value; in reverse "
                 "mode enzyme_dup is for pointers, a floating-point value is "
                 "passed with enzyme_out");
  if (Activity == Marker::Out && !IsFloat(Lo) && !IsFloat(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' holds no floating-point value; enzyme_out is for "
                 "floating-point values");
  if (Shadowed && !IsFloat(Lo) && !IsFloat(Hi) && !IsPointer(Lo) &&
      !IsPointer(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' carries no derivative; pass it with enzyme_const");

  Value *PLo, *PHi;
  if (!readPair(Lo, Hi, /*Shadow=*/false, "the value of " + Which, PLo, PHi))
    return false;
  SmallVector<Value *, 8> SLo, SHi;
  if (Shadowed)
    for (unsigned L = 0; L < Key.Width; ++L) {
      Value *A, *C;
      if (!readPair(Lo, Hi, /*Shadow=*/true, "the shadow of " + Which, A, C))
        return false;
      SLo.push_back(A);
      SHi.push_back(C);
    }
  // Each half on its own: a half that holds an integer has no derivative.
  auto Half = [&](Argument &A, Value *Primal, ArrayRef<Value *> Shadows) {
    Args.push_back(Primal);
    bool Carries = IsFloat(A) || (Shadowed && IsPointer(A));
    if (Activity == Marker::Const || !Carries) {
      Key.Args.push_back(ArgActivity::Const);
      return;
    }
    if (Activity == Marker::Out) {
      Key.Args.push_back(ArgActivity::Active);
      return;
    }
    Key.Args.push_back(Activity == Marker::DupNoNeed ? ArgActivity::DupNoNeed
                                                     : ArgActivity::Dup);
    Args.append(Shadows.begin(), Shadows.end());
  };
  Half(Lo, PLo, SLo);
  Half(Hi, PHi, SHi);
  return true;
}

SmallVector<Value *, 2> ForwardCallLowering::addScratchShadows() {
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

bool ForwardCallLowering::emitRecording() {
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

bool ForwardCallLowering::emitForwardSplit() {
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

bool ForwardCallLowering::emitCall() {
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

bool ForwardCallLowering::parseTrailingMarkers() {
  StringRef Name;
  for (Marker M; (M = peekMarker(Name)) != Marker::None;) {
    if (isActivity(M))
      return error("marker '" + Name + "' after the last argument of '" +
                   R.Primal->getName() + "'");
    consumeMarker();
    if (M == Marker::Width)
      return error("enzyme_width must come before the arguments");
    if (!parseGlobalMarker(M, Name))
      return false;
  }
  return true;
}

bool ForwardCallLowering::parseSeeds(Type *T) {
  SmallVector<Value *, 8> Seeds;
  for (unsigned L = 0; L < Key.Width; ++L) {
    std::string What = "the adjoint of the result";
    if (Key.Width > 1)
      What += " in lane " + std::to_string(L);
    Value *S = next(What);
    if (!S || !(S = convert(S, T, What)))
      return false;
    Seeds.push_back(S);
  }
  SeedArg = Seeds[0];
  if (Key.Width > 1) {
    Value *Lanes = PoisonValue::get(ArrayType::get(T, Key.Width));
    for (unsigned L = 0; L < Key.Width; ++L)
      Lanes = B.CreateInsertValue(Lanes, Seeds[L], L);
    SeedArg = Lanes;
  }
  return parseTrailingMarkers();
}

bool ForwardCallLowering::run() {
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
    // for the caller to accumulate adjoints into before the reverse sweep.
    Type *Ret = F.getReturnType();
    Key.ReturnShadow = Ret->isFPOrFPVectorTy() ||
                       (SplitKind != Split::None &&
                        (Ret->isPointerTy() || isPointerAggregate(Ret)));
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
  // live as long as the call: NullShadowGuards.h. Not in split mode, whose
  // sweeps run apart.)
  const Triple &TT = Call.getModule()->getTargetTriple();
  CallInst *Enter = nullptr;
  if (SplitKind == Split::None && isa<CallInst>(Call) && !TT.isNVPTX() &&
      !TT.isAMDGPU())
    Enter = enterNullShadowSession(B);
  if (!emitCall()) {
    if (Enter)
      Enter->eraseFromParent();
    return false;
  }
  if (Enter && !usesNullShadowScratch(*Call.getModule())) {
    Enter->eraseFromParent();
    Enter = nullptr;
  }
  if (Enter || !Scratch.empty()) {
    IRBuilder<> After(Call.getNextNode());
    if (Enter)
      leaveNullShadowSession(After);
    for (Value *Shadow : Scratch)
      endScratchShadow(After, Shadow);
  }
  Call.eraseFromParent();
  for (Instruction *I : MarkerLoads)
    if (I->use_empty())
      I->eraseFromParent();
  return true;
}

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
  ForwardCallLowering Lowering(R, Ctx);
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
  ForwardCallLowering Lowering(R, Ctx);
  Lowering.Reverse = true;
  Lowering.SplitKind = R.Kind == RequestKind::AugmentedForward
                           ? ForwardCallLowering::Split::Augment
                           : ForwardCallLowering::Split::Reverse;
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
  ForwardCallLowering Lowering(R, Ctx);
  Lowering.SplitKind = ForwardCallLowering::Split::Forward;
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

bool lowerReverseRequest(const Request &R, SynthesisContext &Ctx) {
  if (!hasBody(R, Ctx))
    return false;
  ForwardCallLowering Lowering(R, Ctx);
  Lowering.Reverse = true;
  Ctx.setRequestSite(R.Site);
  bool Done = Lowering.run();
  Ctx.setRequestSite(nullptr);
  return Done;
}

} // namespace adcore
