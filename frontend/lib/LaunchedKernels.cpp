//===- LaunchedKernels.cpp - Kernels launched with <<<>>> ----------------===//

#include "frontend/LaunchedKernels.h"
#include "frontend/ParamShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
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

void recordDirectLaunch(ASTContext &Ctx, const CallExpr &Call) {
  if (!currentSet() || !Ctx.getLangOpts().CUDAIsDevice ||
      Call.getNumArgs() == 0)
    return;
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      (Callee->getName() != "cudaLaunchKernel" &&
       Callee->getName() != "hipLaunchKernel"))
    return;
  const Expr *Handle = Call.getArg(0)->IgnoreParenCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Handle))
    if (const auto *Kernel = dyn_cast<FunctionDecl>(Ref->getDecl());
        Kernel && Kernel->hasAttr<CUDAGlobalAttr>() &&
        !Kernel->isDependentContext())
      currentSet()->insert(irName(Ctx, *Kernel));
}

} // namespace adcc::frontend
