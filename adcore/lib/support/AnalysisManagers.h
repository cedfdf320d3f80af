//===- support/AnalysisManagers.h - LLVM's analysis managers ----*- C++ -*-===//
//
// The four analysis managers of LLVM's new pass manager, registered with a
// PassBuilder's analyses and with each other: what running a pass outside
// the pipeline Clang built needs.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_ANALYSISMANAGERS_H
#define ADCORE_SUPPORT_ANALYSISMANAGERS_H

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace adcore {

struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;

  explicit AnalysisManagers(llvm::PassBuilder &PB) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

} // namespace adcore

#endif // ADCORE_SUPPORT_ANALYSISMANAGERS_H
