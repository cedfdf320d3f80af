//===- ForwardCalls.cpp - Calls: math rules, intrinsics, user functions --===//
//
//   f(a, b) with a rule  ->  sum over arguments of  df/dx_i * t(x_i)
//   user function g       ->  a call to g's forward derivative, generated
//                             with the activities of this call's arguments
//   malloc / new          ->  a zeroed shadow block of the same size
//   free / delete         ->  frees the shadow block too
//
//===----------------------------------------------------------------------===//

#include "rules/CheckpointRuntime.h"
#include "analysis/LibraryObjects.h"
#include "analysis/PackedFloatResults.h"
#include "support/CallSites.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ScratchShadows.h"
#include "ForwardEmitter.h"
#include "prepare/Prepare.h"

#include "rules/GpuLaunches.h"
#include "rules/InactiveFunctions.h"
#include "rules/WarpShuffles.h"
#include "device/DeviceCode.h"
#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"
#include "rules/MirroredFunctions.h"
#include "rules/BlasRules.h"
#include "rules/MpiRules.h"
#include "rules/OpenMPRuntime.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool ForwardEmitter::plainUserCall(const CallBase &Call) const {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
      Callee->isIntrinsic() || Call.isInlineAsm() || Key.Split ||
      Key.ErrorEstimate)
    return false;
  auto *F = const_cast<Function *>(Callee);
  const CustomRules &Rules = Ctx.rules();
  return !isScratchShadowBegin(*F) && !isMpiRuleFunction(*F) &&
         !isBlasRuleFunction(*F) && !F->hasFnAttribute(UsesTapeAttribute) &&
         !Rules.isInactive(F) && !Rules.splitDerivative(F) &&
         !Rules.forwardDerivative(F) && !findMathRule(*F) &&
         Rules.functionLike(F).empty() &&
         classifyMemoryFunction(*F) == MemoryFunctionKind::None &&
         !isKnownInactiveFunction(*F) && !isShadowMirroredFunction(*F) &&
         !isTangentMirroredMarkFunction(*F) && !complexRuntimeBody(*F) &&
         nestedCheckpointMessage(*F).empty() &&
         classifyOpenMPCall(*F) != OpenMPCall::Fork &&
         blasCallError(*F).empty();
}

