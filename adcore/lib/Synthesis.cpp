//===- Synthesis.cpp - Generating derivative functions -------------------===//

#include "Synthesis.h"
#include "adcore/CrossTU.h"
#include "support/CallSites.h"
#include "support/NullShadowGuards.h"
#include "support/TapeLevels.h"
#include "support/UnneededResults.h"
#include "adcore/EnzymeMarks.h"
#include "prepare/Prepare.h"
#include "prepare/SimplifiedCopies.h"
#include "rules/BlasRules.h"
#include "rules/DeviceMath.h"
#include "rules/GpuLaunches.h"
#include "rules/MpiRules.h"
#include "rules/OpenMPRuntime.h"
#include "analysis/ActivityAnalysis.h"
#include "analysis/BitProvenance.h"
#include "analysis/FloatPieces.h"
#include "forward/ForwardEmitter.h"
#include "forward/ScaledSeeds.h"
#include "reverse/ReverseEmitter.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

using namespace llvm;

namespace adcore {

Type *shadowType(Type *T, unsigned Width) {
  return Width == 1 ? T : ArrayType::get(T, Width);
}

bool hasFloatAdjoint(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return hasFloatAdjoint(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return ST->getNumElements() > 0 &&
           all_of(ST->elements(), [](Type *E) { return hasFloatAdjoint(E); });
  return false;
}

/// True when a scalar (or vector) inside \p T, at any depth, satisfies
/// \p Leaf.
static bool containsLeaf(Type *T, function_ref<bool(Type *)> Leaf) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return containsLeaf(AT->getElementType(), Leaf);
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(),
                  [&](Type *E) { return containsLeaf(E, Leaf); });
  return Leaf(T);
}

bool containsFloat(Type *T) {
  return containsLeaf(T, [](Type *L) { return L->isFPOrFPVectorTy(); });
}

bool isPointerAggregate(Type *T) {
  return T->isAggregateType() && !containsFloat(T) &&
         containsLeaf(T, [](Type *L) { return L->isPtrOrPtrVectorTy(); });
}

bool carriesPointerShadow(Type *T) {
  return T->isPointerTy() ||
         (T->isAggregateType() &&
          containsLeaf(T, [](Type *L) { return L->isPtrOrPtrVectorTy(); }));
}

static FunctionType *reverseSweepType(const DerivativeKey &Key) {
  FunctionType *FT = Key.Primal->getFunctionType();
  LLVMContext &C = FT->getContext();
  SmallVector<Type *, 2> Params;
  Type *Ret = FT->getReturnType();
  // (Width > 1: one seed and one adjoint per lane, in arrays. A struct
  // that mixes floating-point and other fields, std::optional<double>'s
  // {double, i8}, is seeded whole: its other fields' adjoints are ignored.)
  if (Key.ReturnShadow && containsFloat(Ret))
    Params.push_back(shadowType(Ret, Key.Width));
  SmallVector<Type *, 8> Adjoints;
  for (unsigned I = 0; I < FT->getNumParams(); ++I)
    if (Key.Args[I] == ArgActivity::Active)
      Adjoints.push_back(shadowType(FT->getParamType(I), Key.Width));
  Type *Result = Adjoints.empty()       ? Type::getVoidTy(C)
                 : Adjoints.size() == 1 ? Adjoints[0]
                                        : StructType::get(C, Adjoints);
  return FunctionType::get(Result, Params, false);
}

FunctionType *derivativeType(const DerivativeKey &Key) {
  if (Key.Mode == DerivativeMode::Reverse)
    return reverseSweepType(Key);
  FunctionType *FT = Key.Primal->getFunctionType();
  Type *Records = PointerType::getUnqual(FT->getContext());
  if (Key.Split && Key.Mode == DerivativeMode::Augmented) {
    // The recording sweep: the primal's parameters and the records.
    SmallVector<Type *, 16> Params(FT->params());
    Params.push_back(Records);
    return FunctionType::get(FT->getReturnType(), Params, false);
  }
  SmallVector<Type *, 16> Params;
  for (unsigned I = 0; I < FT->getNumParams(); ++I) {
    Type *T = FT->getParamType(I);
    Params.push_back(T);
    if (hasShadow(Key.Args[I]))
      Params.append(Key.Width, T); // one parameter per lane: each can be
                                   // noalias
  }
  Type *Ret = FT->getReturnType();
  Type *Result = Type::getVoidTy(Ret->getContext());
  bool HasRet = !Ret->isVoidTy();
  bool Primal = HasRet && Key.ReturnPrimal;
  bool Shadow = HasRet && Key.ReturnShadow;
  if (Key.Mode == DerivativeMode::Augmented) {
    // The augmented sweep returns the primal, and the shadow of a pointer
    // (or of a struct that holds pointers).
    Primal = HasRet;
    Shadow = HasRet && carriesPointerShadow(Ret) && Key.ReturnShadow;
  }
  if (Primal && Shadow)
    Result = StructType::get(Ret, shadowType(Ret, Key.Width));
  else if (Primal)
    Result = Ret;
  else if (Shadow)
    Result = shadowType(Ret, Key.Width);
  if (Key.Split)
    Params.push_back(Records);
  return FunctionType::get(Result, Params, /*isVarArg=*/false);
}

