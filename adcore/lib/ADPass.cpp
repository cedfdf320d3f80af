//===- ADPass.cpp - The module pass that differentiates ------------------===//

#include "ADPass.h"

#include "CheckpointedCalls.h"
#include "support/CallSites.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ShadowRelease.h"
#include "support/SweepShadowClears.h"
#include "adcore/CrossTU.h"
#include "rules/CustomRules.h"
#include "rules/GpuLaunches.h"
#include "rules/OpenMPRuntime.h"
#include "rules/WarpShuffles.h"
#include "requests/DenseViews.h"
#include "requests/DeclaredDerivatives.h"
#include "requests/EnzymeCalls.h"
#include "requests/FunctionParameters.h"
#include "requests/UnmergedRequests.h"
#include "device/DeviceCode.h"
#include "device/LaunchPointers.h"
#include "adcore/EnzymeMarks.h"
#include "analysis/GlobalShadows.h"
#include "analysis/IndirectTargets.h"
#include "analysis/OtherFileResults.h"
#include "analysis/WriteOnlyMemory.h"
#include "adcore/ParamShapes.h"
#include "adcore/RequestCollector.h"
#include "Synthesis.h"
#include "optimize/Optimize.h"
#include "prepare/Prepare.h"

#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

/// The functions \p F may run: itself and, transitively, its callees (and
/// the bodies of the OpenMP regions it starts); for a call through a
/// pointer, every function the derivatives consider it may call
/// (possibleCallTargets: a lambda or function handed to adcc::forward
/// through a closure, which calls adcc::gradient).
SmallPtrSet<const Function *, 16> reachableFrom(Function &F) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<Function *, 16> Work{&F};
  // (Each signature's targets looked up once: the lookup reads the module.)
  DenseMap<FunctionType *, SmallVector<Function *, 8>> Targets;
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    if (!Seen.insert(G).second || G->isDeclaration())
      continue;
    for (BasicBlock &BB : *G)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || Call->isInlineAsm())
          continue;
        if (Function *Callee = Call->getCalledFunction()) {
          Work.push_back(Callee);
          // (A region's body writes the globals it names itself: Clang
          // passes it no pointer to them.)
          if (classifyOpenMPCall(*Callee) == OpenMPCall::Fork)
            if (Function *Body = forkedFunction(*Call))
              Work.push_back(Body);
        } else if (auto [It, New] =
                       Targets.try_emplace(Call->getFunctionType());
                 New)
          append_range(Work, It->second = possibleCallTargets(
                                 *G->getParent(), Call->getFunctionType()));
      }
  }
  return Seen;
}

namespace {

/// One thing to synthesize: an Enzyme-style request or a derivative declared
/// with an attribute.
struct Job {
  const Request *R = nullptr;
  const DeclaredDerivative *D = nullptr;
  Function *Primal = nullptr;
  /// Functions that call what this job produces.
  SmallPtrSet<const Function *, 4> Sites;
};

/// Jobs in an order where a job whose result is used inside code that
/// another job differentiates comes first (higher derivatives by nesting:
/// the inner request must be a call to a derivative before the outer one
/// runs). A cycle is reported.
std::vector<const Job *> nestingOrder(ArrayRef<Job> Jobs,
                                      SynthesisContext &Ctx) {
  std::vector<const Job *> Pending, Order;
  for (const Job &J : Jobs)
    Pending.push_back(&J);
  while (!Pending.empty()) {
    bool Progress = false;
    for (auto It = Pending.begin(); It != Pending.end();) {
      auto Reach = reachableFrom(*(*It)->Primal);
      bool Blocked = any_of(Pending, [&](const Job *Other) {
        return Other != *It && any_of(Other->Sites, [&](const Function *F) {
                 return Reach.contains(F);
               });
      });
      if (Blocked) {
        ++It;
        continue;
      }
      Order.push_back(*It);
      It = Pending.erase(It);
      Progress = true;
    }
    if (Progress)
      continue;
    for (const Job *J : Pending)
      if (J->R)
        Ctx.error(*J->R->Site, "derivative requests of '" +
                                   J->Primal->getName() +
                                   "' depend on each other in a cycle");
    break;
  }
  return Order;
}

/// Gives the functions of \p Reached that \p M defines (what its
/// derivatives may run) DifferentiatedAttribute for the IR it carries, or
/// (\p On false) takes it from every function again.
void markDifferentiated(Module &M,
                        const SmallPtrSetImpl<const Function *> &Reached,
                        bool On) {
  for (Function &F : M) {
    if (!On)
      F.removeFnAttr(DifferentiatedAttribute);
    else if (!F.isDeclaration() && Reached.contains(&F))
      F.addFnAttr(DifferentiatedAttribute);
  }
}

} // namespace

