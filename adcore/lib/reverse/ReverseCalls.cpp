//===- ReverseCalls.cpp - Calls in the augmented sweep -------------------===//
//
// The reverse-mode treatment of calls: calls of functions of the module
// (their augmented sweep replaces them), allocations (shadow blocks), calls
// through function pointers (a dispatch to direct calls, before the
// augmented sweep is built) and calls of functions with a registered
// gradient (__enzyme_register_gradient_*).
//
//===----------------------------------------------------------------------===//

#include "rules/CheckpointRuntime.h"
#include "analysis/LinkedStores.h"
#include "analysis/PackedFloatResults.h"
#include "support/CallSites.h"
#include "support/DerivativeStops.h"
#include "support/OtherFileTargets.h"
#include "support/PointerTargets.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ScratchShadows.h"
#include "support/TapeLevels.h"
#include "ReverseEmitter.h"
#include "prepare/Prepare.h"

#include "adcore/CrossTU.h"
#include "rules/BlasRules.h"
#include "rules/CustomRules.h"
#include "rules/GpuLaunches.h"
#include "rules/InactiveFunctions.h"
#include "adcore/MemoryFunctions.h"
#include "rules/MirroredFunctions.h"
#include "rules/MpiRules.h"
#include "rules/OpenMPRuntime.h"
#include "rules/WarpShuffles.h"

#include "analysis/FrameWrites.h"
#include "analysis/LibraryObjects.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// A function that only links pointer structures (MirroredFunctions.h):
/// called again on the shadows, in every lane; nothing to reverse.
bool ReverseEmitter::augmentMirroredCall(CallBase &Call) {
  bool Any;
  std::string Error = checkMirroredCall(
      Call, [&](Value *A) { return shadowOrNull(A) != nullptr; }, Any);
  if (!Error.empty())
    return unsupported(Call, Error);
  if (!Any)
    return true;
  SmallVector<Value *, 4> Args(Call.args());
  positionAfterCall(AB, Call);
  // (A step from a node whose shadow may be null: a constant map's.)
  bool Guarded =
      isMirroredStep(*Call.getCalledFunction()) && nullable(Args[0]);
  for (unsigned L = 0; L < Width; ++L) {
    Lane = L;
    if (Guarded) {
      shadows()[&Call] = emitNullableMirroredStep(
          AB, Call, shadowOrNull(Args[0]),
          reverseScratchLane(L, Key.TapeLevel));
      continue;
    }
    SmallVector<Value *, 4> LaneArgs;
    for (Value *A : Args) {
      Value *S = A->getType()->isPointerTy() ? shadowOrNull(A) : nullptr;
      LaneArgs.push_back(S ? S : A);
    }
    CallInst *Shadow = AB.CreateCall(Call.getFunctionType(),
                                     Call.getCalledOperand(), LaneArgs);
    if (!Call.getType()->isVoidTy())
      shadows()[&Call] = Shadow;
  }
  Lane = 0;
  return true;
}

