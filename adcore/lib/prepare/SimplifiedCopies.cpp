//===- SimplifiedCopies.cpp - -O0 code differentiated simplified ---------===//
//
// See SimplifiedCopies.h. The copy is close to what -O1 would have made of
// the function before adcc runs: its callees inlined where LLVM's inliner
// would (its cost estimate and the threshold of -O1 and -O2), then the
// scalar simplifications that type what -O0 left in memory.
//
//===----------------------------------------------------------------------===//

#include "SimplifiedCopies.h"
#include "Synthesis.h"

#include "analysis/ErasedStorage.h"
#include "analysis/SourceTypes.h"
#include "analysis/TypeAnalysis.h"
#include "device/DeviceCode.h"
#include "rules/CustomRules.h"
#include "support/AnalysisManagers.h"
#include "support/IRMarks.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {

namespace {

/// The inline threshold of LLVM's -O1 and -O2 (InlineParams).
constexpr int InlineThreshold = 225;

/// Whether \p F carries an attribute of adcc or Enzyme (a checkpointed
/// loop's step, an allocation-like function, a kept registration, Enzyme's
/// marks): such a function means something as a call. (Not the pass's own
/// note that no call through a pointer reaches it: IndirectTargets.h.)
bool hasMarkAttribute(const Function &F) {
  for (const Attribute &A : F.getAttributes().getFnAttrs())
    if (A.isStringAttribute() &&
        A.getKindAsString() != NotCalledThroughPointers &&
        (A.getKindAsString().starts_with("adcc") ||
         A.getKindAsString().starts_with("enzyme")))
      return true;
  return false;
}

/// Whether the C++ parameter types in \p F's name say what some of its
/// pointers point to (`double const*`: std::copy's memmove of a vector's
/// elements). Inlined, that would be lost.
bool hasSignatureSeeds(const Function &F) {
  SignatureSeeds Seeds = seedsFromSignature(F);
  // (Not a lambda's closure, `class.anon*`: inlined, the copy keeps it as a
  // pointee mark, and a std::function's manager is typed where it is.)
  return !Seeds.Pointees.empty() || !Seeds.Containers.empty() ||
         any_of(Seeds.Structs, [](const auto &S) {
           return !S.second->hasName() ||
                  !S.second->getName().starts_with("class.anon");
         });
}

/// Whether what \p F does can be typed only where it is called: it copies
/// bytes (a memcpy of an object passed by pointer: std::function's
/// manager, unique_ptr's move constructor) of which nothing in \p F says
/// the type, or returns a struct holding both floating-point values and
/// pointers (valarray's expression closures), whose pointers a reverse
/// sweep cannot return with their shadows.
bool needsItsCallers(const Function &F) {
  if (auto *Ret = dyn_cast<StructType>(F.getReturnType());
      Ret && containsFloat(Ret) &&
      any_of(Ret->elements(), [](Type *E) { return E->isPointerTy(); }))
    return true;
  std::unique_ptr<TypeAnalysis> Types;
  for (const Instruction &I : instructions(F)) {
    const auto *Copy = dyn_cast<MemTransferInst>(&I);
    if (!Copy)
      continue;
    auto *Len = dyn_cast<ConstantInt>(Copy->getLength());
    // (Fewer bytes than a float hold none.)
    if (Len && Len->getZExtValue() < 4)
      continue;
    if (!Types)
      Types = std::make_unique<TypeAnalysis>(const_cast<Function &>(F));
    // (As the emitters read a copy: what either side is known to hold
    // within the bytes copied, no byte of two kinds.)
    MemoryLayout L = Types->layout(Copy->getRawDest());
    for (auto [Offset, K] : Types->layout(Copy->getRawSource()))
      L.emplace(Offset, K);
    if (Len)
      for (auto It = L.begin(); It != L.end();)
        It = It->first >= 0 && uint64_t(It->first) >= Len->getZExtValue()
                 ? L.erase(It)
                 : std::next(It);
    if (L.empty() ||
        any_of(L, [](const auto &E) { return E.second == Kind::Conflict; }))
      return true;
  }
  return false;
}

/// The kind of values \p T holds as a whole: 1 floating-point, 2 integer,
/// 0 neither (or a mix).
unsigned scalarKind(Type *T) {
  T = T->getScalarType();
  return T->isFloatingPointTy() ? 1 : T->isIntegerTy() ? 2 : 0;
}

/// The bytes [Begin, End) of a local that one access reads or writes
/// whole, and the kind of the value (scalarKind).
struct LocalAccess {
  int64_t Begin, End;
  unsigned Kind;
};

/// The loads of the pointer variable (a local) that \p St stores an
/// address into, where nothing else is stored into it; none otherwise.
SmallVector<const LoadInst *, 4> loadsOfPointerVariable(const StoreInst &St) {
  SmallVector<const LoadInst *, 4> Loads;
  const auto *Slot = dyn_cast<AllocaInst>(St.getPointerOperand());
  if (!Slot || !St.getValueOperand()->getType()->isPointerTy())
    return {};
  for (const User *U : Slot->users()) {
    if (const auto *LI = dyn_cast<LoadInst>(U))
      Loads.push_back(LI);
    else if (U != &St && !isa<IntrinsicInst>(U)) // (lifetime markers)
      return {};
  }
  return Loads;
}

/// Adds to \p Out the scalar loads and stores of the local \p A, through
/// getelementptrs with constant offsets (a union's fields: fdlibm's
/// `ieee_double_shape_type`, written as a double and read as its high
/// word); false where an access through \p A is at an offset not known.
bool collectLocalAccesses(const AllocaInst &A, const DataLayout &DL,
                          SmallVectorImpl<LocalAccess> &Out) {
  SmallVector<std::pair<const Value *, int64_t>, 8> Work{{&A, 0}};
  while (!Work.empty()) {
    auto [Ptr, Offset] = Work.pop_back_val();
    for (const User *U : Ptr->users()) {
      Type *T = nullptr;
      if (const auto *LI = dyn_cast<LoadInst>(U))
        T = LI->getType();
      else if (const auto *SI = dyn_cast<StoreInst>(U);
               SI && SI->getPointerOperand() == Ptr)
        T = SI->getValueOperand()->getType();
      else if (const auto *GEP = dyn_cast<GEPOperator>(U);
               GEP && GEP->getPointerOperand() == Ptr) {
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Delta))
          return false;
        Work.push_back({GEP, Offset + Delta.getSExtValue()});
      } else if (const auto *St = dyn_cast<StoreInst>(U)) {
        // (The address kept in a pointer variable written once: Cephes'
        // `q = (short *)&u.sh[3]`, its words then read and written
        // through `*q`.)
        for (const LoadInst *Load : loadsOfPointerVariable(*St))
          Work.push_back({Load, Offset});
      }
      if (T && T->isSized())
        Out.push_back({Offset, Offset + int64_t(DL.getTypeStoreSize(T)),
                       scalarKind(T)});
    }
  }
  return true;
}