bool ForwardEmitter::visitCallBase(CallBase &Call) {
  // (Shadows with the lanes side by side go only to derivatives made for
  // them: interleavedElementType asked plainUserCall.)
  auto PassesInterleaved = [&] {
    return any_of(Call.args(),
                  [&](const Use &U) { return Interleaved.contains(U.get()); });
  };
  if (Width > 1 && !isa<IntrinsicInst>(Call) && PassesInterleaved() &&
      !plainUserCall(Call))
    return unsupported(Call, "internal error: a shadow holding its lanes "
                             "side by side reaches a call without a "
                             "derivative made for it");
  Function *Direct = Call.getCalledFunction();
  if (Direct && isScratchShadowBegin(*Direct))
    return unsupported(Call, ScratchShadowNestedError);
  if (std::string Mpi = mpiCallError(Call); !Mpi.empty())
    return unsupported(Call, Mpi);
  if (Key.Split && Direct && isMpiRuleFunction(*Direct))
    return unsupported(Call, "split forward mode of MPI calls is not "
                             "supported (the tangent sweep would send the "
                             "messages again); use __enzyme_fwddiff");
  // (An MPI message carries its tangent on every rank, active or not here,
  // so that the ranks post the same messages.)
  bool Involved =
      isAnalyzedActive(&Call) ||
      any_of(Call.args(), [&](const Use &U) { return isActive(U.get()); }) ||
      (Direct && (Direct->hasFnAttribute(UsesTapeAttribute) ||
                  isMpiRuleFunction(*Direct)));
  if (!Involved)
    return true;
  if (Direct && isBlasRuleFunction(*Direct) &&
      (Key.Split ? !Ctx.rules().splitDerivative(Direct) : Width != 1))
    return unsupported(Call, blasModeError(*Direct, Key.Split));
  if (Call.isInlineAsm())
    return unsupported(Call, "inline assembly cannot be differentiated; move "
                             "it into a function with a custom derivative");
  if (Key.Split && Direct && Direct->hasFnAttribute(UsesTapeAttribute))
    return unsupported(Call, "split forward mode of code that itself runs "
                             "reverse sweeps is not supported; use "
                             "__enzyme_fwddiff");
  if (auto *II = dyn_cast<IntrinsicInst>(&Call))
    return emitIntrinsicCall(*II);

  Function *Callee = Call.getCalledFunction();
  if (!Callee && Key.Split && isa<InvokeInst>(Call))
    return unsupported(Call, "split forward mode does not support calls "
                             "through function pointers that may throw; "
                             "declare the function type noexcept");
  // (A virtual function of a library stream or stream buffer: inactive, as
  // the class's direct calls are.)
  if (!Callee && isInactiveLibraryVirtualCall(Call))
    return true;
  if (!Callee)
    return emitIndirectCall(Call);
  // (The scratch shadow behind a null shadow pointer, in a reverse sweep
  // differentiated again: where the shadow was null, the tangent of the
  // scratch is the scratch shadow of the scratch's own address, as where
  // the scratch is read back from a tape record, else the shadow's
  // tangent. A shadow stored back: null where it was stripped,
  // else the shadow's tangent.)
  if (isNullShadowScratch(*Callee) || isNullShadowStrip(*Callee)) {
    if (Width != 1)
      return unsupported(Call, "batched forward mode over reverse mode");
    Value *Null = Constant::getNullValue(Call.getType());
    Value *T = tangentOrNull(Call.getArgOperand(0));
    if (!T)
      T = Null;
    if (isNullShadowStrip(*Callee))
      setTangent(&Call, B.CreateSelect(B.CreateIsNull(&Call), Null, T));
    else
      setTangent(&Call, B.CreateSelect(
                            B.CreateIsNull(Call.getArgOperand(0)),
                            nullShadowOrScratch(
                                B, Null, &Call,
                                forwardScratchLane(0, Key.ScratchLevel)),
                            T));
    return true;
  }
  // (The marks of pointers' shadows in a reverse sweep differentiated
  // again: the tangents of the shadow bytes they restore are restored too,
  // else the tangent of a link's shadow is read as an adjoint's.)
  if (isTangentMirroredMarkFunction(*Callee)) {
    for (unsigned L = 0; L < Width; ++L)
      mirrorPointerMarkCall(B, Call, [&](Value *V) -> Value * {
        Value *T = tangentOrNull(V);
        return T ? lane(T, L) : nullptr;
      });
    return true;
  }
  const CustomRules &Rules = Ctx.rules();
  if (Rules.isInactive(Callee))
    return true;
  if (const CustomSplitDerivative *Split = Rules.splitDerivative(Callee);
      Split && Key.Split)
    return emitCustomSplit(Call, *Split);
  // (A launch giving a pointer the kernel writes through no tangent.)
  if (int No = writtenWithoutShadow(
          Call, *Callee,
          [&](const Value *V) { return tangentOrNull(const_cast<Value *>(V)); });
      No >= 0)
    return unsupported(Call, launchWithoutShadowError(*Callee, No));
  if (Function *Custom = Rules.forwardDerivative(Callee)) {
    if (Key.ErrorEstimate)
      return unsupported(Call, "the registered derivative of '" +
                                   Callee->getName() +
                                   "' gives tangents, not error estimates");
    return emitCustomForward(Call, *Custom);
  }
  if (const MathRule *Rule = findMathRule(*Callee))
    return emitMathCall(Call, *Rule);
  std::string Like = Rules.functionLike(Callee);
  if (!Like.empty()) {
    if (const MathRule *Rule = findMathRule(Like))
      return emitMathCall(Call, *Rule);
    return unsupported(Call, "__enzyme_function_like names '" + Like +
                                 "', which is not a math function adcc "
                                 "knows");
  }
  MemoryFunctionKind Kind = classifyMemoryFunction(*Callee);
  if (Kind != MemoryFunctionKind::None)
    return emitMemoryFunctionCall(Call, unsigned(Kind));
  if (isKnownInactiveFunction(*Callee)) {
    if (OverrideReach Reach = callsProgramOverrides(
            Call, [&](const Value *V) { return isActive(V); });
        Reach != OverrideReach::None)
      return unsupported(
          Call, programOverridesError(Reach, Ctx.displayName(*Callee)));
    return true;
  }
  if (isShadowMirroredFunction(*Callee))
    return emitMirroredCall(Call);
  if (Function *Body = complexRuntimeBody(*Callee))
    return emitUserCall(Call, *Body);
  if (Key.ErrorEstimate && Callee->isDeclaration())
    return unsupported(Call, "no error estimation rule for '" +
                                 Callee->getName() +
                                 "', whose body is not in this translation "
                                 "unit");
  if (std::string Nested = nestedCheckpointMessage(*Callee); !Nested.empty())
    return unsupported(Call, Nested);
  if (classifyOpenMPCall(*Callee) == OpenMPCall::Fork)
    return emitForkCall(Call);
  // (The runtime of reverse regions, ReverseOpenMP.cpp: its calls are in a
  // reverse sweep differentiated again. The region handles, the threads'
  // tapes, the turns of ordered critical sections and the overlap checks
  // carry no derivative: they run as they are, and each shadow record goes
  // on the tape of the thread that pushes its record. The per-thread
  // copies of adjoints (ThreadAdjoints.cpp) get copies of their tangents.)
  if (Callee->getName().starts_with("adcc_parallel_"))
    return true;
  if (Callee->getName().starts_with("adcc_thread_adjoints"))
    return emitThreadAdjointsCall(Call);
  if (std::string Blas = blasCallError(*Callee); !Blas.empty())
    return unsupported(Call, Blas);
  // (A function of another file: its derivative is made at link time.)
  if (Callee->isDeclaration() && !Ctx.defers(*Callee))
    return unsupported(
        Call, missingBodyMessage(*Callee, "__enzyme_register_derivative_"));
  return emitUserCall(Call, *Callee);
}

