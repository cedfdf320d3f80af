//===- CrossTU.cpp - Derivatives of functions of other files -------------===//
//
// See adcore/CrossTU.h. The link step: defines the derivatives that the
// program's objects asked for under the names of crossfile/CrossTUNames.cpp.
//
//===----------------------------------------------------------------------===//

#include "adcore/CrossTU.h"
#include "ADPass.h"
#include "CheckpointedCalls.h"
#include "Synthesis.h"
#include "analysis/ActivityAnalysis.h"
#include "analysis/GlobalShadows.h"
#include "analysis/ReadOnlyResults.h"
#include "crossfile/ReturnedGlobals.h"
#include "prepare/Prepare.h"
#include "requests/DenseViews.h"
#include "requests/EnzymeCalls.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ShadowRelease.h"
#include "support/SweepShadowClears.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

/// Reports \p Message at a call of \p Symbol (the request's source line,
/// from the IR of the file that made it), or without a place.
void report(Module &M, StringRef Symbol, const Twine &Message) {
  if (Function *Decl = M.getFunction(Symbol))
    for (User *U : Decl->users())
      if (auto *I = dyn_cast<Instruction>(U)) {
        M.getContext().diagnose(DiagnosticInfoUnsupported(
            *I->getFunction(), Message, I->getDebugLoc(), DS_Error));
        return;
      }
  M.getContext().diagnose(DiagnosticInfoGeneric(Message, DS_Error));
}

/// The definition a derivative was requested of, checked against what the
/// requesting file declared. A missing one is reported once per function
/// and kind of derivative (in \p Missing): both sweeps of a gradient are
/// requested.
Function *primalOf(Module &M, const CrossTURequest &R, StringRef Symbol,
                   StringSet<> &Missing) {
  Function *P = M.getFunction(R.Primal);
  // (A C++ complete-object constructor or destructor is an alias of the
  // base-object one, `C1` of `C2`: the function it names.)
  if (GlobalAlias *A = P ? nullptr : M.getNamedAlias(R.Primal))
    P = dyn_cast_or_null<Function>(A->getAliaseeObject());
  if (!P || P->isDeclaration()) {
    bool Forward = R.Key.Mode == DerivativeMode::Forward && !R.Combined;
    if (!Missing.insert((Twine(Forward) + R.Primal).str()).second)
      return nullptr;
    const char *Registration = Forward ? "__enzyme_register_derivative_"
                                       : "__enzyme_register_gradient_";
    // (MPI's library is not compiled by adcc: a call of it without a rule
    // is named as such.)
    if (StringRef(R.Primal).starts_with("MPI_"))
      report(M, Symbol,
             "cannot differentiate '" + R.Primal +
                 "': adcc has no derivative rule for this MPI call "
                 "(docs/parallel.md#mpi lists the calls with one); move it "
                 "out of the differentiated code or register a custom "
                 "derivative (" +
                 Registration + R.Primal + ")");
    else
      report(M, Symbol,
             "cannot differentiate '" + R.Primal +
                 "': no object file linked by adcc defines it; define it in "
                 "a file compiled by adcc, register a custom derivative (" +
                 Registration + R.Primal + ") or mark it inactive");
    return nullptr;
  }
  if (P->arg_size() != R.Key.Args.size()) {
    report(M, Symbol,
           "cannot differentiate '" + R.Primal + "': it takes " +
               Twine(P->arg_size()) + " parameters, but the file that " +
               "requests its derivative declares " + Twine(R.Key.Args.size()) +
               " (" + Symbol + ")");
    return nullptr;
  }
  return P;
}

/// Whether \p R asks \p P, a function returning a pointer, for the shadow
/// of its result although none of its arguments has a derivative: its
/// file's caller stores derivatives into that memory, or gives it to
/// another file's function with values with derivatives
/// (analysis/OtherFileResults.cpp).
bool asksResultShadow(const CrossTURequest &R, const Function &P) {
  // (Of a gradient, its augmented sweep answers: once per call.)
  if (R.Key.Mode == DerivativeMode::Reverse && !R.Combined)
    return false;
  return R.Key.ReturnShadow && P.getReturnType()->isPointerTy() &&
         all_of(R.Key.Args,
                [](ArgActivity A) { return A == ArgActivity::Const; });
}