void copyParameterAttributes(const Function &Primal, Function &D,
                             const DerivativeKey &Key) {
  unsigned Pos = 0;
  for (const Argument &A : Primal.args()) {
    ArgActivity Act = Key.Args[A.getArgNo()];
    unsigned Copies = 1;
    if (hasShadow(Act))
      Copies += Key.Width;
    if (Act == ArgActivity::Const && A.getType()->isPointerTy() &&
        Pos < D.arg_size()) {
      bool Returns = false;
      if (keepsPointeeClean(Primal, A.getArgNo(), CleanCallDepth, Returns) &&
          !Returns)
        D.addParamAttr(
            Pos, Attribute::get(D.getContext(), KeepsPointeeCleanAttribute));
    }
    for (unsigned C = 0; C < Copies; ++C, ++Pos)
      if (A.getType()->isPointerTy() && Pos < D.arg_size())
        copyPointerFacts(Primal, A.getArgNo(), D, Pos);
  }
}

void SynthesisContext::eraseUnusedCopies() { Copies->eraseUnused(); }

SynthesisContext::SynthesisContext(Module &M, bool PrintTapePlans)
    : M(M), PrintTapePlans(PrintTapePlans),
      Levels(std::make_unique<TapeLevelFinder>()),
      ScratchLevels(std::make_unique<TapeLevelFinder>(forwardScratchLevelOf)),
      Copies(std::make_unique<SimplifiedCopies>(
          Rules, [this](const Function &F) { return isGenerated(F); })) {}

SynthesisContext::~SynthesisContext() = default;

unsigned SynthesisContext::tapeLevelFor(Function &F) {
  return Levels->levelFor(F);
}

bool SynthesisContext::defers(const Function &F) const {
  return DeferLevel && F.isDeclaration() && !F.isIntrinsic();
}

Function *SynthesisContext::declareDeferred(const DerivativeKey &Key,
                                            bool Combined) {
  // (A part of the key the name does not say would be lost: the link step
  // would make another derivative under the name. The callers refuse those
  // keys first: OpenMP regions, error estimates, split forward mode.)
  if (!crossTUSymbolCarries(Key)) {
    if (RequestSite)
      error(*RequestSite, "internal error: the derivative of '" +
                              displayName(*Key.Primal) +
                              "', defined in another file, is asked for in "
                              "a form adcc cannot make at link time");
    HadError = true;
    return nullptr;
  }
  CrossTURequest R;
  R.Key = Key;
  R.Key.Primal = nullptr;
  R.Combined = Combined;
  R.Primal = Key.Primal->getName().str();
  R.OptLevel = *DeferLevel;
  FunctionType *FT = derivativeType(Key);
  std::string Name = crossTUSymbol(R);
  if (Function *Known = M.getFunction(Name))
    if (Known->getFunctionType() == FT)
      return Known;
  return Function::Create(FT, GlobalValue::ExternalLinkage, Name, M);
}

