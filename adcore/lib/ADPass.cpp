//===- ADPass.cpp - The module pass that differentiates ------------------===//

#include "adcore/ADPass.h"
#include "adcore/EnzymeCalls.h"
#include "adcore/RequestCollector.h"
#include "adcore/Synthesis.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

PreservedAnalyses ADPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Opts.EnableAD)
    return PreservedAnalyses::all();

  CollectedRequests Found = collectRequests(M);
  if (Opts.PrintRequests) {
    for (const Request &R : Found.Requests) {
      errs() << "adcc: request: ";
      print(errs(), R);
      errs() << "\n";
    }
  }
  if (Found.Requests.empty() && Found.Errors.empty())
    return PreservedAnalyses::all();

  SynthesisContext Ctx(M);
  for (const MalformedRequest &E : Found.Errors)
    Ctx.error(*E.Site, E.Message);

  SmallPtrSet<Function *, 4> EntryPoints;
  for (const Request &R : Found.Requests) {
    EntryPoints.insert(R.Site->getCalledFunction());
    if (R.Kind == RequestKind::Forward) {
      lowerForwardRequest(R, Ctx);
      continue;
    }
    Ctx.error(*R.Site, Twine(describe(R.Kind)) + " of '" +
                           R.Primal->getName() +
                           "' is not implemented yet in this version of adcc");
  }
  for (Function *F : EntryPoints)
    if (F && F->use_empty())
      F->eraseFromParent();

  if (!Ctx.hadError() && Level != OptimizationLevel::O0)
    optimizeGenerated(Ctx.cache().functions(), Level);
  return PreservedAnalyses::none();
}

} // namespace adcore