/// A call in the augmented sweep: math functions and inactive ones stay;
/// allocations get shadow blocks; a registered gradient's augmented
/// function, or the callee's own augmented sweep, replaces the call.
bool ReverseEmitter::augmentCall(CallBase &Call, bool &Replaced) {
  // (Every record of a reverse sweep differentiated again gets a shadow
  // block, whose address its pop finds next to it on the tape.)
  Function *Direct = Call.getCalledFunction();
  MemoryFunctionKind DK =
      Direct ? classifyMemoryFunction(*Direct) : MemoryFunctionKind::None;
  if (DK == MemoryFunctionKind::TapePush || DK == MemoryFunctionKind::TapePop)
    return augmentTapeRecord(Call, unsigned(DK));
  if (Direct && isScratchShadowBegin(*Direct))
    return unsupported(Call, ScratchShadowNestedError);
  if (Direct && (isNullShadowScratch(*Direct) || isNullShadowStrip(*Direct)))
    return augmentNullShadowScratch(Call);
  // An inner split augmented sweep whose reverse sweep runs after this
  // derivative returns would find this derivative's records, and leave its
  // own shadows, between its records (TapeLevels.h).
  if (Direct && isSplitMark(*Direct) &&
      !splitHandleChecked(Call, SplitHandleDepth))
    return unsupported(
        Call, "the reverse sweep (__enzyme_reverse) of an "
              "__enzyme_augmentfwd in '" +
                  Ctx.displayName(*Key.Primal) +
                  "' does not run within it, so not within its "
                  "derivative; run both sweeps inside the differentiated "
                  "function");
  if (std::string Mpi = mpiCallError(Call); !Mpi.empty())
    return unsupported(Call, Mpi);
  // (The end of a nested request's marks, in the reverse sweep
  // differentiated again: the outer shadows of the links it puts back are
  // stored back too, and undone where the outer reverse sweep passes it;
  // PointerShadowMarks.h. One lane: wider ones are refused at the marks.)
  if (Direct && isPointerMarksEndFunction(*Direct) && Width == 1 &&
      !DeviceCode) {
    IRBuilder<> Before(&Call);
    nestPointerShadowMarks(Before, Call, Key.TapeLevel);
    NestedMarkEnds.insert(&Call);
  }
  if (!checkDependenceWait(Call))
    return false;
  // (An MPI call's adjoint runs on every rank, active or not here, so that
  // the ranks post the same messages.)
  bool Involved =
      Active.contains(&Call) || (Direct && isMpiRuleFunction(*Direct)) ||
      any_of(Call.args(), [&](const Use &U) {
        return Active.contains(U.get()) || shadowOrNull(U.get());
      });
  // A callee that pushes or pops records (a reverse sweep, or code that
  // runs one) is differentiated even without derivatives to follow: its
  // records' shadows must be pushed and popped as the others are.
  if (!Involved && Direct && Key.TapeLevel > 0 && !Direct->isDeclaration() &&
      Ctx.tapeLevelFor(*Direct) > 0)
    Involved = true;
  if (!Involved)
    return true;
  // (A task's entry, called where the task was created: a task again
  // where the function runs in parallel, ReverseTasks.cpp.)
  if (Call.getMetadata(OpenMPTaskMetadata)) {
    if (!augmentTaskCall(Call, Replaced))
      return false;
    if (Replaced)
      return true;
  }
  if (Call.isInlineAsm())
    return unsupported(Call, "inline assembly cannot be differentiated; move "
                             "it into a function with a custom derivative");
  Function *Callee = Call.getCalledFunction();
  if (!Callee && isInactiveLibraryVirtualCall(Call))
    return true; // (as the class's direct calls: LibraryObjects.h)
  if (!Callee)
    return unsupported(Call, "calls through function pointers are not "
                             "supported yet in reverse mode");
  if (isKnownInactiveFunction(*Callee))
    if (OverrideReach Reach = callsProgramOverrides(
            Call,
            [&](const Value *V) {
              return Active.contains(V) ||
                     shadowOrNull(const_cast<Value *>(V));
            });
        Reach != OverrideReach::None)
      return unsupported(
          Call, programOverridesError(Reach, Ctx.displayName(*Callee)));
  // (A nested request's mark of a pointer's shadow it stores, in the
  // reverse sweep differentiated again: the runtime learns where the outer
  // shadow of those bytes lies, for the links the nested request's end
  // puts back there; PointerShadowMarks.h. It knows one outer shadow per
  // byte: one lane.)
  if (isStoredPointerMarkFunction(*Callee) && !DeviceCode)
    if (Value *Outer = shadowOrNull(Call.getArgOperand(0));
        Outer && Outer != Call.getArgOperand(0)) {
      if (Width > 1)
        return unsupported(Call, "batched (width > 1) reverse mode over a "
                                 "reverse sweep is not supported yet");
      positionAfterCall(AB, Call);
      pairNestedPointerMark(AB, Call, Outer, Key.TapeLevel);
    }
  if (ruleFor(*Callee) || isKnownInactiveFunction(*Callee) ||
      Ctx.rules().isInactive(Callee))
    return true;
  if (isShadowMirroredFunction(*Callee))
    return augmentMirroredCall(Call);
  // (A BLAS call's reverse reads the arrays it only reads again where
  // nothing writes them before it, instead of copies.)
  if (unsigned ReadOnly = blasReadOnlyArrays(*Callee);
      ReadOnly && Width == 1 && Key.StableMemory) {
    unsigned Stable = 0;
    for (unsigned K = 0; K < Call.arg_size(); ++K)
      if ((ReadOnly >> K & 1) && stableArgumentMemory(Call.getArgOperand(K)))
        Stable |= 1u << K;
    if (const CustomGradient *G = Ctx.rules().blasGradient(Callee, Stable)) {
      Replaced = true;
      return augmentCustomGradient(Call, *G);
    }
  }
  // (A launch giving a pointer the kernel writes through no shadow.)
  if (int No = writtenWithoutShadow(
          Call, *Callee,
          [&](const Value *V) { return shadowOrNull(const_cast<Value *>(V)); });
      No >= 0)
    return unsupported(Call, launchWithoutShadowError(*Callee, No));
  if (const CustomGradient *G = Ctx.rules().gradient(Callee)) {
    if (Width > 1 && isBlasRuleFunction(*Callee))
      return unsupported(Call, blasModeError(*Callee, /*Split=*/false));
    // (A warp shuffle is linear in its value and takes no pointers: the
    // width-1 rule runs once per direction.)
    bool LaneWise =
        Width > 1 && isWarpShuffleRule(*G->Reverse) &&
        none_of(Call.args(),
                [](const Use &U) { return U->getType()->isPointerTy(); });
    if (Width > 1 && !LaneWise &&
        !(G = Ctx.rules().batchedGradient(Callee, Width)))
      return unsupported(Call, "the registered gradient of '" +
                                   Ctx.displayName(*Callee) +
                                   "' has no batched (width > 1) form");
    Replaced = true;
    return augmentCustomGradient(Call, *G, LaneWise);
  }
  MemoryFunctionKind MK = classifyMemoryFunction(*Callee);
  if (isDeallocation(MK))
    return true; // the primal block is freed now, its shadow at the reverse
                 // of its allocation
  if (MK == MemoryFunctionKind::Malloc || MK == MemoryFunctionKind::Calloc ||
      MK == MemoryFunctionKind::AlignedAlloc ||
      MK == MemoryFunctionKind::AllocationLike) {
    positionAfterCall(AB, Call);
    // (A registered allocator is called again, as Enzyme does.)
    unsigned SizeArg = MK == MemoryFunctionKind::Malloc         ? 0
                       : MK == MemoryFunctionKind::AllocationLike
                           ? allocationSizeArg(*Callee)
                           : 1;
    for (unsigned L = 0; L < Width; ++L) {
      if (FunctionCallee Alloc = shadowBlockAllocator(*Callee)) {
        // (The runtime keeps large shadow blocks for later calls.)
        Value *Bytes = Call.getArgOperand(0);
        if (MK == MemoryFunctionKind::Calloc)
          Bytes = AB.CreateMul(Bytes, Call.getArgOperand(1));
        LaneShadows[L][&Call] =
            AB.CreateCall(Alloc, {Bytes}, Call.getName() + ".shadow");
        continue;
      }
      CallInst *S = AB.CreateCall(
          Call.getFunctionType(), Call.getCalledOperand(),
          SmallVector<Value *, 3>(Call.args()), Call.getName() + ".shadow");
      if (MK != MemoryFunctionKind::Calloc)
        AB.CreateMemSet(S, AB.getInt8(0), Call.getArgOperand(SizeArg),
                        MaybeAlign());
      // (Freed by the reverse sweep: pointer shadows it ends with are not
      // put back there. PointerShadowMarks.h)
      if (!DeviceCode && MK != MemoryFunctionKind::Calloc)
        ownPointerShadowBlock(AB, S, Call.getArgOperand(SizeArg));
      LaneShadows[L][&Call] = S;
    }
    ShadowMallocs.insert(&Call);
    return true;
  }
  if (MK == MemoryFunctionKind::Realloc) {
    for (Lane = 0; Lane < Width; ++Lane)
      if (!augmentRealloc(Call))
        return false;
    Lane = 0;
    return true;
  }
  if (MK == MemoryFunctionKind::AdjointCopy)
    return augmentAdjointCopy(Call);
  if (MK != MemoryFunctionKind::None)
    return unsupported(Call, "'" + Callee->getName() +
                                 "' is not supported yet in reverse mode");
  if (Function *Body = complexRuntimeBody(*Callee))
    Callee = Body;
  if (std::string Nested = nestedCheckpointMessage(*Callee); !Nested.empty())
    return unsupported(Call, Nested);
  if (classifyOpenMPCall(*Callee) == OpenMPCall::Fork)
    return augmentForkCall(Call, Replaced);
  if (std::string Blas = blasCallError(*Callee); !Blas.empty())
    return unsupported(Call, Blas);
  if (Key.Parallel && Callee->isDeclaration() && Ctx.defers(*Callee))
    return unsupported(Call, "'" + Ctx.displayName(*Callee) +
                                 "', defined in another file, is called in "
                                 "an OpenMP parallel region; define it in "
                                 "this file");
  // (A function of another file: its sweeps are made at link time.)
  if (Callee->isDeclaration() && !Ctx.defers(*Callee))
    return unsupported(
        Call, missingBodyMessage(*Callee, "__enzyme_register_gradient_"));
  // (Not those sweeps themselves, differentiated again.)
  if (Callee->isDeclaration())
    if (auto Deferred = parseCrossTUSymbol(Callee->getName()))
      return unsupported(Call, "'" + demangle(Deferred->Primal) +
                                   "', defined in another file, is called "
                                   "by code that is itself differentiated "
                                   "in reverse mode again (reverse over "
                                   "reverse); define it in this file");
  if (Callee->isVarArg())
    return unsupported(Call, "calls to the variadic function '" +
                                 Callee->getName() + "'");

  if (!followsIntegerBits(Call, *Callee))
    return false;
  // (A registered augmented function returning {result, void *tape},
  // differentiated again: the tape is no memory with derivatives.)
  Type *Ret = Call.getType();
  if (Ret->isAggregateType() && containsFloat(Ret) &&
      Ctx.rules().isAugmentedRule(Callee) &&
      any_of(Call.users(), [&](const User *U) {
        const auto *EV = dyn_cast<ExtractValueInst>(U);
        return EV && EV->getType()->isPointerTy() && Active.contains(EV);
      }))
    return unsupported(Call, "'" + Ctx.displayName(*Callee) +
                                 "' returns a struct of floating-point values "
                                 "and pointers (a registered augmented "
                                 "function's result and tape), which is not "
                                 "supported yet when differentiated again in "
                                 "reverse mode");

  // A user function: its augmented sweep replaces the call.
  DerivativeKey K;
  K.Primal = Callee;
  K.Mode = DerivativeMode::Augmented;
  K.Width = Width;
  K.TapeLevel = Key.TapeLevel;
  K.Parallel = Key.Parallel;
  // A null pointer is duplicated with a null shadow: a function that writes
  // through an optional output pointer only when it is not null (`if (aux)
  // *aux = v;`) then has the derivative of its store, whose shadow store
  // runs where the primal's does.
  // Local memory that never holds a derivative (a stack slot, a heap
  // block allocated here) goes as a constant: a closure holding a pointer
  // to constant data, or a table of pointers into constant memory, whose
  // shadows hold null there (a lambda handed on by value at -O0).
  for (Use &U : Call.args()) {
    Value *A = U.get();
    if (CleanSlotClones.contains(A))
      K.Args.push_back(ArgActivity::Const);
    else if (shadowOrNull(A) || isa<ConstantPointerNull>(A))
      K.Args.push_back(
          Unneeded.calleeActivity(A, Callee, Call.getArgOperandNo(&U)));
    else if (Active.contains(A) && A->getType()->isFPOrFPVectorTy())
      K.Args.push_back(ArgActivity::Active);
    else
      K.Args.push_back(ArgActivity::Const);
  }
  // (Pointer arguments whose shadows may be null: guarded in the callee.)
  NullableBits Bits = CalleeNullableBits.lookup(&Call);
  for (unsigned No = 0; No < K.Args.size() && No < 64; ++No)
    if (hasShadow(K.Args[No])) {
      K.NullableShadows |= Bits.Nullable & uint64_t(1) << No;
      K.NullReaching |= Bits.Reaching & uint64_t(1) << No;
    }
  // (In device code, where no scratch shadow stands behind them: what the
  // callee writes through them, read back here, would lose its
  // derivative.)
  if (lacksNullShadowScratch(*Call.getModule()) &&
      callWritesBackThroughNullShadow(
          dyn_cast_or_null<CallBase>(PrimalOf.lookup(&Call)),
          K.NullableShadows, K.NullReaching, NullablePrimals))
    return unsupported(Call, DeviceNullShadowCallError);
  if (Key.Parallel)
    K.PrivateArgs = threadPrivateArgs(Call);
  // (Pointers to a caller's linked nodes, for a callee that may store a
  // number over a link; pointers read as `void *` or `char *`, for a
  // callee that stores numbers: LinkedStores.h.)
  if (!DeviceCode) {
    SmallVector<const Value *, 8> Primals;
    for (unsigned No = 0; No < K.Args.size(); ++No) {
      Value *Arg = Call.getArgOperand(No);
      bool Shadowed = hasShadow(K.Args[No]) && Arg->getType()->isPointerTy();
      Primals.push_back(Shadowed ? PrimalOf.lookup(Arg) : nullptr);
    }
    std::optional<uint64_t> Linked =
        calleeLinkedArgs(*Callee, Primals, Key.LinkedArgs);
    if (!Linked)
      return unsupported(Call, TooManyLinkedArgsError);
    K.LinkedArgs = *Linked;
  }
  Type *RetTy = Call.getType();
  K.ReturnPrimal = !RetTy->isVoidTy();
  // (A result nothing uses has no adjoint, nor the shadow of one.)
  K.ReturnShadow =
      Active.contains(&Call) && canCarryDerivative(RetTy) && !Call.use_empty();
  // The callee may read its argument memory again in its reverse sweep
  // when that memory is what this function's arguments reach, and nothing
  // here or in the callers writes it.
  K.StableMemory = Key.StableMemory && all_of(Call.args(), [&](const Use &U) {
                     return !U->getType()->isPointerTy() ||
                            isa<ConstantPointerNull>(U.get()) ||
                            stableArgumentMemory(U.get());
                   });
  Function *AugCallee = Ctx.getOrCreate(K);
  if (!AugCallee)
    return false;
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (!hasShadow(K.Args[Call.getArgOperandNo(&U)]))
      continue;
    if (shadowOrNull(U.get()))
      for (unsigned L = 0; L < Width; ++L)
        Args.push_back(LaneShadows[L].lookup(U.get()));
    else if (isa<ConstantPointerNull>(U.get()))
      Args.append(Width, U.get()); // (null's shadow is null)
  }
  CallBase *New = emitReplacementCall(AB, Call, AugCallee, Args);
  Value *Primal = New;
  // (A struct that also holds numbers, {double *a; double r;} in
  // registers: its pointers' shadows; the numbers' adjoints go to the
  // callee's reverse sweep.)
  if (carriesPointerShadow(RetTy) && K.ReturnShadow) {
    Primal = AB.CreateExtractValue(New, 0);
    if (nullable(&Call))
      NullableClones.insert(Primal);
    for (unsigned L = 0; L < Width; ++L)
      LaneShadows[L][Primal] = Width == 1 ? AB.CreateExtractValue(New, 1)
                                          : AB.CreateExtractValue(New, {1u, L});
  }
  if (!RetTy->isVoidTy()) {
    Call.replaceAllUsesWith(Primal);
    if (Active.contains(&Call))
      Active.insert(Primal);
    // (A pointer result stands for the primal call's: a callee given it
    // asks where it was read, LinkedStores.h.)
    if (RetTy->isPointerTy())
      PrimalOf[Primal] = PrimalOf.lookup(&Call);
  }
  CallKeys[New] = K;
  CallResult[New] = RetTy->isVoidTy() ? nullptr : Primal;
  Dead.push_back(&Call);
  Replaced = true;
  return true;
}

