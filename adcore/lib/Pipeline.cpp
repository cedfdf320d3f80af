//===- Pipeline.cpp - Where adcore joins the pipeline --------------------===//

#include "adcore/Pipeline.h"
#include "adcore/ADPass.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace adcore {

void registerPassBuilderCallbacks(PassBuilder &PB, const Options &Opts) {
  PB.registerOptimizerEarlyEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(ADPass(Opts));
      });

  PB.registerPipelineParsingCallback(
      [Opts](StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "adcc") {
          MPM.addPass(ADPass(Opts));
          return true;
        }
        if (Name == "adcc-print-requests") {
          Options PrintOnly = Opts;
          PrintOnly.PrintRequests = true;
          MPM.addPass(ADPass(PrintOnly));
          return true;
        }
        return false;
      });
}

} // namespace adcore
