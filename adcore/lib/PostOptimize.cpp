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
#include "llvm/Transforms/Utils/Cloning.h"

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

void inlineGenerated(ArrayRef<Function *> Functions,
                     SmallPtrSetImpl<Function *> &Touched) {
  constexpr unsigned SmallFunction = 200; // instructions
  for (Function *F : Functions) {
    if (F->isDeclaration())
      continue;
    unsigned Size = F->getInstructionCount();
    SmallVector<CallBase *, 4> Sites;
    bool Recursive = false;
    for (User *U : F->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      if (Call->getFunction() == F)
        Recursive = true;
      Sites.push_back(Call);
    }
    if (Recursive || Sites.empty() ||
        (Sites.size() > 1 && Size > SmallFunction))
      continue;
    for (CallBase *Call : Sites) {
      Function *Caller = Call->getFunction();
      InlineFunctionInfo Info;
      if (InlineFunction(*Call, Info).isSuccess())
        Touched.insert(Caller);
    }
  }
}

} // namespace adcore