std::optional<Function *>
SynthesisContext::getOrCreateNested(const DerivativeKey &Key) {
  if (Key.Mode == DerivativeMode::Forward)
    return getOrCreateScratchLevel(Key);
  Function &F = *Key.Primal;
  // (Made at link time from its own body: ReverseEmitter::augmentCall
  // rejects the derivatives of other files differentiated again.)
  if (defers(F))
    return std::nullopt;
  unsigned Need = tapeLevelFor(F);
  if (Need <= Key.TapeLevel)
    return std::nullopt;
  if (Need >= TapeLevels) {
    if (RequestSite)
      error(*RequestSite, "derivatives of '" + displayName(F) + "' nest " +
                              Twine(Need + 1) +
                              " reverse-mode levels deep; adcc supports " +
                              Twine(TapeLevels));
    HadError = true;
    return nullptr;
  }
  DerivativeKey Raised = Key;
  Raised.TapeLevel = Need;
  Function *D = getOrCreate(Raised);
  if (!D)
    return D;
  // (Both sweeps answer for the key as asked: its users look the other
  // one up.)
  for (DerivativeMode Mode :
       {DerivativeMode::Augmented, DerivativeMode::Reverse}) {
    DerivativeKey From = Key, To = Raised;
    From.Mode = To.Mode = Mode;
    if (Function *Made = Cache.lookup(To))
      Cache.insert(From, Made);
  }
  return D;
}

std::optional<Function *>
SynthesisContext::getOrCreateThroughRule(const DerivativeKey &Key) {
  Function &F = *Key.Primal;
  if (!Rules.coversDerivative(&F, Key.Mode == DerivativeMode::Forward) &&
      !(Key.Split && Rules.splitDerivative(&F)))
    return std::nullopt;
  Function *&Caller = RuleCallers[&F];
  if (!Caller) {
    Caller = Function::Create(F.getFunctionType(), GlobalValue::InternalLinkage,
                              F.getName() + ".rule_caller", M);
    RuleCallerOf[Caller] = &F;
    Caller->copyAttributesFrom(&F);
    Caller->setLinkage(GlobalValue::InternalLinkage);
    Caller->setVisibility(GlobalValue::DefaultVisibility);
    Caller->setComdat(nullptr);
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Caller));
    SmallVector<Value *, 8> Args;
    for (Argument &A : Caller->args())
      Args.push_back(&A);
    CallInst *Call = B.CreateCall(&F, Args);
    Call->setAttributes(F.getAttributes());
    Call->setCallingConv(F.getCallingConv());
    if (Call->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
  }
  DerivativeKey Via = Key;
  Via.Primal = Caller;
  Function *D = getOrCreate(Via);
  // The caller's derivatives answer for the primal's.
  if (D)
    answerFor(Key, Via);
  return D;
}

std::optional<Function *>
SynthesisContext::getOrCreateScratchLevel(const DerivativeKey &Key) {
  Function &F = *Key.Primal;
  if (defers(F))
    return std::nullopt;
  unsigned Need = ScratchLevels->levelFor(F);
  if (Need <= Key.ScratchLevel)
    return std::nullopt;
  DerivativeKey Raised = Key;
  Raised.ScratchLevel = Need;
  Function *D = getOrCreate(Raised);
  if (D)
    answerFor(Key, Raised);
  return D;
}

void SynthesisContext::answerFor(const DerivativeKey &From,
                                 const DerivativeKey &To) {
  for (DerivativeMode Mode :
       {DerivativeMode::Forward, DerivativeMode::Augmented,
        DerivativeMode::Reverse}) {
    DerivativeKey F = From, T = To;
    F.Mode = T.Mode = Mode;
    if (Function *Made = Cache.lookup(T))
      Cache.insert(F, Made);
  }
}

std::optional<Function *>
SynthesisContext::getOrCreateFromCopy(const DerivativeKey &Key) {
  Function *Copy = Copies->rescuingCopyOf(*Key.Primal);
  if (!Copy)
    return std::nullopt;
  DerivativeKey Via = Key;
  Via.Primal = Copy;
  Function *D = getOrCreate(Via);
  if (D)
    answerFor(Key, Via);
  return D;
}