/// Whether every pointer \p P returns has a shadow (asksResultShadow): the
/// new blocks of an allocating function (`ws_alloc`, `gsl_vector_alloc`),
/// whose shadows its derivative allocates alike, or a global with a shadow
/// global (crossfile/ReturnedGlobals.h).
bool returnsShadowedMemory(Function &P, const CrossTURequest &R,
                           const CustomRules &Rules) {
  ActivityAnalysis Activity(P, R.Key.Args, &Rules);
  bool Gives = true;
  for (BasicBlock &BB : P)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Gives &= Ret->getReturnValue() &&
               (isa<ConstantPointerNull>(Ret->getReturnValue()) ||
                Activity.isActive(Ret->getReturnValue()));
  return Gives;
}

/// Whether \p P gives the shadow \p R asks for (asksResultShadow): it
/// returns memory with a shadow, or memory the program only reads
/// (\p ReadOnly: analysis/ReadOnlyResults.h), whose shadow is null. A
/// pointer to other memory (another file's static data that holds
/// pointers, `get_state()`) is reported at the call, with what to do
/// (once per function: in \p Reported).
bool givesResultShadow(Module &M, const CrossTURequest &R, Function &P,
                       StringRef Symbol, const CustomRules &Rules,
                       const StringSet<> &ReadOnly, StringSet<> &Reported) {
  if (!asksResultShadow(R, P) || ReadOnly.contains(P.getName()) ||
      returnsShadowedMemory(P, R, Rules))
    return true;
  if (!Reported.insert(R.Primal).second)
    return false;
  report(M, Symbol,
         "cannot differentiate the call of '" + R.Primal +
             "': the caller stores values with derivatives into the memory "
             "its result points to, or gives it to another file's function "
             "with such values, and that memory has no shadow (the "
             "function, defined in another file, does not return newly "
             "allocated memory, nor a global variable that can have a "
             "shadow: one that holds no pointers); allocate that memory in "
             "the caller, or pass it to the derivative as a duplicated "
             "argument (enzyme_dup) with a shadow buffer");
  return false;
}

/// The getters whose results the program only reads (asksResultShadow
/// without returnsShadowedMemory, analysis/ReadOnlyResults.h), into
/// \p ReadOnly, and the arguments of the functions given their results,
/// whose shadows may then be null, into \p NullArgs.
/// \p Reached: what the derivatives made here may run; with the functions
/// the objects' derivatives may (DifferentiatedAttribute), the code whose
/// calls of a getter count.
void findReadOnlyResults(Module &M, ArrayRef<std::string> Symbols,
                         const CustomRules &Rules,
                         const SmallPtrSetImpl<const Function *> &Reached,
                         StringSet<> &ReadOnly,
                         DenseMap<const Function *, uint64_t> &NullArgs) {
  StringSet<> Requested;
  for (const std::string &Symbol : Symbols)
    if (std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol))
      Requested.insert(R->Primal);
  auto MadeHere = [&](const Function &F) {
    return Requested.contains(F.getName());
  };
  auto Differentiated = [&](const Function &F) {
    return F.hasFnAttribute(DifferentiatedAttribute) || Reached.contains(&F);
  };
  for (const std::string &Symbol : Symbols) {
    std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol);
    Function *P = R ? M.getFunction(R->Primal) : nullptr;
    if (!P || P->isDeclaration() || ReadOnly.contains(P->getName()) ||
        !asksResultShadow(*R, *P) || returnsShadowedMemory(*P, *R, Rules))
      continue;
    if (onlyReadThroughResult(*P, MadeHere, Differentiated, NullArgs))
      ReadOnly.insert(P->getName());
  }
}

/// Turns the definitions that the program's objects already hold into
/// declarations: strong external functions, variables among \p Objects
/// (those of the objects' IR), and aliases.
/// Functions and variables of one translation unit (internal), and those
/// every object may hold a copy of (inline functions, templates), stay.
void keepOnlyWhatIsMissing(Module &M, const SmallPtrSetImpl<Function *> &Made,
                           const SmallPtrSetImpl<GlobalVariable *> &Objects) {
  for (const char *Name :
       {"llvm.global_ctors", "llvm.global_dtors", "llvm.used",
        "llvm.compiler.used", "llvm.global.annotations"})
    if (GlobalVariable *GV = M.getGlobalVariable(Name))
      GV->eraseFromParent();
  for (GlobalAlias &A : make_early_inc_range(M.aliases())) {
    if (A.hasLocalLinkage())
      continue;
    GlobalValue *Decl;
    if (isa<Function>(A.getAliaseeObject()))
      Decl = Function::Create(cast<FunctionType>(A.getValueType()),
                              GlobalValue::ExternalLinkage, "", M);
    else
      Decl = new GlobalVariable(M, A.getValueType(), false,
                                GlobalValue::ExternalLinkage, nullptr);
    Decl->takeName(&A);
    A.replaceAllUsesWith(Decl);
    A.eraseFromParent();
  }
  auto Strong = [](const GlobalValue &G) {
    return !G.isDeclaration() && !G.hasLocalLinkage() &&
           !G.hasLinkOnceLinkage() && !G.hasWeakLinkage() &&
           !G.hasAvailableExternallyLinkage();
  };
  for (Function &F : M)
    if (!Made.contains(&F) && Strong(F)) {
      F.deleteBody();
      F.setComdat(nullptr);
    }
  // (Variables the derivatives made, the shadows of globals no object
  // defines one of, stay definitions.)
  for (GlobalVariable &GV : M.globals())
    if (Strong(GV) && Objects.contains(&GV)) {
      GV.setInitializer(nullptr);
      GV.setLinkage(GlobalValue::ExternalLinkage);
      GV.setComdat(nullptr);
    }
}

