//===- Attributes.cpp - Registration of the derivative attributes --------===//
//
// Four attributes, each with a GNU spelling and scoped C++11 / C23
// spellings: adcc_forward, adcc_forward_batch, adcc_reverse,
// adcc_reverse_batch and [[adcc::forward]], ... Clang decides whether to
// parse a scoped attribute's arguments by looking up its name without the
// scope, so the unscoped names are registered too; written unscoped they
// are reported as unknown and ignored, as Clang does for any unknown name.
//
// The ParsedAttrInfos and the AST consumer's plugin action are registered
// statically; this file is linked in through enableDerivativeAttributes(),
// which installHooks calls.
//
//===----------------------------------------------------------------------===//

#include "frontend/Attributes.h"

#include "AttributesInternal.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace adcc::frontend {
namespace attrs {
namespace {

constexpr const char *ConsumerActionName = "adcc-derivative-attributes";

using Spelling = ParsedAttrInfo::Spelling;
using Syntax = AttributeCommonInfo::Syntax;

constexpr Spelling ForwardSpellings[] = {{Syntax::AS_GNU, "adcc_forward"},
                                         {Syntax::AS_CXX11, "adcc::forward"},
                                         {Syntax::AS_C23, "adcc::forward"},
                                         {Syntax::AS_CXX11, "forward"},
                                         {Syntax::AS_C23, "forward"}};
constexpr Spelling ForwardBatchSpellings[] = {
    {Syntax::AS_GNU, "adcc_forward_batch"},
    {Syntax::AS_CXX11, "adcc::forward_batch"},
    {Syntax::AS_C23, "adcc::forward_batch"},
    {Syntax::AS_CXX11, "forward_batch"},
    {Syntax::AS_C23, "forward_batch"}};
constexpr Spelling ReverseSpellings[] = {{Syntax::AS_GNU, "adcc_reverse"},
                                         {Syntax::AS_CXX11, "adcc::reverse"},
                                         {Syntax::AS_C23, "adcc::reverse"},
                                         {Syntax::AS_CXX11, "reverse"},
                                         {Syntax::AS_C23, "reverse"}};
constexpr Spelling ReverseBatchSpellings[] = {
    {Syntax::AS_GNU, "adcc_reverse_batch"},
    {Syntax::AS_CXX11, "adcc::reverse_batch"},
    {Syntax::AS_C23, "adcc::reverse_batch"},
    {Syntax::AS_CXX11, "reverse_batch"},
    {Syntax::AS_C23, "reverse_batch"}};

/// Applies a parsed derivative attribute to \p FD.
bool handleDerivativeAttr(Sema &S, FunctionDecl &FD, const ParsedAttr &AL,
                          DerivativeKind Kind) {
  std::optional<DerivativeSpec> Spec = parseDerivativeAttr(S, AL, Kind);
  if (!Spec)
    return false;
  bool Templated =
      FD.getDescribedFunctionTemplate() != nullptr || FD.isDependentContext();
  if (!checkDerivativeSpec(S, FD, *Spec,
                           Templated ? Check::Pattern : Check::Complete))
    return false;
  if (Templated) {
    recordTemplateSpec(S, FD, *Spec);
    return true;
  }
  return declareDerivative(S, FD, *Spec, /*FromTemplate=*/false);
}

class DerivativeAttrInfo : public ParsedAttrInfo {
public:
  DerivativeAttrInfo(DerivativeKind Kind, llvm::ArrayRef<Spelling> Names)
      : Kind(Kind) {
    // All arguments are optional and any number may be given (15 is
    // Clang's "variadic"); handleDeclAttribute checks them.
    OptArgs = 15;
    Spellings = Names;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL,
                            const Decl *D) const override {
    if (!isAdccSpelling(S, AL))
      return false;
    if (isa<FunctionDecl>(D))
      return true;
    report(S, attrLocation(S, AL), Diag::NotAFunction) << attrSpelling(S, AL);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &AL) const override {
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || FD->isInvalidDecl())
      return AttributeNotApplied;
    return handleDerivativeAttr(S, *FD, AL, Kind) ? AttributeApplied
                                                  : AttributeNotApplied;
  }

private:
  DerivativeKind Kind;
};

struct ForwardAttrInfo : DerivativeAttrInfo {
  ForwardAttrInfo()
      : DerivativeAttrInfo({Mode::Forward, false}, ForwardSpellings) {}
};
struct ForwardBatchAttrInfo : DerivativeAttrInfo {
  ForwardBatchAttrInfo()
      : DerivativeAttrInfo({Mode::Forward, true}, ForwardBatchSpellings) {}
};
struct ReverseAttrInfo : DerivativeAttrInfo {
  ReverseAttrInfo()
      : DerivativeAttrInfo({Mode::Reverse, false}, ReverseSpellings) {}
};
struct ReverseBatchAttrInfo : DerivativeAttrInfo {
  ReverseBatchAttrInfo()
      : DerivativeAttrInfo({Mode::Reverse, true}, ReverseBatchSpellings) {}
};

/// Adds the consumer of AttributesConsumer.cpp before the main action's.
class DerivativeConsumerAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return createDerivativeConsumer();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return CmdlineBeforeMainAction; }
};

// Registration: the only static constructors of the frontend.
ParsedAttrInfoRegistry::Add<ForwardAttrInfo>
    RegisterForward("adcc_forward", "forward-mode derivative");
ParsedAttrInfoRegistry::Add<ForwardBatchAttrInfo>
    RegisterForwardBatch("adcc_forward_batch",
                         "batched forward-mode derivative");
ParsedAttrInfoRegistry::Add<ReverseAttrInfo>
    RegisterReverse("adcc_reverse", "reverse-mode derivative");
ParsedAttrInfoRegistry::Add<ReverseBatchAttrInfo>
    RegisterReverseBatch("adcc_reverse_batch",
                         "batched reverse-mode derivative");
FrontendPluginRegistry::Add<DerivativeConsumerAction>
    RegisterConsumer(ConsumerActionName,
                     "complete adcc's derivative attributes");

} // namespace
} // namespace attrs

void enableDerivativeAttributes(CompilerInstance &CI) {
  std::vector<std::string> &Actions = CI.getFrontendOpts().AddPluginActions;
  if (!llvm::is_contained(Actions, attrs::ConsumerActionName))
    Actions.push_back(attrs::ConsumerActionName);
}

} // namespace adcc::frontend
