//===- PostOptimize.cpp - Optimizing generated derivatives ---------------===//
//
// The derivatives are created at the optimizer-early extension point, after
// the module's simplification pipeline ran on the primal code. They get the
// same function simplification (SROA, EarlyCSE, InstCombine, GVN, ...)
// here, before the rest of the optimizer (vectorization, ...) runs on the
// whole module.
//
//===----------------------------------------------------------------------===//

#include "adcore/ADPass.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Function.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace adcore {

void optimizeGenerated(ArrayRef<Function *> Functions,
                       OptimizationLevel Level) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  FunctionPassManager FPM =
      PB.buildFunctionSimplificationPipeline(Level, ThinOrFullLTOPhase::None);
  for (Function *F : Functions)
    if (!F->isDeclaration())
      FPM.run(*F, FAM);
}

} // namespace adcore
