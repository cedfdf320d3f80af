//===- EnzymeChecks.cpp - Source checks of Enzyme-style code -------------===//

#include "frontend/EnzymeChecks.h"
#include "frontend/LaunchedKernels.h"
#include "frontend/ParamShapes.h"

#include "NamedDecls.h"

#include "adcore/EntryPoints.h"
#include "adcore/MemoryFunctions.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace adcc::frontend {
namespace {

constexpr const char *ActionName = "adcc-enzyme-checks";

/// Registrations: name prefix and expected number of elements.
struct RegistrationRow {
  const char *Prefix;
  unsigned Elements;
  const char *Shape;
};

constexpr RegistrationRow RegistrationTable[] = {
    {"__enzyme_register_derivative", 2,
     "{(void *)function, (void *)derivative}"},
    {"__enzyme_register_gradient", 3,
     "{(void *)function, (void *)augmented, (void *)reverse}"},
    {"__enzyme_register_splitderivative", 3,
     "{(void *)function, (void *)augmented, (void *)forward_split}"},
    {"__enzyme_function_like", 2, "{(void *)function, (void *)\"name\"}"},
};

class Checker : public RecursiveASTVisitor<Checker> {
public:
  explicit Checker(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}
  // Requests inside templates are made by their instantiations.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    recordDirectLaunch(Ctx, *Call);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !adcore::classifyEntryPoint(Callee->getName()))
      return true;
    // A struct or complex value the ABI passes as two IR arguments: adcore
    // groups them by the callee's parameters, which only the source shows.
    // Through a function pointer there is no callee to ask.
    // (In a template the instantiations name it.)
    if (Call->getNumArgs() == 0 || Call->getArg(0)->isTypeDependent() ||
        Call->getArg(0)->isValueDependent())
      return true;
    const FunctionDecl *Target = namedBy<FunctionDecl>(Call->getArg(0));
    if (Target && recordParamShapes(Ctx, *Target))
      return true;
    for (const Expr *Arg : Call->arguments()) {
      QualType T = Arg->IgnoreParenImpCasts()->getType();
      if (!mayBeSplitByABI(Ctx, T))
        continue;
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "a struct or complex value (%0) passed by value to %1 through a "
          "function pointer is not supported by adcc (the C ABI splits it "
          "into two arguments): name the function itself, or pass a "
          "pointer to the value with enzyme_dup");
      Diags.Report(Arg->getBeginLoc(), ID) << T << Callee->getName();
    }
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    recordLaunchedKernel(Ctx, *Launch);
    recordWrittenParams(Ctx, *Launch);
    return true;
  }

  bool VisitDecl(Decl *D) {
    // (An instantiation's attributes are its pattern's, checked there.)
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->isTemplateInstantiation())
      return true;
    if (D->hasAttrs())
      checkEnzymeAnnotations(Diags, *D);
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    if (!V->getIdentifier() || !V->hasInit())
      return true;
    StringRef Name = V->getName();
    if (!Name.starts_with("__enzyme_"))
      return true;
    if (Name.starts_with("__enzyme_allocation_like")) {
      checkAllocationLike(*V);
      return true;
    }
    if (Name.starts_with("__enzyme_inactivefn") ||
        Name.starts_with("__enzyme_inactive_global")) {
      checkMarks(*V);
      return true;
    }
    for (const RegistrationRow &Row : RegistrationTable) {
      if (!Name.starts_with(Row.Prefix))
        continue;
      const auto *List =
          dyn_cast<InitListExpr>(V->getInit()->IgnoreParenImpCasts());
      if (List && List->getNumInits() == Row.Elements) {
        checkElements(*V, *List, Row);
        return true;
      }
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': expected %1 (%2 elements)");
      Diags.Report(V->getLocation(), ID) << Name << Row.Shape << Row.Elements;
      return true;
    }
    return true;
  }