/// Whether \p F keeps the bits of a floating-point value in an integer
/// local variable (`memcpy(&u, &x, 8)` into a `uint64_t`, a union written
/// as a double and read as an integer, or its words written as integers
/// and read as a double): a local accessed both as floats and as integers
/// at the same bytes. At -O0 those bits travel through memory, which the
/// derivatives cannot follow; SROA makes them casts, which the rewrites of
/// float bits read as what they compute (sign operations: SignMasks.cpp;
/// exponents: ScaledFloatBits.cpp), as they read them from -O1 on.
bool keepsFloatBitsInIntegers(const Function &F) {
  const DataLayout &DL = F.getDataLayout();
  for (const Instruction &I : instructions(F)) {
    const auto *A = dyn_cast<AllocaInst>(&I);
    if (!A)
      continue;
    unsigned Kinds = scalarKind(A->getAllocatedType());
    for (const User *U : A->users()) {
      if (const auto *LI = dyn_cast<LoadInst>(U))
        Kinds |= scalarKind(LI->getType());
      else if (const auto *SI = dyn_cast<StoreInst>(U);
               SI && SI->getPointerOperand() == A)
        Kinds |= scalarKind(SI->getValueOperand()->getType());
      else if (const auto *Copy = dyn_cast<MemTransferInst>(U))
        for (const Value *Side : {Copy->getRawDest(), Copy->getRawSource()})
          if (const auto *Other = dyn_cast<AllocaInst>(Side))
            Kinds |= scalarKind(Other->getAllocatedType());
          // (An element of an array of floats: `memcpy(&u, (double *)p +
          // i, 8)`.)
          else if (const auto *GEP = dyn_cast<GEPOperator>(Side);
                   GEP && GEP->getSourceElementType()->isFloatingPointTy())
            Kinds |= 1;
    }
    if (Kinds == 3)
      return true;
    // (The fields of a union, each at its offset: only where a float and
    // an integer share bytes, not a struct of a double and an int.)
    SmallVector<LocalAccess, 8> Accesses;
    if (!collectLocalAccesses(*A, DL, Accesses))
      continue;
    for (const LocalAccess &X : Accesses)
      for (const LocalAccess &Y : Accesses)
        if (X.Kind == 1 && Y.Kind == 2 && X.Begin < Y.End &&
            Y.Begin < X.End)
          return true;
  }
  return false;
}

} // namespace

