//===- LaunchedKernels.cpp - Kernels launched with <<<>>> ----------------===//

#include "frontend/LaunchedKernels.h"
#include "frontend/ParamShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace adcc::frontend {
namespace {

std::shared_ptr<std::set<std::string>> &currentSet() {
  static std::shared_ptr<std::set<std::string>> Set;
  return Set;
}

} // namespace

void setLaunchedKernelSet(std::shared_ptr<std::set<std::string>> Set) {
  currentSet() = std::move(Set);
}

void recordLaunchedKernel(ASTContext &Ctx, const CUDAKernelCallExpr &Launch) {
  if (!currentSet() || !Ctx.getLangOpts().CUDAIsDevice)
    return;
  const FunctionDecl *Kernel = Launch.getDirectCallee();
  if (!Kernel || Kernel->isDependentContext())
    return;
  currentSet()->insert(irName(Ctx, *Kernel));
}

} // namespace adcc::frontend