/// The bits of a floating-point value passed to or returned from a function
/// as an integer (`memcpy(&u, &x, 8); g(u)`) carry its derivative. The
/// prepare stage makes such calls pass the float itself to a copy of the
/// callee (prepare/FloatBitArguments.cpp); what is left (a callee that may
/// be replaced at link time, one with a rule of its own, a part of the
/// bits) has no integer adjoint, and a derivative dropped there would be a
/// silent zero: an error instead.
bool ReverseEmitter::followsIntegerBits(CallBase &Call, Function &Callee) {
  std::unique_ptr<TypeAnalysis> CalleeTypes;
  for (Use &U : Call.args()) {
    Value *A = U.get();
    unsigned No = Call.getArgOperandNo(&U);
    if (!A->getType()->isIntOrIntVectorTy() || !Active.contains(A) ||
        shadowOrNull(A) || No >= Callee.arg_size())
      continue;
    if (!CalleeTypes)
      CalleeTypes = std::make_unique<TypeAnalysis>(Callee);
    // (An integer returned by a call made here has no primal twin: such a
    // call returning float bits is an error already, below.)
    const Value *P = PrimalOf.lookup(A);
    if (!(P && Types->isFloatBits(P)) &&
        !CalleeTypes->isFloatBits(Callee.getArg(No)))
      continue;
    return unsupported(Call, "the bits of a floating-point value with a "
                             "derivative are passed to '" +
                                 Ctx.displayName(Callee) +
                                 "' as an integer (argument " +
                                 Twine(No + 1) +
                                 "), and adcc cannot give '" +
                                 Ctx.displayName(Callee) +
                                 "' a copy that takes it as a floating-point "
                                 "number (the function may be replaced at "
                                 "link time, has a rule of its own, or reads "
                                 "a part of the bits); pass the value as a "
                                 "floating-point number");
  }
  // (A word loaded whole: where its memory holds a float, at -O0.)
  auto IsActive = [&](const Value *V) {
    const auto *LI = dyn_cast<LoadInst>(V);
    const auto *P =
        LI ? dyn_cast_or_null<LoadInst>(PrimalOf.lookup(LI)) : nullptr;
    return Active.contains(V) &&
           (!LI || (P && (Types->memoryKind(P->getPointerOperand(), 0) ==
                              Kind::Float ||
                          Types->memoryKind(P->getPointerOperand(), 4) ==
                              Kind::Float)));
  };
  if (int No = packedFloatBitsArgument(Call, IsActive); No >= 0)
    return unsupported(
        Call, packedFloatBitsArgumentError(Ctx.displayName(Callee), No));
  if (isa<StructType>(Call.getType()) && Active.contains(&Call) &&
      returnsFloatBitsInIntegerFields(Callee))
    return unsupported(Call, floatBitsInIntegerFieldsError(Ctx.displayName(
                                 Callee)));
  if (!Call.getType()->isVoidTy() && !canCarryDerivative(Call.getType()) &&
      Active.contains(&Call) && returnsFloatBits(Callee))
    return unsupported(Call, "'" + Ctx.displayName(Callee) +
                                 "' returns the bits of a floating-point value "
                                 "with a derivative as an integer, and adcc "
                                 "cannot give it a copy that returns a "
                                 "floating-point number (the function may be "
                                 "replaced at link time, has a rule of its "
                                 "own, or returns a part of the bits); "
                                 "return the value as a floating-point "
                                 "number");
  return true;
}