/// Removes the functions of one file (internal, private) that nothing
/// uses, and what only they used, until none is left.
void dropUnusedLocalFunctions(Module &M) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasLocalLinkage() && !F.isDeclaration() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
  }
}

/// The function \p Name of type \p FT, made a definition's shell here (the
/// objects' declaration of it replaced): external, hidden, no body yet.
Function *defineHere(Module &M, StringRef Name, FunctionType *FT) {
  Function *W = M.getFunction(Name);
  if (!W || !W->isDeclaration() || W->getFunctionType() != FT) {
    Function *New = Function::Create(FT, GlobalValue::ExternalLinkage, "", &M);
    if (W) {
      New->takeName(W);
      W->replaceAllUsesWith(New);
      W->eraseFromParent();
    } else {
      New->setName(Name);
    }
    W = New;
  }
  W->setLinkage(GlobalValue::ExternalLinkage);
  W->setVisibility(GlobalValue::HiddenVisibility);
  W->addFnAttr(Attribute::NoUnwind);
  return W;
}

/// Defines \p Name, the function that zeroes the shadows adcc owns that
/// \p D (made here; none where another link made it) uses
/// (crossTUReleaseSymbol), and, of a reverse sweep, its augmented sweep \p Aug:
/// a request calls it after the derivative, as it zeroes its own file's
/// (ShadowRelease.h). (Not D itself, which the derivatives of the requesting
/// file call too, nested: a forward derivative that zeroed a static's tangent
/// after each call of a function that stores it lost it for the next call.)
Function *defineRelease(Module &M, StringRef Name, const Function *D,
                        const Function *Aug) {
  auto *FT = FunctionType::get(Type::getVoidTy(M.getContext()), false);
  Function *W = defineHere(M, Name, FT);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "", W));
  ReturnInst *Ret = B.CreateRetVoid();
  B.SetInsertPoint(Ret);
  releaseOwnShadows(B, {D && !D->isDeclaration() ? D : nullptr, Aug});
  return W;
}

/// Defines \p Name (crossTUMarksSymbol), which begins (\p Begin, given the
/// caller's stack pointer) or ends a request's marks of pointer shadows on
/// \p Level, or does nothing where \p Level is none (no derivative made
/// here marks a pointer's shadow).
Function *defineMarks(Module &M, StringRef Name, bool Begin,
                      std::optional<unsigned> Level) {
  LLVMContext &C = M.getContext();
  Type *Void = Type::getVoidTy(C), *Ptr = PointerType::get(C, 0);
  Type *I32 = Type::getInt32Ty(C);
  Function *W = defineHere(
      M, Name,
      Begin ? FunctionType::get(Void, {Ptr}, false)
            : FunctionType::get(Void, false));
  IRBuilder<> B(BasicBlock::Create(C, "", W));
  if (Level && Begin)
    B.CreateCall(M.getOrInsertFunction(
                     "adcc_shadow_marks_begin",
                     FunctionType::get(Void, {Ptr, I32}, false)),
                 {W->getArg(0), B.getInt32(*Level)});
  else if (Level)
    endPointerShadowMarks(B, *Level);
  B.CreateRetVoid();
  return W;
}

/// Lowers the checkpointed loops in what \p Roots differentiate
/// (CheckpointedCalls.h) and makes the derivatives of their steps that this
/// requests: the split-mode ones first, which the forward derivatives over
/// them (forward over reverse) call.
void lowerCheckpointedLoops(Module &M, ArrayRef<DeclaredDerivative> Roots,
                            SynthesisContext &Ctx) {
  CollectedRequests Found = collectRequests(M);
  lowerCheckpointedCalls(M, Found, Roots, Ctx);
  // (Only those: the objects' own requests were made when they were
  // compiled.)
  SmallVector<const Request *, 8> Steps;
  for (const Request &R : Found.Requests)
    if (Function *Entry = R.Site->getCalledFunction();
        Entry && Entry->getName().ends_with(".adcc.checkpoint"))
      Steps.push_back(&R);
  for (const Request *R : Steps)
    if (R->Kind == RequestKind::AugmentedForward ||
        R->Kind == RequestKind::SplitReverse)
      lowerSplitRequest(*R, Ctx);
  for (const Request *R : Steps)
    if (R->Kind == RequestKind::Forward)
      lowerForwardRequest(*R, Ctx);
}

} // namespace