void finishGenerated(SynthesisContext &Ctx, OptimizationLevel Level) {
  Module &M = Ctx.module();
  // (Device code keeps its tape in the frame of the combined gradient: the
  // sweeps are inlined there at every level, -O0 included.)
  bool Device = isDeviceModule(M);
  bool O0 = Level == OptimizationLevel::O0;
  if (O0 && !Device)
    return;
  bool Rolled = loopsStayRolled(M);
  // The sweeps of a combined gradient are inlined into the function that
  // runs them, which keeps their end records in its frame: those stay
  // calls to find there.
  // (A recursive function's sweeps keep their records on the tape: known
  // before the optimizer turns their calls of themselves into loops.)
  noteRecursiveSweeps(Ctx);
  SmallPtrSet<Function *, 8> KeepEndRecords;
  for (const CombinedSweeps &S : Ctx.combined())
    if (callsCombinedAlone(S) && !Ctx.isRecursive(*S.Aug) &&
        !Ctx.isRecursive(*S.Rev)) {
      KeepEndRecords.insert({S.Aug, S.Rev});
      SmallVector<std::pair<Function *, Function *>, 4> Callees;
      calleeSweepsInFrame(Ctx, S, Callees);
      for (auto [Aug, Rev] : Callees)
        KeepEndRecords.insert({Aug, Rev});
    }
  for (Function *F : Ctx.cache().functions())
    if (!Device && !F->isDeclaration() &&
        F->hasFnAttribute(UsesTapeAttribute)) {
      expandTapeOperations(*F, KeepEndRecords.contains(F));
      tagTapeAccesses(*F);
    }
  if (!O0) {
    TimeTraceScope Scope("adcc: optimize derivatives");
    optimizeGenerated(Ctx.cache().functions(), Level, /*Derivatives=*/true,
                      Ctx.contractsDerivatives(), Rolled);
  }
  // The derivatives were created after the inliner ran: inline them into
  // their callers (the request sites, other derivatives), then simplify
  // the callers again.
  SmallPtrSet<Function *, 8> Touched;
  TimeTraceScope InlineScope("adcc: inline derivatives");
  inlineCombinedSweeps(Ctx, Touched);
  SmallVector<Function *, 16> Generated(Ctx.cache().functions().begin(),
                                        Ctx.cache().functions().end());
  append_range(Generated, Ctx.combinedFunctions());
  // (Device code: the tapes placed in the callers' frames below need the
  // callers simplified again.)
  SmallPtrSet<Function *, 16> Simplified;
  if (!O0 && !Device)
    Simplified.insert(Ctx.cache().functions().begin(),
                      Ctx.cache().functions().end());
  inlineGenerated(Generated, Simplified, Touched, /*Always=*/Device);
  if (Device)
    placeDeviceTapes(Ctx, /*Promote=*/O0);
  // (in module order; not the derivatives now inlined everywhere, which
  // are removed below)
  SmallVector<Function *, 8> Changed;
  for (Function &F : M)
    if (Touched.contains(&F) && !(F.hasLocalLinkage() && F.use_empty()))
      Changed.push_back(&F);
  // (Sweeps inlined into one function share its tape handle, as in each
  // generated function before it was inlined; device code has none of the
  // host's.)
  if (!Device)
    for (Function *F : Changed)
      shareTapeHandles(*F);
  TimeTraceScope Scope("adcc: optimize callers");
  if (!O0)
    optimizeGenerated(Changed, Level, /*Derivatives=*/false,
                      /*Contract=*/false, Rolled);
  // What was inlined everywhere is dead: the rest of the pipeline need
  // not optimize it.
  for (Function *F : Generated)
    if (F->hasLocalLinkage() && F->use_empty())
      F->eraseFromParent();
}

