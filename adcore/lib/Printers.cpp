//===- Printers.cpp - Printer passes of adcore's analyses ----------------===//
//
// `adcc-opt -passes=adcc-print-activity` prints, for every function defined
// in the module, which values the activity analysis finds active when the
// function's floating-point and pointer parameters are duplicated and its
// integer parameters constant (the defaults of Enzyme-style requests).
// `-passes=adcc-print-types` prints what the type analysis infers.
// `-passes=adcc-print-indirect-targets` prints, for every address-taken
// function, whether the derivatives of the module's requests may call it
// through a pointer. `-passes=adcc-print-write-only-memory` prints the
// globals without a shadow that the derivatives of the module's requests
// only write (WriteOnlyMemory.h).
//
//===----------------------------------------------------------------------===//

#include "analysis/ActivityAnalysis.h"
#include "adcore/Pipeline.h"
#include "adcore/RequestCollector.h"
#include "CheckpointedCalls.h"
#include "analysis/GlobalShadows.h"
#include "analysis/IndirectTargets.h"
#include "analysis/WriteOnlyMemory.h"
#include "rules/CustomRules.h"
#include "support/IRMarks.h"
#include "analysis/TypeAnalysis.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

struct PrintActivityPass : PassInfoMixin<PrintActivityPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      SmallVector<ArgActivity, 8> Args;
      for (Argument &A : F.args())
        Args.push_back(canCarryDerivative(A.getType()) ? ArgActivity::Dup
                                                       : ArgActivity::Const);
      ActivityAnalysis(F, Args).print(outs());
    }
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct PrintTypesPass : PassInfoMixin<PrintTypesPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    for (Function &F : M)
      if (!F.isDeclaration())
        TypeAnalysis(F).print(outs());
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct PrintIndirectTargetsPass : PassInfoMixin<PrintIndirectTargetsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    SmallVector<Function *, 8> Roots;
    for (const Request &R : collectRequests(M).Requests)
      Roots.push_back(R.Primal);
    markUncalledAddresses(M, Roots);
    for (Function &F : M)
      if (!F.isDeclaration() && F.hasAddressTaken())
        outs() << F.getName() << ": "
               << (F.hasFnAttribute(NotCalledThroughPointers)
                       ? "not called through pointers"
                       : "may be called through pointers")
               << "\n";
    clearUncalledAddresses(M);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct PrintWriteOnlyMemoryPass : PassInfoMixin<PrintWriteOnlyMemoryPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    CustomRules Rules;
    bool HadError = false;
    Rules.collect(M, HadError);
    SmallPtrSet<const Function *, 16> Reached;
    for (const Request &R : collectRequests(M).Requests)
      for (const Function *F : reachableFrom(*R.Primal))
        Reached.insert(F);
    SmallVector<const Function *, 16> List(Reached.begin(), Reached.end());
    DenseSet<const GlobalVariable *> Written;
    collectWrittenGlobals(List, Written, /*FloatBitsOnly=*/true);
    Rules.setWrittenGlobals(std::move(Written));
    DenseSet<const Value *> WriteOnly = collectWriteOnlyMemory(List, Rules);
    for (const GlobalVariable &G : M.globals())
      if (WriteOnly.contains(&G))
        outs() << G.getName() << ": only written\n";
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

void registerPrinterPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "adcc-print-activity") {
          MPM.addPass(PrintActivityPass());
          return true;
        }
        if (Name == "adcc-print-indirect-targets") {
          MPM.addPass(PrintIndirectTargetsPass());
          return true;
        }
        if (Name == "adcc-print-write-only-memory") {
          MPM.addPass(PrintWriteOnlyMemoryPass());
          return true;
        }
        if (Name == "adcc-print-types") {
          MPM.addPass(PrintTypesPass());
          return true;
        }
        return false;
      });
}

} // namespace adcore
