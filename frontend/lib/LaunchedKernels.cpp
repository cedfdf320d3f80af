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

using WrittenTable = std::map<std::string, std::pair<uint64_t, unsigned>>;

std::shared_ptr<WrittenTable> &currentTable() {
  static std::shared_ptr<WrittenTable> Table;
  return Table;
}

/// The parameter of \p Kernel (a pointer) that \p E names, or null.
const ParmVarDecl *namedParam(const FunctionDecl &Kernel, const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != &Kernel || !P->getType()->isPointerType())
    return nullptr;
  return P;
}

/// The pointer parameter of \p Kernel that the store target \p Target
/// writes through directly (`p[i]`, `*p`, `p->x`, `p[i].x`, `*(p + k)`),
/// or null.
const ParmVarDecl *writtenThrough(const FunctionDecl &Kernel,
                                  const Expr *Target) {
  const Expr *E = Target->IgnoreParens();
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      return namedParam(Kernel, M->getBase());
    E = M->getBase()->IgnoreParens();
  }
  const Expr *Ptr = nullptr;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    Ptr = A->getBase();
  else if (const auto *U = dyn_cast<UnaryOperator>(E);
           U && U->getOpcode() == UO_Deref)
    Ptr = U->getSubExpr();
  if (!Ptr)
    return nullptr;
  Ptr = Ptr->IgnoreParenImpCasts();
  while (const auto *B = dyn_cast<BinaryOperator>(Ptr)) {
    if (!B->isAdditiveOp() || !B->getLHS()->getType()->isPointerType())
      return nullptr;
    Ptr = B->getLHS()->IgnoreParenImpCasts();
  }
  return namedParam(Kernel, Ptr);
}

/// The pointer parameters (bit i: parameter i) that the body of \p Kernel
/// writes through directly: an assignment or an increment of an element.
/// A parameter the body assigns, increments or takes the address of is
/// left out (it may point elsewhere when written through).
uint64_t writtenParams(const FunctionDecl &Kernel) {
  const Stmt *Body = Kernel.getBody();
  if (!Body)
    return 0;
  uint64_t Written = 0, Moved = 0;
  auto Bit = [](const ParmVarDecl *P) {
    return P && P->getFunctionScopeIndex() < 63
               ? uint64_t(1) << P->getFunctionScopeIndex()
               : 0;
  };
  SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    const Expr *Target = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      Target = B->getLHS();
    else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp())
        Target = U->getSubExpr();
      else if (U->getOpcode() == UO_AddrOf)
        Moved |= Bit(namedParam(Kernel, U->getSubExpr()));
    }
    if (Target) {
      Written |= Bit(writtenThrough(Kernel, Target));
      Moved |= Bit(namedParam(Kernel, Target));
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Written & ~Moved;
}

} // namespace

void setWrittenParamTable(std::shared_ptr<WrittenTable> Table) {
  currentTable() = std::move(Table);
}

void recordWrittenParams(ASTContext &Ctx, const CUDAKernelCallExpr &Launch) {
  if (!currentTable() || Ctx.getLangOpts().CUDAIsDevice)
    return;
  const FunctionDecl *Kernel = Launch.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Kernel || Kernel->isDependentContext() || !Kernel->hasBody(Def) ||
      !Def)
    return;
  (*currentTable())[irName(Ctx, *Kernel)] = {writtenParams(*Def),
                                             Kernel->getNumParams()};
}

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
       Callee->getName() != "hipLaunchKernel" &&
       Callee->getName() != "cudaLaunchCooperativeKernel" &&
       Callee->getName() != "hipLaunchCooperativeKernel"))
    return;
  const Expr *Handle = Call.getArg(0)->IgnoreParenCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Handle))
    if (const auto *Kernel = dyn_cast<FunctionDecl>(Ref->getDecl());
        Kernel && Kernel->hasAttr<CUDAGlobalAttr>() &&
        !Kernel->isDependentContext())
      currentSet()->insert(irName(Ctx, *Kernel));
}

} // namespace adcc::frontend