PreservedAnalyses KeepRegisteredPass::run(Module &M, ModuleAnalysisManager &) {
  // (Enzyme's attributes and annotations become registrations first.)
  bool Changed = readEnzymeAnnotations(M);
  Changed |= lowerTruncatedFunctions(M);
  Changed |= specializeFunctionParameters(M);
  Changed |= keepRequestsUnmerged(M);
  Changed |= dropEnzymeTypeHints(M);
  Changed |= replaceShadowTables(M);
  Changed |= makeLaunchRules(M);
  Changed |= CustomRules::keepRegisteredOutOfLine(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses ADPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Opts.EnableAD)
    return PreservedAnalyses::all();
  // (Before the IR carried for link time is written.)
  if (Opts.IntegerUnions)
    attachIntegerUnions(M, *Opts.IntegerUnions);
  if (Opts.DeclaredPointees)
    attachDeclaredPointees(M, *Opts.DeclaredPointees);
  if (Opts.TemplateRecords)
    attachTemplateRecords(M, *Opts.TemplateRecords);
  PreservedAnalyses PA = differentiate(M);
  if (!isDeviceModule(M))
    return PA;
  // (The device libraries' functions kept as calls for the AD pass, and
  // those its partials call.)
  finishDeviceMath(M, Opts.DeviceLibraries);
  return PreservedAnalyses::none();
}

namespace {

/// Keeps the first error reported while it is installed; drops the rest.
struct FirstError : DiagnosticHandler {
  std::string *Text;
  explicit FirstError(std::string *Text) : Text(Text) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error || !Text->empty())
      return true;
    std::string Message;
    raw_string_ostream OS(Message);
    if (const auto *U = dyn_cast<DiagnosticInfoUnsupported>(&DI)) {
      // (file:line:column: the message, without the IR function's name)
      if (U->isLocationAvailable())
        OS << U->getLocationStr() << ": ";
      OS << U->getMessage();
    } else {
      DiagnosticPrinterRawOStream Printer(OS);
      DI.print(Printer);
    }
    *Text = StringRef(Message).rtrim().str();
    if (Text->empty())
      *Text = "an error";
    return true;
  }
};

} // namespace

std::string ADPass::tryDifferentiate(Module &Copy) {
  Options Quiet = Opts;
  Quiet.PrintRequests = Quiet.PrintTapePlan = false;
  Quiet.LaunchedKernels = nullptr;
  Quiet.EmbedIR = false;
  LLVMContext &C = Copy.getContext();
  std::string Error;
  std::unique_ptr<DiagnosticHandler> Kept = C.getDiagnosticHandler();
  C.setDiagnosticHandler(std::make_unique<FirstError>(&Error));
  ADPass(Quiet, Level).differentiate(Copy);
  C.setDiagnosticHandler(std::move(Kept));
  return Error;
}