/// A registered forward derivative (__enzyme_register_derivative_f) takes
/// f's parameters, each floating-point or pointer one followed by its
/// tangent/shadow, and returns the tangent of f's result, or {primal,
/// tangent}. With a tangent-only result the primal call stays.
bool ForwardEmitter::emitCustomForward(CallBase &Call, Function &Registered) {
  // A warp shuffle is linear in its value: each direction's tangent is
  // that direction's tangent shuffled the same way, by the width-1 rule.
  // (Every lane of the warp runs the same calls in the same order, as
  // convergent code must.)
  if (Width > 1 && isWarpShuffleRule(Registered) &&
      !Call.getType()->isVoidTy() && !isa<InvokeInst>(Call)) {
    setTangent(&Call, forEachLane(Call.getType(), [&](unsigned L) -> Value * {
                 SmallVector<Value *, 6> Args;
                 for (Use &U : Call.args()) {
                   Args.push_back(U.get());
                   if (canCarryDerivative(U.get()->getType()))
                     Args.push_back(lane(tangent(U.get()), L));
                 }
                 return B.CreateCall(&Registered, Args);
               }));
    return true;
  }
  Function *Batched = Width == 1 ? &Registered
                                 : Ctx.rules().batchedForwardDerivative(
                                       Call.getCalledFunction(), Width);
  if (!Batched || (Width > 1 && !Call.getType()->isVoidTy())) {
    return unsupported(Call, "the registered derivative '" +
                                 Registered.getName() +
                                 "' has no batched (width > 1) form");
  }
  Function &Custom = *Batched;
  // (A batched one, which the engine registers, takes each lane's.)
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (canCarryDerivative(U.get()->getType()))
      for (unsigned L = 0; L < Width; ++L)
        Args.push_back(Width == 1 ? tangent(U.get())
                                  : lane(tangent(U.get()), L));
  }
  FunctionType *FT = Custom.getFunctionType();
  bool Match = FT->getNumParams() == Args.size();
  for (unsigned I = 0; Match && I < Args.size(); ++I)
    Match = FT->getParamType(I) == Args[I]->getType();
  Type *RetTy = Call.getType();
  // (A named struct of the two, as device targets return a C struct.)
  auto *PairTy = dyn_cast<StructType>(FT->getReturnType());
  bool Pair = !RetTy->isVoidTy() && PairTy &&
              PairTy->isLayoutIdentical(StructType::get(RetTy, RetTy));
  if (!Match || (!Pair && FT->getReturnType() != RetTy))
    return unsupported(Call, "the registered derivative '" + Custom.getName() +
                                 "' does not have the expected signature "
                                 "(each floating-point or pointer parameter "
                                 "followed by its tangent; returning the "
                                 "tangent or {primal, tangent})");
  SmallVector<Value *, 16> Copy(Args);
  if (RetTy->isVoidTy() && Key.Split)
    return unsupported(Call, "the registered derivative '" + Custom.getName() +
                                 "' of a function without a result does the "
                                 "primal's work too, which split forward "
                                 "mode must not repeat; register a split "
                                 "derivative (__enzyme_register_"
                                 "splitderivative_)");
  CallBase *D = emitReplacementCall(B, Call, &Custom, Copy);
  if (RetTy->isVoidTy()) {
    // The registered derivative does the primal's work too.
    Dead.push_back(&Call);
    return true;
  }
  if (Pair) {
    Value *Primal = B.CreateExtractValue(D, 0);
    Call.replaceAllUsesWith(Primal);
    setTangent(Primal, B.CreateExtractValue(D, 1));
    Dead.push_back(&Call);
    return true;
  }
  if (isa<InvokeInst>(Call)) {
    // The primal invoke was replaced; run the primal again for its value.
    Value *Primal =
        B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(),
                     SmallVector<Value *, 8>(Call.args()));
    Call.replaceAllUsesWith(Primal);
    setTangent(Primal, D);
    Dead.push_back(&Call);
    return true;
  }
  setTangent(&Call, D);
  return true;
}

