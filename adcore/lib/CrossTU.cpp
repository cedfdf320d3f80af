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
#include "prepare/Prepare.h"
#include "requests/EnzymeCalls.h"
#include "support/NullShadowGuards.h"
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

/// Whether \p P, asked for the shadow of the pointer it returns although
/// none of its arguments has a derivative, gives one: its file's caller
/// stores derivatives into that memory (analysis/OtherFileResults.cpp),
/// which only memory with a shadow can take, such as the new blocks of an
/// allocating function (`ws_alloc`, `gsl_vector_alloc`), whose shadows
/// its derivative allocates alike. A pointer to memory without a shadow
/// (another file's static data, `get_state()`) would get a null shadow:
/// reported at the call, with what to do (once per function: in
/// \p Reported).
bool givesResultShadow(Module &M, const CrossTURequest &R, Function &P,
                       StringRef Symbol, const CustomRules &Rules,
                       StringSet<> &Reported) {
  // (Of a gradient, its augmented sweep answers: once per call.)
  if (R.Key.Mode == DerivativeMode::Reverse && !R.Combined)
    return true;
  if (!R.Key.ReturnShadow || !P.getReturnType()->isPointerTy() ||
      any_of(R.Key.Args, [](ArgActivity A) { return A != ArgActivity::Const; }))
    return true;
  ActivityAnalysis Activity(P, R.Key.Args, &Rules);
  bool Gives = true;
  for (BasicBlock &BB : P)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Gives &= Ret->getReturnValue() &&
               (isa<ConstantPointerNull>(Ret->getReturnValue()) ||
                Activity.isActive(Ret->getReturnValue()));
  if (Gives)
    return true;
  if (!Reported.insert(R.Primal).second)
    return false;
  report(M, Symbol,
         "cannot differentiate the call of '" + R.Primal +
             "': the caller stores values with derivatives into the memory "
             "its result points to, which has no shadow (the function, "
             "defined in another file, does not return newly allocated "
             "memory); allocate that memory in the caller, or pass it to "
             "the derivative as a duplicated argument (enzyme_dup) with a "
             "shadow buffer");
  return false;
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
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "", W));
  ReturnInst *Ret = B.CreateRetVoid();
  B.SetInsertPoint(Ret);
  releaseOwnShadows(B, {D && !D->isDeclaration() ? D : nullptr, Aug});
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
  {
    SmallPtrSet<const Function *, 16> Reached;
    for (const DeclaredDerivative &D : Roots)
      for (const Function *F : reachableFrom(*D.Key.Primal))
        Reached.insert(F);
    SmallVector<const Function *, 16> List(Reached.begin(), Reached.end());
    DenseSet<const GlobalVariable *> Written;
    collectWrittenGlobals(List, Written, /*FloatBitsOnly=*/true);
    Ctx.rules().setWrittenGlobals(std::move(Written));
  }
  for (const std::string &Symbol : Symbols) {
    std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol);
    if (!R)
      continue;
    Function *P = primalOf(M, *R, Symbol, Missing);
    if (!P) {
      OK = false;
      continue;
    }
    if (!givesResultShadow(M, *R, *P, Symbol, Ctx.rules(), Shadowless)) {
      OK = false;
      continue;
    }
    DerivativeKey Key = R->Key;
    Key.Primal = P;
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
  // (The checks of y[i] stores deferred by the derivatives made here:
  // SweepShadowClears.h.)
  placeSweepShadowClears(M);
  // (Before the objects' definitions become declarations: the exported
  // names of static functions' addresses are aliases until then.)
  useExportedAddresses(M);
  keepOnlyWhatIsMissing(M, Generated, Objects);
  finishGenerated(Ctx, crossTULevel(Level));
  return true;
}

bool isScratchVariable(StringRef Name) {
  return Name.starts_with(ShadowSinkPrefix);
}

} // namespace adcore