struct SimplifiedCopies::Passes {
  PassBuilder PB;
  AnalysisManagers AM{PB};
  FunctionAnalysisManager &FAM = AM.FAM;
  FunctionPassManager FPM;

  Passes() {
    // (Locals into values first; EarlyCSE then folds what the inlined
    // helpers passed through memory, SimplifyCFG the blocks left empty, and
    // SROA again what that exposed, and DCE the casts it left unused (a
    // union's words put together as a double, the high word alone cast
    // too, which the rewrites of float bits would take for a use of the
    // bits). No InstCombine: SimplifiedCopies.h.)
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
    FPM.addPass(SimplifyCFGPass());
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(DCEPass());
  }
};

SimplifiedCopies::SimplifiedCopies(
    const CustomRules &Rules, std::function<bool(const Function &)> IsGenerated)
    : Rules(Rules), IsGenerated(std::move(IsGenerated)) {}

SimplifiedCopies::~SimplifiedCopies() = default;

bool SimplifiedCopies::mayCopy(const Function &F) const {
  // (Not the moves of std::function's storage, whose marked copies SROA
  // would remake without their marks: ErasedMoves.cpp.)
  return !F.isDeclaration() && F.hasOptNone() && !F.isVarArg() &&
         !movesErasedStorage(F.getName()) &&
         !IsGenerated(F) && !Original.count(&F) && !hasMarkAttribute(F) &&
         !isDeviceModule(*F.getParent());
}

bool SimplifiedCopies::mayInline(const Function &Callee) const {
  if (Rules.isInactive(&Callee) || Rules.forwardDerivative(&Callee) ||
      Rules.gradient(&Callee) || Rules.splitDerivative(&Callee) ||
      !Rules.functionLike(&Callee).empty())
    return false;
  // C functions stay calls: their copies are simplified each, and C has no
  // library helpers in headers to inline (nor a way to tell -O0's
  // noinline from the program's: a function kept apart on purpose, as
  // around Enzyme's inactive globals).
  if (!Callee.getName().starts_with("_Z"))
    return false;
  // (libstdc++'s debug mode checks iterators in functions that carry no
  // derivative: kept as calls.)
  if (Callee.getName().contains("__gnu_debug"))
    return false;
  // (An OpenMP region's body stays the function the runtime calls.)
  if (Callee.getName().contains(".omp_outlined"))
    return false;
  // Nor one that asks for derivatives or runs the tape (a nested gradient,
  // lowered already into a call of a derivative).
  for (const Instruction &I : instructions(Callee)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    const Function *Target = Call ? Call->getCalledFunction() : nullptr;
    if (Target &&
        (IsGenerated(*Target) || Target->getName().starts_with("__enzyme") ||
         Target->getName().starts_with("adcc_")))
      return false;
  }
  return true;
}