bool ForwardEmitter::emitMirroredCall(CallBase &Call) {
  // Every pointer argument needs a shadow, or none has one.
  bool Any;
  std::string Error = checkMirroredCall(
      Call, [&](Value *A) { return tangentOrNull(A) != nullptr; }, Any);
  if (!Error.empty())
    return unsupported(Call, Error);
  if (!Any)
    return true;
  SmallVector<Value *, 4> Shadows;
  for (Value *A : Call.args())
    Shadows.push_back(A->getType()->isPointerTy() ? tangentOrNull(A) : nullptr);
  // (A step from a node whose shadow may be null: a constant map's.)
  bool Guarded = isMirroredStep(*Call.getCalledFunction()) &&
                 nullable(Call.getArgOperand(0));
  Value *Result = forEachLane(Call.getType(), [&](unsigned L) -> Value * {
    if (Guarded)
      return emitNullableMirroredStep(B, Call, lane(Shadows[0], L), L);
    SmallVector<Value *, 4> Args;
    for (auto [A, S] : zip(Call.args(), Shadows))
      Args.push_back(S ? lane(S, L) : A.get());
    return B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  });
  if (!Call.getType()->isVoidTy())
    setTangent(&Call, Result);
  return true;
}

bool ForwardEmitter::emitMathCall(CallBase &Call, const MathRule &Rule) {
  if (Key.ErrorEstimate)
    return emitErrorMathCall(Call, Rule);
  SmallVector<Value *, MaxMathArgs> Args(Call.args());
  if (isa<FPMathOperator>(Call))
    B.setFastMathFlags(Call.getFastMathFlags());
  // fma(a, b, c) with a and b powers of one x: d(a b) = Factor Other dx
  // (PowerRule.h), then dc.
  std::optional<Value *> Power;
  if (Rule.Intrinsic == Intrinsic::fma || Rule.Intrinsic == Intrinsic::fmuladd)
    Power = powerRuleTangent(Args[0], Args[1]);
  // Partials are computed once and shared by all lanes.
  SmallVector<std::pair<Value *, Value *>, MaxMathArgs> Terms;
  for (unsigned I = Power ? 2 : 0; I < Rule.NumArgs && I < Args.size(); ++I) {
    Value *T = tangentOrNull(Args[I]);
    if (!T || !Rule.Partials[I])
      continue;
    // cos x for sin x: from the primal's own call when it makes one (in
    // split mode, not moved across records: MathCompanions.cpp).
    bool Negate = false;
    if (CallInst *C = companionCall(
            Call, Rule.Name, Negate,
            [&](const CallInst &C) {
              return !Ctx.rules().forwardDerivative(C.getCalledFunction());
            },
            Key.Split ? CompanionMove::KeepRecordOrder
                      : CompanionMove::AcrossMath)) {
      // (The tangent goes after a companion that follows the call.)
      if (Call.comesBefore(C))
        B.SetInsertPoint(C->getNextNode());
      Terms.push_back({Negate ? B.CreateFNeg(C) : C, T});
      continue;
    }
    Terms.push_back({Rule.Partials[I](B, Args, &Call), T});
  }
  B.clearFastMathFlags();
  if (Power) {
    Value *TC = tangentOrNull(Args[2]);
    setTangent(&Call,
               !TC ? *Power : forEachLane(Call.getType(), [&](unsigned L) {
                 return B.CreateFAdd(lane(*Power, L), lane(TC, L));
               }));
    return true;
  }
  if (Terms.empty())
    return true;

  // Width N outside vectorizable loops: the partials times the tangents in
  // <N x T> vectors (ForwardLanes.cpp); a choice (fmin) stays a select of
  // each lane on one condition.
  if (Width > 1 && Call.getType()->isFloatingPointTy() &&
      Rule.Combine != MathCombine::Select &&
      VectorLaneBlocks.contains(Call.getParent())) {
    SmallVector<MathTerm, MaxMathArgs> VectorTerms;
    for (auto &[Partial, T] : Terms)
      VectorTerms.push_back(
          {B.CreateVectorSplat(Width, Partial), packLanes(T)});
    setTangent(&Call, unpackLanes(mathTangent(B, Rule, VectorTerms)));
    return true;
  }
  // A struct result (llvm.frexp) carries the derivative in its first field.
  Type *ValueTy = Call.getType();
  bool InStruct = ValueTy->isStructTy();
  if (InStruct)
    ValueTy = cast<StructType>(ValueTy)->getElementType(0);
  setTangent(&Call, forEachLane(Call.getType(), [&](unsigned L) -> Value * {
    SmallVector<MathTerm, MaxMathArgs> LaneTerms;
    for (auto &[Partial, T] : Terms)
      LaneTerms.push_back({Partial, lane(T, L)});
    Value *Tangent = mathTangent(B, Rule, LaneTerms);
    if (!InStruct)
      return Tangent;
    return B.CreateInsertValue(Constant::getNullValue(Call.getType()), Tangent,
                               0);
  }));
  return true;
}