Function *SynthesisContext::getOrCreate(const DerivativeKey &Key) {
  if (Function *Known = Cache.lookup(Key))
    return Known;
  if (std::optional<Function *> D = getOrCreateNested(Key))
    return *D;
  if (std::optional<Function *> D = getOrCreateThroughRule(Key))
    return *D;
  if (defers(*Key.Primal) && !Key.Split) {
    // Made at link time: an augmented and a reverse sweep as two functions
    // (their pair, when combined, as one: see getOrCreateCombined).
    if (Key.Mode == DerivativeMode::Forward) {
      Function *D = declareDeferred(Key, false);
      if (D)
        Cache.insert(Key, D);
      return D;
    }
    DerivativeKey AugKey = Key, RevKey = Key;
    AugKey.Mode = DerivativeMode::Augmented;
    RevKey.Mode = DerivativeMode::Reverse;
    Function *Aug = declareDeferred(AugKey, false);
    Function *Rev = Aug ? declareDeferred(RevKey, false) : nullptr;
    if (!Rev)
      return nullptr;
    Cache.insert(AugKey, Aug);
    Cache.insert(RevKey, Rev);
    return Key.Mode == DerivativeMode::Augmented ? Aug : Rev;
  }
  if (std::optional<Function *> D = getOrCreateFromCopy(Key))
    return *D;
  // SIMD idioms read as floating-point IR, before any analysis of the
  // primal. (x86 intrinsics first: a constant permute of integers becomes
  // a shuffle that the shuffles' rewrite may read as one of floats. Floats
  // loaded as integers for their bits are loaded as floats again. Casts
  // sunk into selects, and halves of packets read as shuffles, before the
  // sign masks and exponents: they leave the operations on bits next to
  // casts of floats. Sign masks before the
  // shuffles: they leave integer loads of packets read only as floats,
  // which the shuffles' rewrite turns into float loads.)
  if (Canonical.insert(Key.Primal).second) {
    Function &P = *Key.Primal;
    // (Values passed into OpenMP regions by value first: the rewrites of
    // float bits below then see the casts it leaves in the caller.)
    bool Changed = passFloatFirstprivatesByReference(P);
    Changed |= splitOpenMPTaskloops(P);
    Changed |= runOpenMPTasksUndeferred(P);
    Changed |= rewriteX86Intrinsics(P);
    Changed |= loadFloatBitsAsFloats(P);
    Changed |= splitPackedWordLoads(P);
    Changed |= sinkFloatCastsIntoSelects(P);
    Changed |= rewriteFloatBitSlices(P);
    Changed |= rewriteSignMasks(P);
    Changed |= rewriteScaledFloatBits(P);
    Changed |= markRoundingConstants(P);
    Changed |= rewriteLaneMasks(P);
    Changed |= canonicalizeFloatShuffles(P);
    Changed |= rewriteKnownAsm(P);
    Changed |= useThreadLocalsByName(P);
    Changed |= rewriteFortifiedCalls(P);
    Changed |= rewritePosixMemaligns(P);
    Changed |= rewriteSortCalls(P);
    Changed |= rewriteDirectLaunches(P);
    Changed |= inlineBarrierCalls(P);
    Changed |= rewriteVariadicCalls(P);
    auto HasRule = [&](const Function &Callee) {
      return Rules.coversDerivative(&Callee, true) ||
             Rules.coversDerivative(&Callee, false) ||
             Rules.splitDerivative(&Callee) ||
             !Rules.functionLike(&Callee).empty() ||
             isBlasRuleFunction(Callee) || isMpiRuleFunction(Callee);
    };
    Changed |= passFloatBitsAsFloats(P, HasRule);
    Changed |= passIntegerAddressesAsPointers(P, HasRule);
    Changed |= resetInputValues(P);
    Changed |= typeFloatCopies(P);
    Changed |= cloneCopyHelpersPerCall(P);
    Changed |= rewriteOpenMPReductions(P);
    // (Forward mode does not know which functions run in regions: in a
    // program that starts regions, and so links libomp, every function.)
    if (Key.Parallel || P.getParent()->getFunction("__kmpc_fork_call"))
      Changed |= rewriteOpenMPAtomics(P);
    if (Changed)
      removeDeadLocals(P);
  }
  if (const CallBase *Construct = findUnsupportedOpenMPCall(*Key.Primal)) {
    reportOpenMPConstruct(*Construct, Key);
    return nullptr;
  }
  if (const CallBase *Launch = findGpuLaunch(*Key.Primal)) {
    reportGpuLaunch(*Launch, Key);
    return nullptr;
  }
  if (const Instruction *Bits = findUntraceableFloatBits(*Key.Primal)) {
    reportUntraceableFloatBits(*Bits, Key,
                               Bits->hasMetadata(UnfollowedBitsMetadata)
                                   ? UnfollowedFloatBitsError
                                   : UntraceableFloatBitsError);
    return nullptr;
  }
  if (const Instruction *Cut = findFloatCutIntoPieces(*Key.Primal)) {
    // (A path of the function: it stops at run time, on the host.)
    if (isDeviceModule(M)) {
      reportUntraceableFloatBits(*Cut, Key, FloatCutIntoPiecesError);
      return nullptr;
    }
    stopAtFloatCut(const_cast<Instruction &>(*Cut), placeOf(*Cut, *Key.Primal),
                   describe(*Key.Primal));
  }
  // (enzyme_dupnoneed where the function may read the memory back or keep
  // the pointer changes nothing: one derivative with enzyme_dup's.)
  if (std::optional<DerivativeKey> AsDup = withoutIdleNoNeed(Key))
    return getOrCreateAs(Key, *AsDup);
  if (Key.Split)
    return getOrCreateSplit(Key);
  if (Key.Mode != DerivativeMode::Forward)
    return getOrCreateReverse(Key);
  Function &Primal = *Key.Primal;
  std::string Name =
      ((Key.ErrorEstimate ? "fwderror" : "fwddiffe") +
       (Key.Width > 1 ? Twine(Key.Width) : Twine("")) + "_" +
       primalName(Primal))
          .str();
  Function *D = Function::Create(derivativeType(Key),
                                 GlobalValue::InternalLinkage, Name, M);
  GeneratedFrom[D] = &Primal;
  // Registered before its body is emitted, so that recursion finds it.
  Cache.insert(Key, D);
  ForwardEmitter Emitter(*this, Key, *D);
  if (Emitter.run()) {
    advanceEnzymeIterations(*D);
    // (Its tangent again with smaller seeds where it overflowed.)
    if (Function *Core = retryWithScaledSeeds(*D, Key))
      GeneratedFrom[Core] = &Primal;
    return D;
  }
  return discardGenerated({D});
}