/// A call through a function pointer (or a virtual call) becomes a run-time
/// dispatch on the pointer's value to direct calls of every defined,
/// address-taken function of the call's type (anything else reaches
/// adcc_unknown_derivative). The direct calls are then differentiated like
/// any call, and the path records of the new blocks tell the reverse sweep
/// which one ran.
bool ReverseEmitter::dispatchIndirectCalls() {
  SmallVector<CallBase *, 4> Indirect;
  for (BasicBlock &BB : Aug)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (!Call->getCalledFunction() && !Call->isInlineAsm() &&
            !isInactiveLibraryVirtualCall(*Call) &&
            (Active.contains(Call) || any_of(Call->args(), [&](const Use &U) {
               return Active.contains(U.get());
             })))
          Indirect.push_back(Call);
  Module &M = *Aug.getParent();
  LLVMContext &C = M.getContext();
  for (CallBase *Call : Indirect) {
    SmallVector<Function *, 8> Targets =
        possibleCallTargets(M, Call->getFunctionType());
    // (Only functions of other files, whose sweeps are made at link time:
    // -O0 code that passes one to a helper.)
    if (Targets.empty())
      Targets = possibleOtherFileTargets(
          M, Call->getFunctionType(),
          [&](const Function &F) { return Ctx.defers(F); });
    // (A function of another file of its type, declared here: the call
    // may reach it, and it has no derivative.)
    if (Targets.empty() && !possibleOtherFileTargets(
                               M, Call->getFunctionType(),
                               [](const Function &) { return true; })
                               .empty())
      return unsupported(*Call, "no function defined in this translation "
                                "unit can be the target of this call through "
                                "a function pointer");
    // (None at all: the program stops where the call runs. A null
    // callback that is tested first, liblbfgs's proc_progress, never
    // does.)
    if (Targets.empty()) {
      emitUntargetedCallStop(*Call, Ctx.placeOf(*Call, *Key.Primal),
                             Ctx.describe(*Key.Primal));
      if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
        Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
        BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator())
            ->setDebugLoc(Invoke->getDebugLoc());
      }
      if (!Call->getType()->isVoidTy())
        Call->replaceAllUsesWith(Constant::getNullValue(Call->getType()));
      eraseReplaced(Call);
      continue;
    }
    Value *Target = Call->getCalledOperand();
    BasicBlock *Head = Call->getParent();
    // An invoke (a call that may throw) becomes an invoke per target, each
    // unwinding where it did; they meet in a block of their own before the
    // normal destination.
    auto *Invoke = dyn_cast<InvokeInst>(Call);
    BasicBlock *Unwind = Invoke ? Invoke->getUnwindDest() : nullptr;
    BasicBlock *Tail = Invoke
                           ? BasicBlock::Create(C, Head->getName() + ".join",
                                                &Aug, Invoke->getNormalDest())
                           : Head->splitBasicBlock(Call->getIterator(),
                                                   Head->getName() + ".join");
    if (Invoke) {
      BranchInst::Create(Invoke->getNormalDest(), Tail);
      Invoke->getNormalDest()->replacePhiUsesWith(Head, Tail);
      Invoke->removeFromParent();
    } else {
      eraseReplaced(Head->getTerminator());
    }
    IRBuilder<> B(Tail, Tail->begin());
    bool HasResult = !Call->getType()->isVoidTy();
    PHINode *Result =
        HasResult ? B.CreatePHI(Call->getType(), Targets.size()) : nullptr;
    BasicBlock *Test = Head;
    SmallVector<Value *, 8> Args(Call->args());
    for (Function *F : Targets) {
      BasicBlock *Case = BasicBlock::Create(C, "dispatch.case", &Aug, Tail);
      BasicBlock *Next = BasicBlock::Create(C, "dispatch.next", &Aug, Tail);
      B.SetInsertPoint(Test);
      B.SetCurrentDebugLocation(Call->getDebugLoc());
      B.CreateCondBr(pointsToTarget(B, Target, F), Case, Next);
      B.SetInsertPoint(Case);
      CallBase *Direct =
          Invoke
              ? static_cast<CallBase *>(B.CreateInvoke(F, Tail, Unwind, Args))
              : B.CreateCall(F, Args);
      if (Invoke)
        for (PHINode &Phi : Unwind->phis())
          Phi.addIncoming(Phi.getIncomingValueForBlock(Head), Case);
      // The direct call stands for the primal call: same activity, and
      // the same arguments whose shadows may be null (or reach memory that
      // holds null shadows: a constant pointer stored in a node a table of
      // operations is given), else the callee's sweeps would not guard
      // them.
      PrimalOf[Direct] = PrimalOf.lookup(Call);
      if (Active.contains(Call))
        Active.insert(Direct);
      CalleeNullableBits[Direct] = CalleeNullableBits.lookup(Call);
      if (NullableClones.contains(Call))
        NullableClones.insert(Direct);
      if (Result)
        Result->addIncoming(Direct, Case);
      if (!Invoke)
        B.CreateBr(Tail);
      Test = Next;
    }
    B.SetInsertPoint(Test);
    B.CreateCall(M.getOrInsertFunction("adcc_unknown_derivative",
                                       Type::getVoidTy(C),
                                       PointerType::get(C, 0)),
                 {Target});
    B.CreateUnreachable();
    if (Result) {
      Call->replaceAllUsesWith(Result);
      if (Active.contains(Call))
        Active.insert(Result);
      if (NullableClones.contains(Call))
        NullableClones.insert(Result);
    }
    if (Invoke)
      for (PHINode &Phi : Unwind->phis())
        Phi.removeIncomingValue(Head, /*DeletePHIIfEmpty=*/false);
    eraseReplaced(Call); // (an invoke is already out of its block)
  }
  return true;
}

