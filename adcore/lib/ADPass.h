//===- ADPass.h - The module pass that differentiates -----------*- C++ -*-===//
//
// ADPass runs once per module, after early simplification and before
// vectorization: it collects the module's derivative requests, synthesizes
// the derivatives, replaces each request by a call to its derivative, and
// (above -O0) optimizes the generated functions. Errors are reported through
// the LLVMContext's diagnostic handler, which Clang turns into
// source-located diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ADPASS_H
#define ADCORE_ADPASS_H

#include "adcore/Options.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

#include <string>

namespace adcore {

class ADPass : public llvm::PassInfoMixin<ADPass> {
public:
  ADPass(Options Opts, llvm::OptimizationLevel Level)
      : Opts(Opts), Level(Level) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Must run even on `optnone` functions and at -O0.
  static bool isRequired() { return true; }

private:
  /// The pass without the device libraries' part (device/DeviceCode.h).
  llvm::PreservedAnalyses differentiate(llvm::Module &M);
  /// differentiate on \p Copy, a copy of the module, quietly: the first
  /// error it reports, or "" (device/LaunchKernels.cpp).
  std::string tryDifferentiate(llvm::Module &Copy);

  Options Opts;
  llvm::OptimizationLevel Level;
};

class SynthesisContext;

/// Prepares the derivatives \p Ctx generated for the rest of the pipeline
/// at \p Level (nothing at -O0): tape operations expanded, simplified,
/// inlined into their callers, simplified there again; the generated
/// functions with local linkage left without a caller are removed.
void finishGenerated(SynthesisContext &Ctx, llvm::OptimizationLevel Level);

/// Marks the functions that `__enzyme_register_*`, `__enzyme_inactivefn*`
/// and `__enzyme_function_like` name `noinline`, and the entry points
/// `nomerge` (UnmergedRequests.h), at the start of the pipeline
/// (CustomRules::keepRegisteredOutOfLine).
struct KeepRegisteredPass : public llvm::PassInfoMixin<KeepRegisteredPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace adcore

#endif // ADCORE_ADPASS_H