bool ForwardEmitter::emitIntrinsicCall(IntrinsicInst &II) {
  if (const MathRule *Rule = findMathRule(*II.getCalledFunction()))
    return emitMathCall(II, *Rule);
  // Integers only (llvm.smin of two sizes): no tangent. A barrier of a
  // thread block stays: tangents are written beside the values it orders.
  if (isKnownInactiveFunction(*II.getCalledFunction()) ||
      isDeviceBarrier(*II.getCalledFunction()) ||
      isBookkeepingIntrinsic(II.getIntrinsicID()))
    return true;
  if (Key.ErrorEstimate)
    return unsupported(II, "the intrinsic '" +
                               II.getCalledFunction()->getName() +
                               "' has no error estimation rule in adcc");
  switch (II.getIntrinsicID()) {
  case Intrinsic::modf:
  case Intrinsic::sincos: {
    // modf(x) = {frac, int}  ->  {t(x), 0};
    // sincos(x) = {sin, cos} ->  {cos t(x), -sin t(x)}
    Value *TX = tangentOrNull(II.getArgOperand(0));
    if (!TX)
      return true;
    bool Modf = II.getIntrinsicID() == Intrinsic::modf;
    Value *Sin = Modf ? nullptr : B.CreateExtractValue(&II, 0);
    Value *Cos = Modf ? nullptr : B.CreateExtractValue(&II, 1);
    setTangent(&II, forEachLane(II.getType(), [&](unsigned L) -> Value * {
      Value *T = lane(TX, L);
      Value *Zero = Constant::getNullValue(T->getType());
      Value *First = Modf ? T : B.CreateFMul(Cos, T);
      Value *Second = Modf ? Zero : B.CreateFNeg(B.CreateFMul(Sin, T));
      Value *R = B.CreateInsertValue(PoisonValue::get(II.getType()), First, 0);
      return B.CreateInsertValue(R, Second, 1);
    }));
    return true;
  }
  case Intrinsic::vector_reduce_fadd: {
    // reduce(start, v) = start + sum v  ->  t(start) + sum t(v)
    Value *TS = tangentOrNull(II.getArgOperand(0));
    Value *TV = tangentOrNull(II.getArgOperand(1));
    B.setFastMathFlags(II.getFastMathFlags());
    setTangent(&II, forEachLane(II.getType(), [&](unsigned L) -> Value * {
      Value *Start =
          TS ? lane(TS, L) : ConstantFP::getNegativeZero(II.getType());
      if (!TV)
        return Start;
      return B.CreateFAddReduce(Start, lane(TV, L));
    }));
    B.clearFastMathFlags();
    return true;
  }
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum: {
    // The derivative of the chosen element: the first lane equal to the
    // result.
    Value *V = II.getArgOperand(0);
    Value *TV = tangentOrNull(V);
    auto *VT = dyn_cast<FixedVectorType>(V->getType());
    if (!TV)
      return true;
    if (!VT)
      return unsupported(II, "reductions of scalable vectors");
    Value *Hit =
        B.CreateFCmpOEQ(V, B.CreateVectorSplat(VT->getNumElements(), &II));
    setTangent(&II, forEachLane(II.getType(), [&](unsigned L) -> Value * {
      Value *Acc = Constant::getNullValue(II.getType());
      for (unsigned I = VT->getNumElements(); I-- > 0;)
        Acc = B.CreateSelect(B.CreateExtractElement(Hit, I),
                             B.CreateExtractElement(lane(TV, L), I), Acc);
      return Acc;
    }));
    return true;
  }
  default:
    return unsupported(II,
                       "the intrinsic '" + II.getCalledFunction()->getName() +
                           "' is not supported yet" +
                           unsupportedIntrinsicAdvice(*II.getCalledFunction()));
  }
}

