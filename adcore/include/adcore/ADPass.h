//===- adcore/ADPass.h - The module pass that differentiates --*- C++ -*-===//
//
// ADPass runs once per module, after early simplification and before
// vectorization: it collects the module's derivative requests and synthesizes
// the derivatives. Errors are reported through the LLVMContext's diagnostic
// handler (which Clang turns into source-located diagnostics).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ADPASS_H
#define ADCORE_ADPASS_H

#include "adcore/Options.h"

#include "llvm/IR/PassManager.h"

namespace adcore {

class ADPass : public llvm::PassInfoMixin<ADPass> {
public:
  explicit ADPass(Options Opts) : Opts(Opts) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Must run even on `optnone` functions and at -O0.
  static bool isRequired() { return true; }

private:
  Options Opts;
};

} // namespace adcore

#endif // ADCORE_ADPASS_H