/// Whether running \p F once more changes nothing outside its own frame
/// (FrameWrites: what its blocks and the functions they call write is its
/// frame, or memory they allocate). A declaration counts when it is known
/// not to write memory.
static bool writesOnlyItsFrame(Function &F) {
  if (F.onlyReadsMemory())
    return true;
  if (F.isDeclaration())
    return false;
  SmallVector<BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  FrameWrites W = findFrameWrites(F, Blocks);
  return !W.Unbounded && W.Globals.empty();
}

/// A registered gradient (__enzyme_register_gradient_f = {f, aug, rev}):
/// aug takes f's parameters, each pointer followed by its shadow, and
/// returns what augmentedShape() reads; rev takes the same parameters, then
/// the adjoint of a floating-point result, then the tape, and returns the
/// adjoints of f's floating-point parameters (one value, or a struct of
/// them in order). A batched one (width > 1, CustomRules::batchedGradient)
/// takes each lane's shadow, and is reversed once for all lanes.
bool ReverseEmitter::augmentCustomGradient(CallBase &Call,
                                           const CustomGradient &G,
                                           bool LaneWise) {
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (U.get()->getType()->isPointerTy())
      for (Lane = 0; Lane < Width; ++Lane)
        Args.push_back(shadowOrZero(U.get()));
    Lane = 0;
  }
  Type *RetTy = Call.getType();
  FunctionType *AT = G.Augmented->getFunctionType();
  // A struct of more than 16 bytes ({tape, result, shadow} of pointers)
  // comes back through a hidden first parameter.
  Type *SRetTy = G.Augmented->getParamStructRetType(0);
  Type *Got = SRetTy ? SRetTy : AT->getReturnType();
  unsigned Hidden = SRetTy ? 1 : 0;
  bool ArgsMatch = AT->getNumParams() == Args.size() + Hidden;
  for (unsigned I = 0; ArgsMatch && I < Args.size(); ++I)
    ArgsMatch = AT->getParamType(I + Hidden) == Args[I]->getType();
  AugmentedFields Fields;
  if (!ArgsMatch || !augmentedShape(Got, RetTy, Fields))
    return unsupported(Call, "the registered augmented function '" +
                                 G.Augmented->getName() +
                                 "' does not have the expected signature "
                                 "(each pointer parameter followed by its "
                                 "shadow; returning the result, {void *tape, "
                                 "result}, {void *tape, result, shadow} or "
                                 "{result, shadow})");
  AllocaInst *Slot = nullptr;
  if (SRetTy) {
    IRBuilder<> EB(&*AB.GetInsertBlock()->getParent()->getEntryBlock().begin());
    Slot = EB.CreateAlloca(SRetTy, nullptr, "aug.result");
    Args.insert(Args.begin(), Slot);
  }
  CallBase *New = emitReplacementCall(AB, Call, G.Augmented, Args);
  Value *Result = New;
  if (Slot) {
    New->addParamAttr(
        0, Attribute::getWithStructRetType(New->getContext(), SRetTy));
    Result = AB.CreateLoad(SRetTy, Slot);
    Args.erase(Args.begin());
  }
  auto Field = [&](int I) -> Value * {
    if (I < 0)
      return nullptr;
    return Got->isStructTy() ? AB.CreateExtractValue(Result, I) : Result;
  };
  CustomSite Site;
  Site.Rule = &G;
  Site.LaneWise = LaneWise;
  Site.Tape = Field(Fields.Tape);
  Value *Primal = Field(Fields.Result);
  if (!Primal && !RetTy->isVoidTy()) {
    // Enzyme's form for a result that is not a pointer: the augmented
    // function returns its tape alone, or nothing. Where the result is
    // used, f runs again for it, if that cannot be seen from outside.
    Function *F = Call.getCalledFunction();
    if (Call.use_empty()) {
      Primal = PoisonValue::get(RetTy); // (its adjoint is zero)
    } else if (F && writesOnlyItsFrame(*F)) {
      SmallVector<Value *, 8> PrimalArgs(Call.args());
      Primal = AB.CreateCall(F, PrimalArgs);
    } else {
      return unsupported(
          Call, "the registered augmented function '" +
                    G.Augmented->getName() + "' does not return the result "
                    "of '" + (F ? F->getName() : StringRef("the call")) +
                    "', which is used here, and that function may write "
                    "memory, so it cannot run again for its result; return "
                    "{void *tape, result} (or the result alone)");
    }
  }
  if (Primal && !isa<PoisonValue>(Primal)) {
    Call.replaceAllUsesWith(Primal);
    if (Active.contains(&Call) && RetTy->isFPOrFPVectorTy())
      Active.insert(Primal);
    // The shadow of a pointer result: adjoints of what the caller reads
    // through it land where the rule's reverse function reads them.
    if (Value *Shadow = Field(Fields.Shadow);
        Shadow && (RetTy->isPointerTy() || isPointerAggregate(RetTy)))
      shadows()[Primal] = Shadow;
  }
  Site.Result = Primal;
  Site.RevArgs.assign(Args.begin(), Args.end());
  SmallVector<Value *, 16> Keep(Args);
  if (Site.Tape)
    Keep.push_back(Site.Tape);
  record(*New, Keep);
  CustomSites[New] = Site;
  Dead.push_back(&Call);
  return true;
}

