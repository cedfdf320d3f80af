//===- ADPass.cpp - The module pass that differentiates ------------------===//

#include "adcore/ADPass.h"
#include "adcore/RequestCollector.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

/// Reports a user error at \p Site through the context's diagnostic handler.
void reportAt(CallBase &Site, const Twine &Message) {
  Function &Caller = *Site.getFunction();
  Caller.getContext().diagnose(DiagnosticInfoUnsupported(
      Caller, Message, Site.getDebugLoc(), DS_Error));
}

} // namespace

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

  for (const MalformedRequest &E : Found.Errors)
    reportAt(*E.Site, E.Message);

  // The derivative emitters are not part of this build yet: say so at each
  // request instead of leaving an unresolved entry-point call behind.
  for (const Request &R : Found.Requests)
    reportAt(*R.Site, Twine(describe(R.Kind)) + " of '" +
                          R.Primal->getName() +
                          "' is not implemented yet in this version of adcc");

  return PreservedAnalyses::all();
}

} // namespace adcore