Function *SynthesisContext::discardGenerated(ArrayRef<Function *> Made) {
  // The error is reported; leave the module valid for the passes that
  // still run: the derivatives become body-less external declarations
  // (no object file is written after an error).
  HadError = true;
  for (Function *F : Made) {
    F->deleteBody();
    F->setLinkage(GlobalValue::ExternalLinkage);
  }
  return nullptr;
}

void SynthesisContext::verifyGenerated() {
  if (!verifyModule(M))
    return;
  bool Found = false;
  for (Function *F : Cache.functions()) {
    if (F->isDeclaration() || !verifyFunction(*F, &errs()))
      continue;
    Found = true;
    error(*F->getEntryBlock().begin(),
          "internal error: the generated function '" + F->getName() +
              "' is malformed; please report this adcc bug");
    F->deleteBody();
    F->setLinkage(GlobalValue::ExternalLinkage);
  }
  if (Found)
    return;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      verifyModule(M, &errs());
      error(*F.getEntryBlock().begin(),
            "internal error: the module is malformed after differentiation; "
            "please report this adcc bug");
      break;
    }
  // Nothing is written after an error, but the passes still run: leave
  // them a valid module (they crashed on the malformed one).
  for (Function &F : M)
    if (!F.isDeclaration()) {
      F.deleteBody();
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setComdat(nullptr);
    }
  // (An alias or ifunc must name a definition: C++ constructor aliases.)
  for (GlobalAlias &GA : make_early_inc_range(M.aliases())) {
    GA.replaceAllUsesWith(PoisonValue::get(GA.getType()));
    GA.eraseFromParent();
  }
  for (GlobalIFunc &GI : make_early_inc_range(M.ifuncs())) {
    GI.replaceAllUsesWith(PoisonValue::get(GI.getType()));
    GI.eraseFromParent();
  }
}

Function *SynthesisContext::getOrCreateAs(const DerivativeKey &Key,
                                          const DerivativeKey &Same) {
  Function *D = getOrCreate(Same);
  if (!D || Key.Mode == DerivativeMode::Forward) {
    if (D)
      Cache.insert(Key, D);
    return D;
  }
  // (Both sweeps, which callers look up by their keys.)
  for (DerivativeMode Mode :
       {DerivativeMode::Augmented, DerivativeMode::Reverse}) {
    DerivativeKey K = Key, S = Same;
    K.Mode = S.Mode = Mode;
    if (Function *F = Cache.lookup(S))
      Cache.insert(K, F);
  }
  return D;
}