/// Where a registered augmented function that returns \p Got puts the
/// tape, the result of f (of type \p Ret) and its shadow, as Enzyme reads
/// them: Ret alone; {tape, Ret, Ret}; {Ret, Ret} (result and shadow);
/// {tape, Ret}; adcc's {Ret, void *tape}; for a void f, and for an f whose
/// result holds no pointer, a void * tape or nothing.
bool ReverseEmitter::augmentedShape(Type *Got, Type *Ret,
                                    AugmentedFields &Fields) {
  Type *Ptr = AB.getPtrTy();
  Fields = AugmentedFields();
  if (Got == Ret && !Ret->isVoidTy()) {
    Fields.Result = 0;
    return true;
  }
  if (Ret->isVoidTy() ||
      (!Ret->isPointerTy() && !isPointerAggregate(Ret))) {
    if (Got == Ptr)
      Fields.Tape = 0; // (the whole value)
    if (Got->isVoidTy() || Got == Ptr)
      return true;
    if (Ret->isVoidTy())
      return false;
  }
  auto *ST = dyn_cast<StructType>(Got);
  if (!ST)
    return false;
  ArrayRef<Type *> E = ST->elements();
  if (E.size() == 3 && E[0] == Ptr && E[1] == Ret && E[2] == Ret) {
    Fields = {0, 1, 2};
    return true;
  }
  if (E.size() != 2)
    return false;
  if (E[0] == Ret && E[1] == Ret)
    Fields = {-1, 0, 1};
  else if (E[0] == Ptr && E[1] == Ret)
    Fields = {0, 1, -1};
  else if (E[0] == Ret && E[1] == Ptr)
    Fields = {1, 0, -1};
  else
    return false;
  return true;
}

