//===- Hooks.cpp - adcc's hooks into a Clang compile ---------------------===//

#include "frontend/Hooks.h"
#include "frontend/Attributes.h"
#include "frontend/EnzymeChecks.h"

#include "adcore/Pipeline.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Passes/PassBuilder.h"

namespace adcc::frontend {

void installHooks(clang::CompilerInstance &CI, const adcore::Options &Opts) {
  clang::CodeGenOptions &CodeGen = CI.getCodeGenOpts();
  CodeGen.PassBuilderCallbacks.push_back(
      [Opts](llvm::PassBuilder &PB) {
        adcore::registerPassBuilderCallbacks(PB, Opts);
      });

  enableDerivativeAttributes(CI);
  enableEnzymeChecks(CI);

  if (Opts.EnableAD &&
      CodeGen.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
    CodeGen.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
}

} // namespace adcc::frontend