void SimplifiedCopies::inlineSmallCallees(Function &Copy, const Function &F) {
  SmallVector<CallBase *, 16> Calls;
  for (Instruction &I : instructions(Copy))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        // (`[[clang::noinline]]` at the call; the callee's own noinline is
        // -O0's.)
        if (Callee != &F && !Callee->isDeclaration() &&
            !Call->getAttributes().hasFnAttr(Attribute::NoInline) &&
            Call->getFunctionType() == Callee->getFunctionType())
          Calls.push_back(Call);
  FunctionAnalysisManager &FAM = P->FAM;
  auto GetAC = [&](Function &G) -> AssumptionCache & {
    return FAM.getResult<AssumptionAnalysis>(G);
  };
  for (CallBase *Call : Calls) {
    Function *Callee = Call->getCalledFunction();
    if (!mayInline(*Callee))
      continue;
    // (Bottom-up, as LLVM's inliner: the callee's copy has its own small
    // callees inlined and is simplified; the cost is that of the copy.)
    Function *Simple = copyOf(*Callee);
    if (!Simple)
      continue;
    // (What the program's function needs where it is: CallerTypes.cpp
    // types some copies from the callers it has in the module, which the
    // copy has not.)
    bool Rescue = Rescues.contains(Simple) || needsCallers(*Callee);
    // (Where F's own copies need typing, the callees that say what its
    // pointers are inlined too: an iterator's constructor from a
    // `particle *const &` then leaves the address of the element itself.)
    if (!Rescue && !needsCallers(F) && hasSignatureSeeds(*Callee))
      continue;
    Call->setCalledFunction(Simple);
    // (Estimated as the program's function: a copy is internal and called
    // once, for which the estimate would give the bonus of the last call
    // of a static function whatever its size.)
    Simple->setLinkage(GlobalValue::LinkOnceODRLinkage);
    std::optional<int> Cost = getInliningCostEstimate(
        *Call, FAM.getResult<TargetIRAnalysis>(*Simple), GetAC);
    Simple->setLinkage(GlobalValue::InternalLinkage);
    if (!Cost || *Cost > InlineThreshold) {
      Call->setCalledFunction(Callee);
      continue;
    }
    recordPointeeHints(Copy, *Call, *Simple);
    InlineFunctionInfo Info(GetAC);
    if (!InlineFunction(*Call, Info).isSuccess()) {
      Call->setCalledFunction(Callee);
      continue;
    }
    AttributeFuncs::mergeAttributesForInlining(Copy, *Simple);
    if (Rescue)
      Rescues.insert(&Copy);
  }
  FAM.invalidate(Copy, PreservedAnalyses::none());
}

/// The one scalar type every field of \p ST (and of the structs and arrays
/// in it) has, or null.
static Type *onlyScalarOf(Type *T) {
  if (auto *A = dyn_cast<ArrayType>(T))
    return onlyScalarOf(A->getElementType());
  auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return T;
  Type *Only = nullptr;
  for (Type *E : ST->elements()) {
    Type *Each = onlyScalarOf(E);
    if (!Each || (Only && Only != Each))
      return nullptr;
    Only = Each;
  }
  return Only;
}

/// What \p F's parameters point to, as PointeeMetadata names it ("double",
/// "float", or the name of a struct with floating-point fields): what its
/// C++ parameter types say, and the marks a copy's inlined callees left on
/// it.
static SmallVector<std::pair<unsigned, std::string>, 4>
floatPointees(const Function &F) {
  SmallVector<std::pair<unsigned, std::string>, 4> Out;
  SignatureSeeds Seeds = seedsFromSignature(F);
  for (auto [ArgNo, K] : Seeds.Pointees)
    if (K == Kind::Double || K == Kind::Float)
      Out.push_back({ArgNo, K == Kind::Double ? "double" : "float"});
  // (A struct of doubles or floats: a lambda's closure that captured them
  // by value, copied by std::function's manager. Named by its type where
  // it mixes them with other fields.)
  for (auto [ArgNo, ST] : Seeds.Structs)
    if (Type *Only = onlyScalarOf(ST); Only && Only->isFloatingPointTy())
      Out.push_back({ArgNo, Only->isDoubleTy() ? "double" : "float"});
    else if (ST->hasName() && containsFloat(ST))
      Out.push_back({ArgNo, ST->getName().str()});
  if (MDNode *N = F.getMetadata(PointeeMetadata))
    for (const MDOperand &Op : N->operands()) {
      auto *Entry = cast<MDNode>(Op);
      auto *ArgNo = mdconst::extract<ConstantInt>(Entry->getOperand(0));
      Out.push_back({unsigned(ArgNo->getZExtValue()),
                     cast<MDString>(Entry->getOperand(1))->getString().str()});
    }
  return Out;
}

void SimplifiedCopies::recordPointeeHints(Function &Copy, CallBase &Call,
                                          const Function &Simple) {
  for (auto [ArgNo, What] : floatPointees(Simple))
    if (ArgNo < Call.arg_size())
      Hints[&Copy].push_back({WeakTrackingVH(Call.getArgOperand(ArgNo)),
                              What});
}

