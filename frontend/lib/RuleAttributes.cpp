//===- RuleAttributes.cpp - Custom derivatives and marks as attributes ---===//
//
// The attribute spelling of what Enzyme-style programs register with
// globals (adcore/lib/rules/CustomRules.h):
//
//   ADCC_FORWARD_RULE(f)        on f's forward derivative
//   ADCC_REVERSE_RULE(f, f_aug) on f's reverse function, naming f and its
//                               augmented forward function
//   ADCC_INACTIVE               on a function with no derivative
//
// Each becomes the registration global a program would write by hand
// (`static void *__enzyme_register_derivative_adcc_<name>[] = {f, f_fwd}`,
// ...), handed to code generation as the attribute is parsed, so that the AD
// engine and its checks see one form.
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"
#include "NamedDecls.h"
#include "frontend/Attributes.h"
#include "frontend/ParamShapes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace adcc::frontend {
namespace {

using Spelling = ParsedAttrInfo::Spelling;
using Syntax = AttributeCommonInfo::Syntax;

/// One attribute: the registration it becomes, how many functions it
/// names, and a correct use for messages.
struct RuleRow {
  /// The registration's prefix (adcore/lib/rules/CustomRules.h).
  const char *Prefix;
  /// Functions the attribute names (the primal, the augmented function).
  unsigned Named;
  const char *Usage;
};

constexpr RuleRow ForwardRule = {
    "__enzyme_register_derivative", 1,
    "ADCC_FORWARD_RULE(f) double f_fwd(double x, double dx)"};
constexpr RuleRow ReverseRule = {
    "__enzyme_register_gradient", 2,
    "ADCC_REVERSE_RULE(f, f_aug) double f_rev(double x, double d)"};
constexpr RuleRow InactiveRule = {"__enzyme_inactivefn", 0,
                                  "ADCC_INACTIVE void log_value(double v)"};

/// The function argument \p I of \p AL names: a bare name, or an address
/// as NamedDecls.h reads it.
FunctionDecl *namedFunction(Sema &S, const ParsedAttr &AL, unsigned I) {
  if (AL.isArgIdent(I)) {
    IdentifierLoc *Id = AL.getArgAsIdent(I);
    LookupResult R(S, DeclarationName(Id->getIdentifierInfo()), Id->getLoc(),
                   Sema::LookupOrdinaryName);
    S.LookupName(R, S.getCurScope());
    if (R.isSingleResult())
      return dyn_cast<FunctionDecl>(R.getFoundDecl()->getUnderlyingDecl());
    return nullptr;
  }
  Expr *E = AL.getArgAsExpr(I);
  return E ? namedBy<FunctionDecl>(E) : nullptr;
}

SourceLocation argLoc(const ParsedAttr &AL, unsigned I) {
  if (I >= AL.getNumArgs())
    return AL.getLoc();
  if (AL.isArgIdent(I))
    return AL.getArgAsIdent(I)->getLoc();
  Expr *E = AL.getArgAsExpr(I);
  return E ? E->getExprLoc() : AL.getLoc();
}

/// `(void *)f`, as the program would write it.
Expr *addressOf(Sema &S, FunctionDecl &FD, SourceLocation Loc) {
  ASTContext &C = S.getASTContext();
  S.MarkFunctionReferenced(Loc, &FD);
  Expr *Ref = DeclRefExpr::Create(C, NestedNameSpecifierLoc(), SourceLocation(),
                                  &FD, false, Loc, FD.getType(), VK_LValue);
  Expr *Ptr = ImplicitCastExpr::Create(C, C.getPointerType(FD.getType()),
                                       CK_FunctionToPointerDecay, Ref, nullptr,
                                       VK_PRValue, FPOptionsOverride());
  return ImplicitCastExpr::Create(C, C.VoidPtrTy, CK_BitCast, Ptr, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

/// Defines `static void *<Prefix>_adcc_<rule>[] = {...}` and hands it to
/// code generation.
void registerRule(Sema &S, const RuleRow &Row, FunctionDecl &Rule,
                  llvm::ArrayRef<FunctionDecl *> Named, SourceLocation Loc) {
  ASTContext &C = S.getASTContext();
  // CUDA and HIP: a rule of a device function is registered in the device
  // compilation (by a __device__ variable), one of a host function in the
  // host's. (By the function it is the rule of, declared before it: the
  // rule's own attributes may follow this one.)
  const LangOptions &LO = C.getLangOpts();
  const FunctionDecl &Primal = Named.empty() ? Rule : *Named.front();
  bool Device = Primal.hasAttr<CUDADeviceAttr>();
  bool Host = Primal.hasAttr<CUDAHostAttr>() || !Device;
  if ((LO.CUDA || LO.HIP) && (LO.CUDAIsDevice ? !Device : !Host))
    return;
  llvm::SmallVector<Expr *, 3> Elements;
  for (FunctionDecl *F : Named)
    Elements.push_back(addressOf(S, *F, Loc));
  Elements.push_back(addressOf(S, Rule, Loc));
  QualType Type = C.VoidPtrTy;
  Expr *Init = Elements.front();
  if (Elements.size() > 1) {
    Type = C.getConstantArrayType(C.VoidPtrTy, llvm::APInt(64, Elements.size()),
                                  nullptr, ArraySizeModifier::Normal, 0);
    auto *List = new (C) InitListExpr(C, Loc, Elements, Loc);
    List->setType(Type);
    Init = List;
  }
  std::string Name = std::string(Row.Prefix) + "_adcc_" + irName(C, Rule);
  IdentifierInfo &Id = C.Idents.get(Name);
  // Written on several declarations of the rule: registered once.
  if (!C.getTranslationUnitDecl()->lookup(&Id).empty())
    return;
  auto *Var =
      VarDecl::Create(C, C.getTranslationUnitDecl(), Loc, Loc, &Id, Type,
                      C.getTrivialTypeSourceInfo(Type, Loc), SC_Static);
  Var->setInit(Init);
  Var->setImplicit();
  Var->addAttr(UsedAttr::CreateImplicit(C));
  if ((LO.CUDA || LO.HIP) && LO.CUDAIsDevice)
    Var->addAttr(CUDADeviceAttr::CreateImplicit(C));
  // Its IR name as written (C++ would mangle a static variable's).
  Var->addAttr(AsmLabelAttr::CreateImplicit(C, Name));
  C.getTranslationUnitDecl()->addDecl(Var);
  S.Consumer.HandleTopLevelDecl(DeclGroupRef(Var));
}

class RuleAttrInfo : public ParsedAttrInfo {
public:
  RuleAttrInfo(const RuleRow &Row, llvm::ArrayRef<Spelling> Names) : Row(Row) {
    // Any number of arguments (15 is Clang's "variadic"): handleDeclAttribute
    // checks them and says what is expected.
    OptArgs = 15;
    Spellings = Names;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL,
                            const Decl *D) const override {
    if (!attrs::isAdccSpelling(S, AL))
      return false;
    if (isa<FunctionDecl>(D))
      return true;
    report(S, attrs::attrLocation(S, AL),
           attrs::attrSpelling(S, AL) + " only applies to functions");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &AL) const override {
    auto *Rule = dyn_cast<FunctionDecl>(D);
    if (!Rule || Rule->isInvalidDecl())
      return AttributeNotApplied;
    std::string Spelled = attrs::attrSpelling(S, AL);
    SourceLocation At = attrs::attrLocation(S, AL);
    if (isa<CXXConstructorDecl, CXXDestructorDecl>(Rule)) {
      report(S, At, Spelled + " cannot be used on a constructor or destructor");
      return AttributeNotApplied;
    }
    if (Rule->isDependentContext() || Rule->getDescribedFunctionTemplate()) {
      report(S, At,
             Spelled + " cannot be used on a function template; use it on a "
                       "non-template function that calls it");
      return AttributeNotApplied;
    }
    if (AL.getNumArgs() != Row.Named) {
      std::string Expected =
          Row.Named == 0 ? "takes no arguments"
          : Row.Named == 1
              ? "names 1 function"
              : "names " + std::to_string(Row.Named) + " functions";
      report(S, At, Spelled + " " + Expected + ": " + Row.Usage);
      return AttributeNotApplied;
    }
    llvm::SmallVector<FunctionDecl *, 2> Named;
    for (unsigned I = 0; I < Row.Named; ++I) {
      FunctionDecl *F = namedFunction(S, AL, I);
      if (!F) {
        report(S, argLoc(AL, I),
               Spelled + " must name " +
                   (I == 0 ? "the function it is the derivative of"
                           : "the augmented forward function") +
                   ", declared before it (one function, not an overload "
                   "set): " +
                   Row.Usage);
        return AttributeNotApplied;
      }
      if (F->getCanonicalDecl() == Rule->getCanonicalDecl()) {
        report(S, argLoc(AL, I),
               Spelled + " names the function it is written on");
        return AttributeNotApplied;
      }
      Named.push_back(F);
    }
    registerRule(S, Row, *Rule, Named, AL.getLoc());
    return AttributeApplied;
  }

private:
  static void report(Sema &S, SourceLocation Loc, const std::string &What) {
    DiagnosticsEngine &D = S.getDiagnostics();
    D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << What;
  }

  const RuleRow &Row;
};

// (The unscoped C++11/C23 spellings keep the scoped ones' arguments: see
// isAdccSpelling.)
constexpr Spelling ForwardRuleSpellings[] = {
    {Syntax::AS_GNU, "adcc_forward_rule"},
    {Syntax::AS_CXX11, "adcc::forward_rule"},
    {Syntax::AS_C23, "adcc::forward_rule"},
    {Syntax::AS_CXX11, "forward_rule"},
    {Syntax::AS_C23, "forward_rule"}};
constexpr Spelling ReverseRuleSpellings[] = {
    {Syntax::AS_GNU, "adcc_reverse_rule"},
    {Syntax::AS_CXX11, "adcc::reverse_rule"},
    {Syntax::AS_C23, "adcc::reverse_rule"},
    {Syntax::AS_CXX11, "reverse_rule"},
    {Syntax::AS_C23, "reverse_rule"}};
constexpr Spelling InactiveSpellings[] = {{Syntax::AS_GNU, "adcc_inactive"},
                                          {Syntax::AS_CXX11, "adcc::inactive"},
                                          {Syntax::AS_C23, "adcc::inactive"},
                                          {Syntax::AS_CXX11, "inactive"},
                                          {Syntax::AS_C23, "inactive"}};

struct ForwardRuleAttrInfo : RuleAttrInfo {
  ForwardRuleAttrInfo() : RuleAttrInfo(ForwardRule, ForwardRuleSpellings) {}
};
struct ReverseRuleAttrInfo : RuleAttrInfo {
  ReverseRuleAttrInfo() : RuleAttrInfo(ReverseRule, ReverseRuleSpellings) {}
};
struct InactiveAttrInfo : RuleAttrInfo {
  InactiveAttrInfo() : RuleAttrInfo(InactiveRule, InactiveSpellings) {}
};

ParsedAttrInfoRegistry::Add<ForwardRuleAttrInfo>
    RegisterForwardRule("adcc_forward_rule", "custom forward derivative");
ParsedAttrInfoRegistry::Add<ReverseRuleAttrInfo>
    RegisterReverseRule("adcc_reverse_rule", "custom reverse derivative");
ParsedAttrInfoRegistry::Add<InactiveAttrInfo>
    RegisterInactive("adcc_inactive", "function with no derivative");

} // namespace

void enableRuleAttributes() {
  // The registrations above are static constructors of this file; calling
  // into it keeps it in the link.
}

} // namespace adcc::frontend