bool ForwardEmitter::emitMemoryFunctionCall(CallBase &Call, unsigned K) {
  auto Kind = MemoryFunctionKind(K);
  if (Kind == MemoryFunctionKind::TapePush ||
      Kind == MemoryFunctionKind::TapePop) {
    // Forward mode over a reverse sweep (Hessian-vector products): each
    // tape record gets a shadow record right after it; being LIFO, the
    // shadow is popped before its record.
    if (Width != 1)
      return unsupported(Call, "batched forward mode over reverse mode");
    if (Kind == MemoryFunctionKind::TapePop)
      B.SetInsertPoint(&Call);
    SmallVector<Value *, 3> Args(Call.args());
    setTangent(&Call,
               B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(),
                            Args, "record.shadow"));
    return true;
  }
  if (Kind == MemoryFunctionKind::AdjointCopy) {
    // Linear in the memory it reads and writes (forward mode over a
    // reverse sweep): the same on the tangents; without a tangent the
    // source's is left alone and the destination's cleared.
    // (The strided form clears with a null source.)
    Value *TD = tangentOrNull(Call.getArgOperand(0));
    Value *TS = tangentOrNull(Call.getArgOperand(1));
    bool Strided = Call.arg_size() == 4;
    for (unsigned L = 0; TD && L < Width; ++L) {
      if (TS || Strided) {
        SmallVector<Value *, 4> Args(Call.args());
        Args[0] = lane(TD, L);
        Args[1] = TS ? lane(TS, L) : Constant::getNullValue(B.getPtrTy());
        B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
        continue;
      }
      B.CreateMemSet(lane(TD, L), B.getInt8(0), Call.getArgOperand(2),
                     MaybeAlign());
    }
    return true;
  }
  if (isDeallocation(Kind)) {
    // The shadow block is freed with the same call (a registered
    // deallocator's other arguments as the program passes them).
    unsigned Block = freedPointerArg(*Call.getCalledFunction());
    Value *S = tangentOrNull(Call.getArgOperand(Block));
    if (!S)
      return true;
    // (Not a scratch shadow behind a null shadow pointer, which no
    // allocator gave: the tangent of a std::string's data pointer read
    // from a null tangent; e2e compat_string_maps.cpp in a session.)
    bool MayBeScratch = nullable(Call.getArgOperand(Block));
    for (unsigned L = 0; L < Width; ++L) {
      SmallVector<Value *, 3> Args(Call.args());
      Args[Block] = MayBeScratch ? strippedNullShadow(B, lane(S, L))
                                 : lane(S, L);
      B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
    }
    return true;
  }
  // The shadow block is allocated once the primal allocation succeeded.
  positionAfterCall(B, Call);
  Value *Old = Kind == MemoryFunctionKind::Realloc
                   ? tangent(Call.getArgOperand(0))
                   : nullptr;
  // (A realloc of a block whose tangent may be null or a scratch shadow:
  // a fresh tangent block, zeroed.)
  bool OldMayBeScratch = Old && nullable(Call.getArgOperand(0));
  setTangent(&Call, forEachLane(Call.getType(), [&](unsigned L) -> Value * {
    SmallVector<Value *, 3> Args(Call.args());
    if (Old)
      Args[0] = OldMayBeScratch ? strippedNullShadow(B, lane(Old, L))
                                : lane(Old, L);
    CallInst *S = B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(),
                               Args, Call.getName() + ".shadow");
    S->setAttributes(Call.getAttributes());
    if (OldMayBeScratch)
      guardedShadowClear(
          B,
          B.CreateSelect(B.CreateIsNull(Args[0]), S,
                         Constant::getNullValue(S->getType())),
          Call.getArgOperand(1));
    // Fresh shadow memory holds zero derivatives.
    if (Kind == MemoryFunctionKind::Malloc)
      B.CreateMemSet(S, B.getInt8(0), Call.getArgOperand(0), MaybeAlign());
    else if (Kind == MemoryFunctionKind::AlignedAlloc)
      B.CreateMemSet(S, B.getInt8(0), Call.getArgOperand(1), MaybeAlign());
    else if (Kind == MemoryFunctionKind::AllocationLike)
      B.CreateMemSet(S, B.getInt8(0),
                     Call.getArgOperand(
                         allocationSizeArg(*Call.getCalledFunction())),
                     MaybeAlign());
    return S;
  }));
  return true;
}