void SimplifiedCopies::markPointeeHints(Function &Copy) {
  auto It = Hints.find(&Copy);
  if (It == Hints.end())
    return;
  LLVMContext &Ctx = Copy.getContext();
  SmallVector<Metadata *, 4> ArgMarks;
  for (const PointeeHint &H : It->second) {
    Value *V = H.Ptr;
    if (!V || !V->getType()->isPointerTy())
      continue;
    if (auto *I = dyn_cast<Instruction>(V))
      I->setMetadata(PointeeMetadata,
                     MDNode::get(Ctx, {MDString::get(Ctx, H.What)}));
    else if (auto *A = dyn_cast<Argument>(V); A && A->getParent() == &Copy)
      ArgMarks.push_back(MDNode::get(
          Ctx, {ConstantAsMetadata::get(ConstantInt::get(
                    Type::getInt32Ty(Ctx), A->getArgNo())),
                MDString::get(Ctx, H.What)}));
  }
  if (!ArgMarks.empty())
    Copy.setMetadata(PointeeMetadata, MDNode::get(Ctx, ArgMarks));
}

bool SimplifiedCopies::needsCallers(const Function &F) {
  auto [It, New] = NeedsCallers.try_emplace(&F, false);
  if (New)
    It->second = needsItsCallers(F);
  return It->second;
}

bool SimplifiedCopies::mayNeedRescue(const Function &F) {
  auto [It, New] = MayNeedRescue.try_emplace(&F, false);
  if (!New)
    return It->second; // (false while it is being scanned: recursion)
  // (F itself: its locals hold a float's bits as integers, or it copies
  // bytes it cannot type, which its callees inlined may type: the
  // iterators of std::sort's heap, whose operator* gives the address.)
  bool Needs = keepsFloatBitsInIntegers(F) || needsCallers(F);
  for (const Instruction &I : instructions(F)) {
    if (Needs)
      break;
    const auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee == &F || !mayCopy(*Callee) || !mayInline(*Callee))
      continue;
    if (needsCallers(*Callee) || mayNeedRescue(*Callee)) {
      Needs = true;
      break;
    }
  }
  MayNeedRescue[&F] = Needs;
  return Needs;
}

Function *SimplifiedCopies::rescuingCopyOf(Function &F) {
  if (!mayCopy(F) || !mayNeedRescue(F))
    return nullptr;
  Function *Copy = copyOf(F);
  return Copy && Rescues.contains(Copy) ? Copy : nullptr;
}

Function *SimplifiedCopies::copyOf(Function &F) {
  if (auto It = Copies.find(&F); It != Copies.end())
    return It->second;
  if (InProgress.contains(&F) || !mayCopy(F))
    return nullptr;
  InProgress.insert(&F);
  // (The passes are set up for the first copy: most modules need none.)
  if (!P)
    P = std::make_unique<Passes>();
  ValueToValueMapTy Map;
  Function *Copy = CloneFunction(&F, Map);
  Copy->setName(F.getName() + ".simplified");
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setComdat(nullptr);
  Copy->setDSOLocal(true);
  Copy->removeFnAttr(Attribute::OptimizeNone);
  Copy->removeFnAttr(Attribute::NoInline);
  Original[Copy] = &F;
  Made.push_back(Copy);
  inlineSmallCallees(*Copy, F);
  P->FPM.run(*Copy, P->FAM);
  markPointeeHints(*Copy);
  // (Copies F cannot type: the calls its inlined callees kept (an
  // iterator's constructor inside its operator+) inlined too, twice more
  // at most.)
  for (unsigned Round = 0;
       Round < 2 && needsCallers(F) && needsItsCallers(*Copy); ++Round) {
    inlineSmallCallees(*Copy, F);
    P->FPM.run(*Copy, P->FAM);
    markPointeeHints(*Copy);
  }
  if (keepsFloatBitsInIntegers(F) ||
      (needsCallers(F) && !needsItsCallers(*Copy)))
    Rescues.insert(Copy);
  InProgress.erase(&F);
  Copies[&F] = Copy;
  // (The analyses are kept for one copy and the copies made for it: the
  // module changes between two.)
  if (InProgress.empty())
    P->FAM.clear();
  return Copy;
}

void SimplifiedCopies::eraseUnused() {
  // (Last made first: a copy inlined into a later one is unused once that
  // one is gone.)
  for (Function *Copy : reverse(Made))
    if (Copy->use_empty())
      Copy->eraseFromParent();
  Made.clear();
  Copies.clear();
  Original.clear();
  Rescues.clear();
  MayNeedRescue.clear();
  NeedsCallers.clear();
}

} // namespace adcore