bool defineCrossTU(Module &M, ArrayRef<std::string> Symbols,
                   const Options &Opts) {
  // (The objects' derivatives, differentiated again here, call the
  // runtime where their helpers were inlined.)
  restoreNullShadowHelpers(M);
  SynthesisContext Ctx(M, Opts.PrintTapePlan);
  // (Contracted as the objects' translation units were compiled.)
  if (auto *Contract =
          mdconst::extract_or_null<ConstantInt>(M.getModuleFlag(ContractFlag)))
    Ctx.setContractDerivatives(Contract->isOne());
  bool BadRegistration = false;
  Ctx.rules().collect(M, BadRegistration);
  if (BadRegistration)
    return false;
  unsigned Level = 0;
  struct MadeSymbol {
    Function *D;
    std::string Symbol;
    bool Augmented;
  };
  SmallVector<MadeSymbol, 8> Made;
  StringSet<> Missing, Shadowless;
  bool OK = true;
  // The derivatives asked for, by primal and mode (the roots of the code
  // whose checkpointed loops are lowered first).
  std::vector<DeclaredDerivative> Roots;
  for (const std::string &Symbol : Symbols) {
    std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol);
    Function *P = R ? M.getFunction(R->Primal) : nullptr;
    if (!P || P->isDeclaration())
      continue;
    DeclaredDerivative D;
    D.Key = R->Key;
    D.Key.Primal = P;
    D.Mode = R->Key.Mode == DerivativeMode::Forward ? "forward" : "reverse";
    Roots.push_back(std::move(D));
  }
  // (The variables of the objects, before derivatives make shadows.)
  SmallPtrSet<GlobalVariable *, 32> Objects;
  for (GlobalVariable &GV : M.globals())
    Objects.insert(&GV);
  lowerCheckpointedLoops(M, Roots, Ctx);
  // (Tables of libm functions of the objects, tinyexpr's: the program's
  // pointers are the functions' own addresses, which the dispatch on a
  // wrapper tests too. LibraryPointers.cpp.)
  wrapLibraryFunctionPointers(M);
  // Which globals the differentiated code writes: those get shadows, as
  // when a file is compiled (ADPass.cpp). (Without it every global that
  // holds a double had one, and a function that only counts in such a
  // global, a timer of another file, was differentiated, and its file's
  // static variable used here.)
  SmallPtrSet<const Function *, 16> Reached;
  {
    for (const DeclaredDerivative &D : Roots)
      for (const Function *F : reachableFrom(*D.Key.Primal))
        Reached.insert(F);
    SmallVector<const Function *, 16> List(Reached.begin(), Reached.end());
    DenseSet<const GlobalVariable *> Written;
    collectWrittenGlobals(List, Written, /*FloatBitsOnly=*/true);
    // (And those getters of other files' data return whose callers store
    // derivatives into them: crossfile/ReturnedGlobals.h.)
    addReturnedGlobals(M, Symbols, Written);
    Ctx.rules().setWrittenGlobals(std::move(Written));
  }
  // (Getters of data the program only reads: their results' shadows are
  // null, guarded where they are given. analysis/ReadOnlyResults.h.)
  StringSet<> ReadOnly;
  DenseMap<const Function *, uint64_t> NullArgs;
  findReadOnlyResults(M, Symbols, Ctx.rules(), Reached, ReadOnly, NullArgs);
  for (const std::string &Symbol : Symbols) {
    std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol);
    if (!R)
      continue;
    Function *P = primalOf(M, *R, Symbol, Missing);
    if (!P) {
      OK = false;
      continue;
    }
    if (!givesResultShadow(M, *R, *P, Symbol, Ctx.rules(), ReadOnly,
                           Shadowless)) {
      OK = false;
      continue;
    }
    DerivativeKey Key = R->Key;
    Key.Primal = P;
    if (uint64_t Bits = NullArgs.lookup(P)) {
      for (unsigned I = 0, E = Key.Args.size(); I != E && I < 64; ++I)
        if (Key.Args[I] == ArgActivity::Const)
          Bits &= ~(uint64_t(1) << I);
      Key.NullableShadows |= Bits;
      Key.NullReaching |= Bits;
    }
    Function *D = Ctx.getOrCreate(Key);
    if (D && R->Combined) {
      DerivativeKey RevKey = Key;
      RevKey.Mode = DerivativeMode::Reverse;
      Function *Rev = Ctx.cache().lookup(RevKey);
      D = Rev ? Ctx.getOrCreateCombined(*D, *Rev) : nullptr;
    }
    if (!D)
      continue;
    Made.push_back(
        {D, Symbol, !R->Combined && R->Key.Mode == DerivativeMode::Augmented});
    Level = std::max(Level, R->OptLevel);
  }
  Ctx.verifyGenerated();
  if (!OK || Ctx.hadError())
    return false;

  // Each derivative takes the name its callers use, as an external
  // function; the declaration they call must have its type.
  SmallPtrSet<Function *, 16> Generated(Ctx.cache().functions().begin(),
                                        Ctx.cache().functions().end());
  Generated.insert(Ctx.combinedFunctions().begin(),
                   Ctx.combinedFunctions().end());
  for (auto &[D, Symbol, Augmented] : Made) {
    if (Function *Decl = M.getFunction(Symbol); Decl && Decl != D) {
      if (Decl->getFunctionType() != D->getFunctionType()) {
        report(M, Symbol,
               "the derivative '" + Symbol +
                   "' is declared with another type than its function's "
                   "definition gives it: does the requesting file declare '" +
                   parseCrossTUSymbol(Symbol)->Primal +
                   "' as the defining file does?");
        return false;
      }
      Decl->replaceAllUsesWith(D);
      Decl->eraseFromParent();
    }
    D->setName(Symbol);
    D->setLinkage(GlobalValue::ExternalLinkage);
    D->setVisibility(GlobalValue::HiddenVisibility);
  }
  // The functions that zero what each derivative leaves in adcc's own
  // shadows, which the requests call after it (not after an augmented
  // sweep: a request of one calls none).
  for (const std::string &Symbol : Symbols) {
    std::optional<std::string> Of = releasedCrossTUSymbol(Symbol);
    if (!Of)
      continue;
    Function *D = M.getFunction(*Of);
    const Function *Aug = nullptr;
    std::optional<CrossTURequest> R = parseCrossTUSymbol(*Of);
    if (D && R && !R->Combined && R->Key.Mode == DerivativeMode::Reverse) {
      DerivativeKey AugKey = R->Key;
      AugKey.Primal = M.getFunction(R->Primal);
      AugKey.Mode = DerivativeMode::Augmented;
      if (AugKey.Primal)
        Aug = Ctx.cache().lookup(AugKey);
    }
    Generated.insert(defineRelease(M, Symbol, D, Aug));
  }
  // The begin and end of the requests' marks of pointer shadows: on the
  // level the derivative records on (above 0 where its function nests
  // requests), where a derivative made here marks any.
  bool Marks = usesPointerShadowMarks(M);
  for (const std::string &Symbol : Symbols) {
    std::optional<std::pair<std::string, bool>> Of = marksCrossTUSymbol(Symbol);
    std::optional<CrossTURequest> R =
        Of ? parseCrossTUSymbol(Of->first) : std::nullopt;
    if (!R)
      continue;
    std::optional<unsigned> Level;
    if (Marks) {
      Level = R->Key.TapeLevel;
      if (Function *P = M.getFunction(R->Primal); P && !P->isDeclaration())
        Level = std::max(*Level, Ctx.tapeLevelFor(*P));
    }
    Generated.insert(defineMarks(M, Symbol, Of->second, Level));
  }
  // (The checks of y[i] stores deferred by the derivatives made here:
  // SweepShadowClears.h.)
  placeSweepShadowClears(M);
  // (Before the objects' definitions become declarations: the exported
  // names of static functions' addresses are aliases until then.)
  useExportedAddresses(M);
  keepOnlyWhatIsMissing(M, Generated, Objects);
  finishGenerated(Ctx, crossTULevel(Level));
  // (Objects carry the dense views they make unlowered from -O1, their IR
  // being from before finishGenerated: ADPass.cpp. Those the derivatives
  // made here use are lowered as in a file, after finishGenerated; the
  // objects' own functions that made the others, now unused, go first.)
  if (makesDenseViews(M)) {
    dropUnusedLocalFunctions(M);
    if (makesDenseViews(M) && !lowerDenseViews(M, Ctx))
      return false;
  }
  return true;
}

bool isScratchVariable(StringRef Name) {
  return Name.starts_with(ShadowSinkPrefix);
}

} // namespace adcore