bool ForwardEmitter::duplicatedArgument(const Value *V) const {
  // (A stack slot that never holds a derivative goes without a shadow: the
  // closure of a request made inside code differentiated again, whose
  // pointers to constant data had null shadows there.)
  return (isActive(V) && !CleanSlotClones.contains(V)) ||
         isa<ConstantPointerNull>(V);
}

DerivativeKey ForwardEmitter::calleeKey(CallBase &Call, Function *Callee) {
  DerivativeKey K;
  K.Primal = Callee;
  K.Width = Width;
  K.Split = Key.Split;
  K.ErrorEstimate = Key.ErrorEstimate;
  K.ScratchLevel = Key.ScratchLevel;
  for (Use &U : Call.args())
    K.Args.push_back(
        duplicatedArgument(U.get())
            ? Unneeded.calleeActivity(U.get(), Callee, Call.getArgOperandNo(&U))
            : ArgActivity::Const);
  // (Pointer arguments whose tangents may be null: guarded in the callee.)
  NullableBits Bits = CalleeNullableBits.lookup(&Call);
  for (unsigned No = 0; No < K.Args.size() && No < 64; ++No)
    if (hasShadow(K.Args[No])) {
      K.NullableShadows |= Bits.Nullable & uint64_t(1) << No;
      K.NullReaching |= Bits.Reaching & uint64_t(1) << No;
    }
  // (Shadows with the lanes side by side: ForwardInterleaved.cpp.)
  for (unsigned No = 0; No < K.Args.size() && No < 64; ++No)
    if (hasShadow(K.Args[No]) && Interleaved.contains(Call.getArgOperand(No)))
      K.InterleavedArgs |= uint64_t(1) << No;
  // (A reverse sweep reading pointers the caller's augmented sweep
  // recorded with tangents that are never null.)
  if (Callee && !Callee->isDeclaration() && Width == 1)
    recordTangents(Call, *Callee, K);
  Type *RetTy = Call.getType();
  K.ReturnPrimal = !RetTy->isVoidTy();
  // (An integer holding a float's bits carries its tangent's bits.)
  // (A result nothing uses needs no tangent.)
  K.ReturnShadow =
      !RetTy->isVoidTy() && isAnalyzedActive(&Call) && !Call.use_empty() &&
      (canCarryDerivative(RetTy) || (Callee && returnsFloatBits(*Callee)));
  return K;
}