private:
  /// Each element names a function (the name of function_like excepted).
  void checkElements(const VarDecl &V, const InitListExpr &List,
                     const RegistrationRow &Row) {
    bool NameLast = StringRef(Row.Prefix) == "__enzyme_function_like";
    for (unsigned I = 0; I < List.getNumInits(); ++I) {
      const Expr *E = List.getInit(I);
      bool IsName = NameLast && I + 1 == List.getNumInits();
      if (IsName ? isa<StringLiteral>(addressed(E))
                 : namedBy<FunctionDecl>(E) != nullptr)
        continue;
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': element %1 must be %2");
      Diags.Report(List.getInit(I)->getBeginLoc(), ID)
          << V.getName() << (I + 1)
          << (IsName ? "a string naming a math function"
                     : "the address of a function");
    }
  }

  /// `{(void *)alloc, (void *)size_index, (void *)"free args", (void
  /// *)free}`: two functions, an integer, and a string of integers (the
  /// allocator's argument numbers, -1 for the block).
  void checkAllocationLike(const VarDecl &V) {
    const auto *List =
        dyn_cast<InitListExpr>(V.getInit()->IgnoreParenImpCasts());
    if (!List || List->getNumInits() != 4) {
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': expected {(void *)allocator, (void "
          "*)size_argument, (void *)\"deallocator arguments\", (void "
          "*)deallocator} (4 elements)");
      Diags.Report(V.getLocation(), ID) << V.getName();
      return;
    }
    auto Bad = [&](unsigned I, const char *What) {
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': element %1 must be %2");
      Diags.Report(List->getInit(I)->getBeginLoc(), ID)
          << V.getName() << (I + 1) << What;
    };
    for (unsigned I : {0u, 3u})
      if (!namedBy<FunctionDecl>(List->getInit(I)))
        Bad(I, "the address of a function");
    const Expr *Size = List->getInit(1)->IgnoreParenCasts();
    if (Size->isValueDependent() || !Size->isIntegerConstantExpr(Ctx))
      Bad(1, "the number of the allocator's size argument");
    const auto *Str = dyn_cast<StringLiteral>(addressed(List->getInit(2)));
    llvm::SmallVector<int, 4> Args;
    if (!Str || !Str->isOrdinary() ||
        !adcore::parseDeallocationArgs(Str->getString(), Args)) {
      Bad(2, "a string listing the deallocator's arguments: the "
             "allocator's argument numbers and -1 for the block, once "
             "(\"-1\", \"2,-1\")");
      return;
    }
    const auto *Alloc = namedBy<FunctionDecl>(List->getInit(0));
    const auto *Free = namedBy<FunctionDecl>(List->getInit(3));
    std::optional<llvm::APSInt> SizeArg = Size->getIntegerConstantExpr(Ctx);
    if (!Alloc || !Free || !SizeArg)
      return;
    unsigned N = Alloc->getNumParams();
    if (!Alloc->getReturnType()->isPointerType() || SizeArg->isNegative() ||
        SizeArg->getZExtValue() >= N ||
        !Alloc->getParamDecl(SizeArg->getZExtValue())
             ->getType()
             ->isIntegerType()) {
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': the allocator '%1' must return a "
          "pointer and take the size (an integer) as its argument %2");
      Diags.Report(List->getInit(0)->getBeginLoc(), ID)
          << V.getName() << Alloc->getName() << toString(*SizeArg, 10);
      return;
    }
    auto Fits = [&](QualType Param, int From) {
      if (From < 0 || unsigned(From) >= N)
        return From < 0 && Param->isPointerType();
      QualType Arg = Alloc->getParamDecl(From)->getType();
      return (Param->isPointerType() && Arg->isPointerType()) ||
             Ctx.hasSameUnqualifiedType(Param, Arg);
    };
    bool Match = Free->getNumParams() == Args.size();
    for (unsigned I = 0; Match && I < Args.size(); ++I)
      Match = Fits(Free->getParamDecl(I)->getType(), Args[I]);
    if (!Match) {
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': the deallocator '%1' must take %2 "
          "arguments: the block (-1) and the allocator's arguments that the "
          "string names, of the same types");
      Diags.Report(List->getInit(3)->getBeginLoc(), ID)
          << V.getName() << Free->getName() << unsigned(Args.size());
    }
  }

  /// `__enzyme_inactivefn...` lists functions, `__enzyme_inactive_global...`
  /// global variables: one address, or an array of them.
  void checkMarks(const VarDecl &V) {
    bool Functions = V.getName().starts_with("__enzyme_inactivefn");
    const Expr *Init = V.getInit()->IgnoreParenImpCasts();
    llvm::SmallVector<const Expr *, 4> Elements;
    if (const auto *List = dyn_cast<InitListExpr>(Init))
      Elements.append(List->inits().begin(), List->inits().end());
    else
      Elements.push_back(Init);
    for (unsigned I = 0; I < Elements.size(); ++I) {
      const Expr *E = Elements[I];
      if (Functions ? namedBy<FunctionDecl>(E) != nullptr : isGlobalVariable(E))
        continue;
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "malformed registration '%0': element %1 must be the address of "
          "%2");
      Diags.Report(Elements[I]->getBeginLoc(), ID)
          << V.getName() << (I + 1)
          << (Functions ? "a function" : "a global variable");
    }
  }

  static bool isGlobalVariable(const Expr *E) {
    const auto *Var = namedBy<VarDecl>(E);
    return Var && Var->hasGlobalStorage();
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
};

class CheckConsumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Checker(Ctx).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

class CheckAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<CheckConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return CmdlineBeforeMainAction; }
};

// Registration: a static constructor, kept by enableEnzymeChecks().
FrontendPluginRegistry::Add<CheckAction>
    RegisterChecks(ActionName, "check Enzyme-style calls and registrations");

} // namespace

void enableEnzymeChecks(CompilerInstance &CI) {
  std::vector<std::string> &Actions = CI.getFrontendOpts().AddPluginActions;
  if (!llvm::is_contained(Actions, ActionName))
    Actions.push_back(ActionName);
  rejectUnknownEnzymeAttributes(CI);
}

} // namespace adcc::frontend