bool ReverseEmitter::emitCustomAdjoint(CallBase &AugCall,
                                       DenseMap<Value *, Value *> &Popped) {
  CustomSite &Site = CustomSites[&AugCall];
  if (Site.LaneWise) {
    // (Called once, for the last lane: each lane's adjoints in turn.)
    unsigned Last = Lane;
    bool Done = true;
    for (Lane = 0; Lane < Width && Done; ++Lane)
      Done = emitCustomAdjointLane(AugCall, Site, Popped);
    Lane = Last;
    return Done;
  }
  return emitCustomAdjointLane(AugCall, Site, Popped);
}

bool ReverseEmitter::emitCustomAdjointLane(
    CallBase &AugCall, CustomSite &Site, DenseMap<Value *, Value *> &Popped) {
  Function &RevFn = *Site.Rule->Reverse;
  SmallVector<Value *, 16> Args;
  for (Value *V : Site.RevArgs)
    Args.push_back(revValue(V, Popped));
  Type *RetTy = Site.Result ? Site.Result->getType() : nullptr;
  if (RetTy && RetTy->isFPOrFPVectorTy())
    Args.push_back(isActiveFloat(Site.Result) ? takeAdjoint(Site.Result)
                                              : Constant::getNullValue(RetTy));
  if (Site.Tape)
    Args.push_back(revValue(Site.Tape, Popped));
  // The floating-point parameters, whose adjoints come back in order.
  SmallVector<Value *, 4> FloatArgs;
  for (Value *V : Site.RevArgs)
    if (V->getType()->isFPOrFPVectorTy())
      FloatArgs.push_back(V);
  FunctionType *RT = RevFn.getFunctionType();
  bool Match = RT->getNumParams() == Args.size();
  for (unsigned I = 0; Match && I < Args.size(); ++I)
    Match = RT->getParamType(I) == Args[I]->getType();
  Type *Want = FloatArgs.empty()       ? RB.getVoidTy()
               : FloatArgs.size() == 1 ? FloatArgs[0]->getType()
                                       : nullptr;
  if (!Want) {
    SmallVector<Type *, 4> Elts;
    for (Value *V : FloatArgs)
      Elts.push_back(V->getType());
    Want = StructType::get(Rev.getContext(), Elts);
  }
  if (!Match || RT->getReturnType() != Want)
    return unsupported(AugCall,
                       "the registered reverse function '" + RevFn.getName() +
                           "' does not have the expected signature (the "
                           "augmented function's parameters, then the "
                           "adjoint of a floating-point result, then the "
                           "tape; returning the adjoints of the "
                           "floating-point parameters)");
  Value *Adjoints = RB.CreateCall(&RevFn, Args);
  for (unsigned I = 0; I < FloatArgs.size(); ++I)
    addAdjoint(FloatArgs[I], FloatArgs.size() == 1
                                 ? Adjoints
                                 : RB.CreateExtractValue(Adjoints, I));
  return true;
}

/// Intrinsics with derivative inputs but no rule would silently get a zero
/// derivative: they are errors (memory intrinsics and reductions have
/// rules of their own; the rest carries no derivative).
} // namespace adcore