Function *SynthesisContext::getOrCreateReverse(const DerivativeKey &Key) {
  DerivativeKey AugKey = Key, RevKey = Key;
  AugKey.Mode = DerivativeMode::Augmented;
  RevKey.Mode = DerivativeMode::Reverse;
  if (Function *Known = Cache.lookup(AugKey))
    return Key.Mode == DerivativeMode::Augmented ? Known : Cache.lookup(RevKey);
  Function &Primal = *Key.Primal;
  Function *Aug =
      Function::Create(derivativeType(AugKey), GlobalValue::InternalLinkage,
                       "augmented_" + primalName(Primal), M);
  Function *Rev =
      Function::Create(derivativeType(RevKey), GlobalValue::InternalLinkage,
                       "diffe_" + primalName(Primal), M);
  GeneratedFrom[Aug] = GeneratedFrom[Rev] = &Primal;
  // Registered before their bodies are emitted, so that recursion finds
  // them.
  Cache.insert(AugKey, Aug);
  Cache.insert(RevKey, Rev);
  ReverseEmitter Emitter(*this, AugKey, *Aug, *Rev);
  bool OK = Emitter.run();
  // Both sweeps use the thread's tape: forward mode over them must follow
  // every call (Hessian-vector products), arguments or not.
  Aug->addFnAttr(UsesTapeAttribute);
  Rev->addFnAttr(UsesTapeAttribute);
  if (OK) {
    advanceEnzymeIterations(*Aug);
    advanceEnzymeIterations(*Rev);
    return Key.Mode == DerivativeMode::Augmented ? Aug : Rev;
  }
  return discardGenerated({Aug, Rev});
}

Function *SynthesisContext::splitRecorder(const DerivativeKey &Key) const {
  DerivativeKey RecKey = Key;
  RecKey.Mode = DerivativeMode::Augmented;
  return Cache.lookup(RecKey);
}

Function *SynthesisContext::getOrCreateSplit(const DerivativeKey &Key) {
  DerivativeKey TanKey = Key, RecKey = Key;
  TanKey.Mode = DerivativeMode::Forward;
  RecKey.Mode = DerivativeMode::Augmented;
  if (Function *Known = Cache.lookup(TanKey))
    return Key.Mode == DerivativeMode::Forward ? Known : Cache.lookup(RecKey);
  Function &Primal = *Key.Primal;
  if (Primal.isDeclaration()) {
    // (Callees are checked where they are called.)
    if (RequestSite)
      error(*RequestSite, "split forward mode needs the body of '" +
                              displayName(Primal) +
                              "' in this translation unit");
    HadError = true;
    return nullptr;
  }
  std::string Width = Key.Width > 1 ? std::to_string(Key.Width) : "";
  Function *Tan =
      Function::Create(derivativeType(TanKey), GlobalValue::InternalLinkage,
                       "fwdsplit" + Width + "_" + primalName(Primal), M);
  Function *Rec =
      Function::Create(derivativeType(RecKey), GlobalValue::InternalLinkage,
                       "fwdsplit_record_" + primalName(Primal), M);
  GeneratedFrom[Tan] = GeneratedFrom[Rec] = &Primal;
  // Registered before their bodies are made, so that recursion finds them.
  Cache.insert(TanKey, Tan);
  Cache.insert(RecKey, Rec);
  ForwardEmitter Emitter(*this, TanKey, *Tan);
  if (Emitter.run()) {
    advanceEnzymeIterations(*Tan);
    advanceEnzymeIterations(*Rec);
    return Key.Mode == DerivativeMode::Forward ? Tan : Rec;
  }
  return discardGenerated({Tan, Rec});
}

void SynthesisContext::checkSplitTags() {
  for (const SplitTag &Use : SplitTags) {
    if (Use.Records)
      continue;
    bool Recorded = false, Others = false;
    std::string Seen;
    for (const SplitTag &R : SplitTags) {
      if (!R.Records || R.Primal != Use.Primal)
        continue;
      Recorded |= R.Tag == Use.Tag;
      Others = true;
      Seen = R.Tag;
    }
    // (Without any recording here, the tape comes from elsewhere: checked
    // when it is read.)
    if (Recorded || !Others)
      continue;
    error(*Use.Site,
          "__enzyme_fwdsplit of '" + displayName(*Use.Primal) +
              "' reads records of '" + Use.Tag +
              "' (function:activities:width), but the __enzyme_augmentfwd "
              "calls of it in this file record '" +
              Seen +
              "'; give both calls the same activities (a floating-point "
              "argument of __enzyme_augmentfwd is the one that "
              "__enzyme_fwdsplit passes with its tangent) and the same "
              "enzyme_width");
  }
}

} // namespace adcore