SmallVector<Value *, 16> ForwardEmitter::calleeArgs(CallBase &Call) {
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (!duplicatedArgument(U.get()))
      continue;
    Value *T = tangent(U.get());
    for (unsigned L = 0; L < Width; ++L)
      Args.push_back(lane(T, L));
  }
  if (Records)
    Args.push_back(Records);
  return Args;
}

void ForwardEmitter::replaceCall(CallBase &Call, Value *Result,
                                 const DerivativeKey &K) {
  Dead.push_back(&Call);
  if (Call.getType()->isVoidTy())
    return;
  Value *Primal = Result, *Shadow = nullptr;
  if (K.ReturnShadow) {
    Primal = B.CreateExtractValue(Result, 0);
    Shadow = B.CreateExtractValue(Result, 1);
  }
  Call.replaceAllUsesWith(Primal);
  // (What the type analysis says of the call is said of its result.)
  if (const Value *Original = PrimalOf.lookup(&Call))
    PrimalOf.try_emplace(Primal, Original);
  if (Shadow)
    setTangent(Primal, Shadow);
  if (nullable(&Call))
    NullableClones.insert(Primal);
}

bool ForwardEmitter::emitUserCall(CallBase &Call, Function &Callee) {
  if (Callee.isVarArg())
    return unsupported(Call, "calls to the variadic function '" +
                                 Callee.getName() + "'");
  if (Key.Split && Callee.isDeclaration())
    return unsupported(Call, "split forward mode needs the body of '" +
                                 Ctx.displayName(Callee) +
                                 "' in this translation unit");
  if (isa<StructType>(Call.getType()) && isAnalyzedActive(&Call) &&
      returnsFloatBitsInIntegerFields(Callee))
    return unsupported(Call, floatBitsInIntegerFieldsError(Ctx.displayName(
                                 Callee)));
  // (A word loaded whole: where its memory holds a float, at -O0.)
  auto IsActive = [&](const Value *V) {
    const auto *LI = dyn_cast<LoadInst>(V);
    const auto *P =
        LI ? dyn_cast_or_null<LoadInst>(PrimalOf.lookup(LI)) : nullptr;
    return isAnalyzedActive(V) &&
           (!LI || (P && (types().memoryKind(P->getPointerOperand(), 0) ==
                              Kind::Float ||
                          types().memoryKind(P->getPointerOperand(), 4) ==
                              Kind::Float)));
  };
  if (int No = packedFloatBitsArgument(Call, IsActive); No >= 0)
    return unsupported(
        Call, packedFloatBitsArgumentError(Ctx.displayName(Callee), No));
  DerivativeKey K = calleeKey(Call, &Callee);
  // (In device code, where no scratch shadow stands behind them: what the
  // callee writes through tangents that may be null, read back here, would
  // lose its tangent.)
  if (lacksNullShadowScratch(*Call.getModule()) &&
      callWritesBackThroughNullShadow(
          dyn_cast_or_null<CallBase>(PrimalOf.lookup(&Call)),
          K.NullableShadows, K.NullReaching, NullablePrimals))
    return unsupported(Call, DeviceNullShadowCallError);
  Function *D = Ctx.getOrCreate(K);
  if (!D)
    return false;
  if (Key.Split)
    SplitCallees[cast<Instruction>(PrimalOf.lookup(&Call))] = K;
  if (emitTaskCall(Call, *D, K))
    return true;
  SmallVector<Value *, 16> Args = calleeArgs(Call);
  CallBase *NewCall = emitReplacementCall(B, Call, D, Args);
  replaceCall(Call, NewCall, K);
  return true;
}

} // namespace adcore
