//===- Pipeline.cpp - Where adcore joins the pipeline --------------------===//

#include "adcore/Pipeline.h"
#include "ADPass.h"
#include "CheckpointedLoops.h"
#include "crossfile/DeclaredTypes.h"
#include "optimize/Optimize.h"
#include "prepare/Prepare.h"
#include "rules/CustomRules.h"
#include "device/DeviceCode.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace adcore {

void registerPrinterPasses(PassBuilder &PB);

void registerPassBuilderCallbacks(PassBuilder &PB, const Options &Opts) {
  registerPrinterPasses(PB);
  // Before the inliner: registered functions keep their calls; before
  // InstCombine: min/max choices keep their ties.
  PB.registerPipelineStartEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel) {
        if (!Opts.EnableAD)
          return;
        MPM.addPass(CheckpointedLoopsPass());
        MPM.addPass(KeepRegisteredPass());
        MPM.addPass(KeepMinMaxChoicesPass());
        MPM.addPass(KeepDeviceMathPass());
        MPM.addPass(MarkErasedMovesPass());
        // (The struct types the IR carried for link time must keep.)
        if (Opts.EmbedIR)
          MPM.addPass(KeepDeclaredTypesPass());
      });
  PB.registerOptimizerEarlyEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel Level,
             ThinOrFullLTOPhase) { MPM.addPass(ADPass(Opts, Level)); });
  // After the vectorizers: packed adjoint updates that stall the next
  // iteration's (OverlappingUpdates.cpp); after every pass that sinks
  // instructions: sines and cosines up to their angles (EarlyMathCalls.cpp).
  PB.registerOptimizerLastEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel Level,
             ThinOrFullLTOPhase) {
        if (Opts.EnableAD && Level != OptimizationLevel::O0) {
          FunctionPassManager FPM;
          FPM.addPass(OverlappingUpdatesPass());
          FPM.addPass(EarlyMathCallsPass());
          MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
        }
      });

  PB.registerPipelineParsingCallback(
      [Opts](StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
        // "adcc" runs the pass as at -O0; "adcc<O2>" as at that level (the
        // derivatives optimized and inlined as in a compile at -O2).
        if (Name == "adcc") {
          MPM.addPass(ADPass(Opts, OptimizationLevel::O0));
          return true;
        }
        const std::pair<StringRef, OptimizationLevel> Levels[] = {
            {"adcc<O0>", OptimizationLevel::O0},
            {"adcc<O1>", OptimizationLevel::O1},
            {"adcc<O2>", OptimizationLevel::O2},
            {"adcc<O3>", OptimizationLevel::O3}};
        for (const auto &[Spelling, Level] : Levels)
          if (Name == Spelling) {
            MPM.addPass(ADPass(Opts, Level));
            return true;
          }
        if (Name == "adcc-checkpointed-loops") {
          MPM.addPass(CheckpointedLoopsPass());
          return true;
        }
        if (Name == "adcc-keep-min-max-choices") {
          MPM.addPass(KeepMinMaxChoicesPass());
          return true;
        }
        if (Name == "adcc-mark-erased-moves") {
          MPM.addPass(MarkErasedMovesPass());
          return true;
        }
        if (Name == "adcc-print-requests") {
          Options PrintOnly = Opts;
          PrintOnly.PrintRequests = true;
          MPM.addPass(ADPass(PrintOnly, OptimizationLevel::O0));
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "adcc-gathered-updates") {
          FPM.addPass(GatheredUpdatesPass());
          return true;
        }
        if (Name == "adcc-accumulation-windows") {
          FPM.addPass(AccumulationWindowsPass());
          return true;
        }
        if (Name == "adcc-split-overlapping-updates") {
          FPM.addPass(OverlappingUpdatesPass());
          return true;
        }
        if (Name == "adcc-early-math-calls") {
          FPM.addPass(EarlyMathCallsPass());
          return true;
        }
        if (Name == "adcc-split-aggregate-phis") {
          FPM.addPass(SplitAggregatePhisPass());
          return true;
        }
        if (Name == "adcc-share-tape-handles") {
          FPM.addPass(ShareTapeHandlesPass());
          return true;
        }
        if (Name == "adcc-pair-sin-cos") {
          FPM.addPass(PairSinesAndCosinesPass());
          return true;
        }
        return false;
      });
}

} // namespace adcore