PreservedAnalyses ADPass::differentiate(Module &M) {
  // (Done at the start of the pipeline already, unless the pass runs alone.)
  readEnzymeAnnotations(M);
  lowerTruncatedFunctions(M);
  specializeFunctionParameters(M);
  dropEnzymeTypeHints(M);
  replaceShadowTables(M);
  if (Opts.WrittenKernelParams)
    markWrittenKernelParams(M, *Opts.WrittenKernelParams);
  makeLaunchRules(M);
  // (AMDGPU's cross-lane reads of floats, as the optimizer left them: in
  // holders with rules.)
  if (isDeviceModule(M)) {
    wrapAmdgpuCrossLane(M);
    // (What <adcc/kernels.hpp>'s GPU launches ask of their work-items'
    // pointers: LaunchPointers.h.)
    lowerKernelPointerQueries(M);
  }
  CustomRules::restoreKeptLinkage(M);
  // (A shadow this file names is the program's to zero: ShadowRelease.h.)
  bool NamedShadows = !isDeviceModule(M) && markNamedShadows(M);
  // (The kernels the host code launches with <<<...>>> get derivative
  // kernels, requested as the program would request them.)
  if (Opts.LaunchedKernels)
    makeLaunchDerivativeKernels(M, *Opts.LaunchedKernels, [&](Module &Copy) {
      return tryDifferentiate(Copy);
    });

  CollectedRequests Found = collectRequests(M);
  if (Opts.PrintRequests) {
    for (const Request &R : Found.Requests) {
      errs() << "adcc: request: ";
      print(errs(), R);
      errs() << "\n";
    }
  }
  SynthesisContext Ctx(M, Opts.PrintTapePlan);
  Ctx.setContractDerivatives(Opts.ContractDerivatives);
  Ctx.setLoopVectorizer(Opts.LoopVectorizer);
  if (Opts.ParamShapes)
    attachParamShapes(M, *Opts.ParamShapes);
  bool BadRegistration = false;
  Ctx.rules().collect(M, BadRegistration);
  std::vector<DeclaredDerivative> Declared = collectDeclaredDerivatives(M, Ctx);
  // (Checkpointed loops in differentiated code request their steps'
  // derivatives.)
  lowerCheckpointedCalls(M, Found, Declared, Ctx);
  bool HasViews = makesDenseViews(M);
  if (Found.Requests.empty() && Found.Errors.empty() && Declared.empty() &&
      !HasViews && !Ctx.hadError()) {
    // (The IR carried for derivatives made at link time keeps Enzyme's
    // __enzyme_iter calls; the program's code has their first argument.)
    if (Opts.EmbedIR)
      embedModuleIR(M, Opts);
    bool Lowered = lowerEnzymeIterations(M);
    return Opts.EmbedIR || Lowered || NamedShadows ? PreservedAnalyses::none()
                                                   : PreservedAnalyses::all();
  }
  // (Pointers that other files' functions return may then get shadows:
  // analysis/OtherFileResults.h.)
  if (Opts.CrossTU) {
    Ctx.deferMissingBodies(Level.getSpeedupLevel());
    markBodiesAtLinkTime(M, true);
  }
  // (Tables of libm and allocation functions called through pointers:
  // LibraryPointers.cpp.)
  wrapLibraryFunctionPointers(M);

  for (const MalformedRequest &E : Found.Errors)
    Ctx.error(*E.Site, E.Message);

  SmallPtrSet<Function *, 4> EntryPoints;
  for (const Request &R : Found.Requests)
    EntryPoints.insert(dyn_cast<Function>(R.Site->getCalledOperand()));
  std::vector<Job> Jobs;
  for (const Request &R : Found.Requests) {
    Job J;
    J.R = &R;
    J.Primal = R.Primal;
    J.Sites.insert(R.Site->getFunction());
    Jobs.push_back(std::move(J));
  }
  for (const DeclaredDerivative &D : Declared) {
    Job J;
    J.D = &D;
    J.Primal = D.Key.Primal;
    if (Function *Symbol = M.getFunction(D.Symbol))
      for (User *U : Symbol->users())
        if (auto *I = dyn_cast<Instruction>(U))
          J.Sites.insert(I->getFunction());
    Jobs.push_back(std::move(J));
  }
  // (Functions whose address only reaches helpers that call it, none of
  // them differentiated, are no target of a derivative's call through a
  // pointer: IndirectTargets.h.)
  {
    SmallVector<Function *, 8> Roots;
    for (const Job &J : Jobs)
      Roots.push_back(J.Primal);
    markUncalledAddresses(M, Roots);
  }
  // (Which globals the differentiated code writes: those get shadows.)
  SmallPtrSet<const Function *, 16> Reached;
  {
    for (const Job &J : Jobs)
      for (const Function *F : reachableFrom(*J.Primal))
        Reached.insert(F);
    SmallVector<const Function *, 16> List(Reached.begin(), Reached.end());
    DenseSet<const GlobalVariable *> Written;
    collectWrittenGlobals(List, Written, /*FloatBitsOnly=*/true);
    Ctx.rules().setWrittenGlobals(std::move(Written));
    Ctx.rules().setWriteOnlyMemory(collectWriteOnlyMemory(List, Ctx.rules()));
  }
  // (Split forward mode records what __enzyme_fwdsplit reads; a reverse
  // sweep cannot read those records.)
  for (const Request &R : Found.Requests)
    if (R.Kind == RequestKind::ForwardSplit)
      Ctx.noteForwardSplit(*R.Primal);
  for (const Request &R : Found.Requests)
    if (R.Kind == RequestKind::SplitReverse &&
        Ctx.recordsForwardSplit(*R.Primal))
      Ctx.error(*R.Site,
                "__enzyme_reverse of '" + R.Primal->getName() +
                    "' in a file that also asks __enzyme_fwdsplit of it: "
                    "adcc's __enzyme_augmentfwd records for one of them "
                    "(split forward mode here); request the two in "
                    "separate files");
  for (const Job *J : nestingOrder(Jobs, Ctx)) {
    TimeTraceScope Scope("adcc: synthesize", J->Primal->getName());
    if (isDeviceModule(M)) {
      bool Reverse = J->D ? J->D->Key.Mode != DerivativeMode::Forward
                          : J->R->Kind != RequestKind::Forward &&
                                J->R->Kind != RequestKind::ErrorEstimate &&
                                J->R->Kind != RequestKind::ForwardSplit &&
                                J->R->Kind != RequestKind::Batch;
      if (!checkDeviceCode(*J->Primal, Reverse, Ctx))
        continue;
    }
    if (J->D) {
      defineDeclaredDerivative(*J->D, Ctx);
      continue;
    }
    const Request *R = J->R;
    if (R->Kind == RequestKind::Forward ||
        R->Kind == RequestKind::ErrorEstimate) {
      lowerForwardRequest(*R, Ctx);
      continue;
    }
    if (R->Kind == RequestKind::Reverse) {
      lowerReverseRequest(*R, Ctx);
      continue;
    }
    if (R->Kind == RequestKind::AugmentedForward ||
        R->Kind == RequestKind::SplitReverse ||
        R->Kind == RequestKind::AugmentSize) {
      lowerSplitRequest(*R, Ctx);
      continue;
    }
    if (R->Kind == RequestKind::Batch) {
      lowerBatchRequest(*R, Ctx);
      continue;
    }
    lowerForwardSplitRequest(*R, Ctx);
  }
  clearUncalledAddresses(M);
  markBodiesAtLinkTime(M, false);
  Ctx.checkSplitTags();
  Ctx.verifyGenerated();
  if (isDeviceModule(M) && !Ctx.hadError())
    zeroSharedShadows(Ctx);
  for (Function *F : EntryPoints)
    if (F && F->use_empty())
      F->eraseFromParent();
  // (Enzyme's __enzyme_iter(n, step) is n where no derivative advanced it.)
  lowerEnzymeIterations(M);
  dropUnusedMarkers(M);
  inlineNullShadowHelpers(M);
  placeSweepShadowClears(M);
  inlinePointerMarkHelpers(M);
  // (The IR carried for link time is the module's before its derivatives'
  // tape operations are expanded inline and the derivatives inlined into
  // their callers: a function that runs a gradient, differentiated again
  // at link time (reverse or forward over reverse), is then differentiated
  // as in its own file, where the inner sweeps' pushes and pops are calls
  // that get shadow records (reverse/NestedRecords.cpp). From the expanded
  // code, pushes of the fast path got none and pops of the slow path took
  // one: records read at the wrong offset, a loop count read from a
  // pointer (liblbfgs's callback computing its gradient, from -O1). At
  // -O0, where finishGenerated leaves the derivatives as they are, and in
  // device code, the IR is carried as the pass leaves it. Dense views,
  // lowered below, are carried as made: the link step lowers them after its
  // own finishGenerated, as here (until 2026-12-07 a file that made views
  // carried its expanded code, and a gradient of it differentiated again
  // at link time read its records at the wrong offset: lit
  // driver/cross-tu-nested-views.c).)
  // (The IR carried names what the derivatives made here may run:
  // DifferentiatedAttribute.)
  if (Opts.EmbedIR)
    markDifferentiated(M, Reached, true);
  bool CarryEarly = Opts.EmbedIR && Level != OptimizationLevel::O0 &&
                    !isDeviceModule(M) && !Ctx.hadError();
  std::string Carried = CarryEarly ? carriedFrame(M, Opts) : std::string();
  if (!Ctx.hadError())
    finishGenerated(Ctx, Level);
  if (isDeviceModule(M) && !Ctx.hadError())
    verifyNoRuntimeCalls(Ctx);
  // (Dense views passed to derivatives: where those are inlined. Requests
  // make views too, of the constant addresses of enzyme_dupnoneed.)
  HasViews = makesDenseViews(M);
  if (HasViews && !Ctx.hadError()) {
    TimeTraceScope Views("adcc: lower dense views");
    lowerDenseViews(M, Ctx);
  }
  // (The simplified copies of -O0 code that the derivatives do not call.)
  Ctx.eraseUnusedCopies();
  // (With the debug locations: errors found at link time point at their
  // source line.)
  if (Opts.EmbedIR && !Ctx.hadError()) {
    if (CarryEarly)
      embedFrame(M, Carried);
    else
      embedModuleIR(M, Opts);
  }
  markDifferentiated(M, Reached, false);
  if (Opts.StripLocations)
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

} // namespace adcore
