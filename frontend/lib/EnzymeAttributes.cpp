//===- EnzymeAttributes.cpp - Enzyme's clang attributes ------------------===//
//
// The attributes Enzyme's clang plugin defines, in every spelling it
// accepts (`__attribute__((enzyme_inactive))`, `[[enzyme_inactive]]`,
// `[[enzyme::inactive]]`), and the annotations with the same text
// (`__attribute__((annotate("enzyme_inactive")))`). Their rows, and what
// each does, are in adcore/EnzymeMarks.h; this file checks where they are
// written and turns each attribute into its annotation, which the AD engine
// reads at the start of the pipeline. A global variable only declared here
// (defined in another file) gets no annotation from Clang: its inactive
// mark is also written as a registration (`__enzyme_inactive_global...`).
//
//===----------------------------------------------------------------------===//

#include "frontend/EnzymeChecks.h"

#include "adcore/EnzymeMarks.h"
#include "adcore/MathRules.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include <cstring>

using namespace clang;
using adcore::EnzymeMark;
using adcore::MarkArgument;
using adcore::MarkEffect;

namespace adcc::frontend {
namespace {

using Spelling = ParsedAttrInfo::Spelling;
using Syntax = AttributeCommonInfo::Syntax;

void report(DiagnosticsEngine &D, SourceLocation Loc, const Twine &What) {
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
      << What.str();
}

const char *appliesTo(const EnzymeMark &Mark) {
  return Mark.OnFunctions && Mark.OnGlobals ? "functions and global variables"
         : Mark.OnFunctions                 ? "functions"
                                            : "global variables";
}

bool isGlobalVariable(const Decl *D) {
  const auto *V = dyn_cast<VarDecl>(D);
  return V && V->hasGlobalStorage();
}

/// Where \p Mark may be written: reports and returns false elsewhere.
bool checkSubject(DiagnosticsEngine &Diags, SourceLocation Loc,
                  const EnzymeMark &Mark, const Decl *D) {
  if ((isa<FunctionDecl>(D) && Mark.OnFunctions) ||
      (isGlobalVariable(D) && Mark.OnGlobals))
    return true;
  report(Diags, Loc,
         "'" + Twine(Mark.Name) + "' only applies to " + appliesTo(Mark));
  return false;
}

/// The math function an `enzyme_function_like` names: reports and returns
/// false when adcc has no rule for it.
bool checkMathFunction(DiagnosticsEngine &Diags, SourceLocation Loc,
                       StringRef Name) {
  if (!Name.empty() && adcore::findMathRule(Name))
    return true;
  report(Diags, Loc,
         "'enzyme_function_like' needs the name of a math function adcc "
         "knows, such as \"log1p\"" +
             (Name.empty() ? Twine() : ", not '" + Name + "'") +
             " (docs/rules.md lists them)");
  return false;
}

/// The global variable an `enzyme_shadow(d_g)` names (`d_g` or `&d_g`):
/// reports and returns null when it names none, or one of another type.
VarDecl *namedShadow(Sema &S, const ParsedAttr &AL, const VarDecl &Of) {
  DiagnosticsEngine &Diags = S.getDiagnostics();
  VarDecl *Shadow = nullptr;
  SourceLocation At = AL.getLoc();
  if (AL.getNumArgs() == 1 && AL.isArgIdent(0)) {
    // (Clang hands a plugin attribute's lone name over unresolved.)
    IdentifierLoc *Id = AL.getArgAsIdent(0);
    At = Id->getLoc();
    Shadow = dyn_cast_or_null<VarDecl>(S.LookupSingleName(
        S.getCurScope(), Id->getIdentifierInfo(), At,
        Sema::LookupOrdinaryName));
  } else if (AL.getNumArgs() == 1) {
    const Expr *E = AL.getArgAsExpr(0)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
    At = E->getBeginLoc();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      Shadow = const_cast<VarDecl *>(dyn_cast<VarDecl>(Ref->getDecl()));
  }
  if (!Shadow || !Shadow->hasGlobalStorage() || Shadow->isStaticLocal()) {
    report(Diags, At,
           "'enzyme_shadow' needs the global variable that holds the "
           "shadow, declared before: enzyme_shadow(d_" +
               Of.getName() + ")");
    return nullptr;
  }
  if (Shadow == &Of ||
      !S.getASTContext().hasSameType(Shadow->getType(), Of.getType())) {
    report(Diags, At,
           "the shadow '" + Shadow->getName() + "' of '" + Of.getName() +
               "' must be another global variable of the same type ('" +
               Of.getType().getAsString() + "')");
    return nullptr;
  }
  return Shadow;
}

/// `(void *)&V`, as a registration would write it.
Expr *addressOf(ASTContext &C, VarDecl &V, SourceLocation Loc) {
  auto *Ref = DeclRefExpr::Create(C, NestedNameSpecifierLoc(), SourceLocation(),
                                  &V, false, Loc, V.getType(), VK_LValue);
  QualType PtrTy = C.getPointerType(V.getType());
  auto *Addr = UnaryOperator::Create(C, Ref, UO_AddrOf, PtrTy, VK_PRValue,
                                     OK_Ordinary, Loc, false,
                                     FPOptionsOverride());
  return ImplicitCastExpr::Create(C, C.VoidPtrTy, CK_BitCast, Addr, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

/// `static void *<Prefix>_adcc_<name>N = Init;` (of type \p Ty), handed
/// to code generation: how a mark on a global reaches the AD engine, also
/// for a global only declared here, of which Clang writes no annotation.
void registerGlobal(Sema &S, VarDecl &V, SourceLocation Loc, StringRef Prefix,
                    QualType Ty, Expr *Init) {
  ASTContext &C = S.getASTContext();
  TranslationUnitDecl *TU = C.getTranslationUnitDecl();
  std::string Base = (Prefix + "_adcc_" + V.getName()).str();
  std::string Name = Base;
  for (unsigned N = 1; !TU->lookup(&C.Idents.get(Name)).empty(); ++N)
    Name = Base + "_" + std::to_string(N);
  IdentifierInfo &Id = C.Idents.get(Name);
  auto *Reg = VarDecl::Create(C, TU, Loc, Loc, &Id, Ty,
                              C.getTrivialTypeSourceInfo(Ty, Loc), SC_Static);
  Reg->setInit(Init);
  Reg->setImplicit();
  Reg->addAttr(UsedAttr::CreateImplicit(C));
  Reg->addAttr(AsmLabelAttr::CreateImplicit(C, Name));
  TU->addDecl(Reg);
  S.Consumer.HandleTopLevelDecl(DeclGroupRef(Reg));
}

/// `static void *__enzyme_inactive_global_adcc_<name>N = (void *)&V;`.
void registerInactiveGlobal(Sema &S, VarDecl &V, SourceLocation Loc) {
  ASTContext &C = S.getASTContext();
  S.MarkVariableReferenced(Loc, &V);
  registerGlobal(S, V, Loc, "__enzyme_inactive_global", C.VoidPtrTy,
                 addressOf(C, V, Loc));
}

/// `static void *__enzyme_shadow_global_adcc_<name>N[2] = {(void *)&V,
/// (void *)&Shadow};`.
void registerShadowGlobal(Sema &S, VarDecl &V, VarDecl &Shadow,
                          SourceLocation Loc) {
  ASTContext &C = S.getASTContext();
  S.MarkVariableReferenced(Loc, &V);
  S.MarkVariableReferenced(Loc, &Shadow);
  Expr *Elements[] = {addressOf(C, V, Loc), addressOf(C, Shadow, Loc)};
  auto *Init = new (C) InitListExpr(C, Loc, Elements, Loc);
  QualType Ty = C.getConstantArrayType(C.VoidPtrTy, llvm::APInt(32, 2),
                                       nullptr, ArraySizeModifier::Normal, 0);
  Init->setType(Ty);
  registerGlobal(S, V, Loc, "__enzyme_shadow_global", Ty, Init);
}

/// One attribute of Enzyme's, by its row in adcore's table.
class MarkAttrInfo : public ParsedAttrInfo {
public:
  explicit MarkAttrInfo(unsigned Row) : Mark(adcore::enzymeMarks()[Row]) {
    // The argument, where there is one, is checked in handleDeclAttribute.
    OptArgs = Mark.Argument == MarkArgument::None ? 0 : 1;
    Short = StringRef(Mark.Name).drop_front(strlen("enzyme_")).str();
    Scoped = "enzyme::" + Short;
    Names.push_back({Syntax::AS_GNU, Mark.Name});
    Names.push_back({Syntax::AS_C23, Mark.Name});
    Names.push_back({Syntax::AS_CXX11, Mark.Name});
    Names.push_back({Syntax::AS_CXX11, Scoped.c_str()});
    Names.push_back({Syntax::AS_C23, Scoped.c_str()});
    // `[[enzyme::function_like("log1p")]]`: Clang keeps a scoped plugin
    // attribute's arguments only when its unscoped name is registered too.
    // Written unscoped, it is not Enzyme's (isEnzymeSpelling).
    if (Mark.Argument != MarkArgument::None) {
      Names.push_back({Syntax::AS_CXX11, Short.c_str()});
      Names.push_back({Syntax::AS_C23, Short.c_str()});
    }
    Spellings = Names;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL,
                            const Decl *D) const override {
    return isEnzymeSpelling(S, AL) &&
           checkSubject(S.getDiagnostics(), AL.getLoc(), Mark, D);
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &AL) const override {
    DiagnosticsEngine &Diags = S.getDiagnostics();
    ASTContext &C = S.getASTContext();
    if (D->isInvalidDecl())
      return AttributeNotApplied;
    if (Mark.Argument == MarkArgument::None && AL.getNumArgs() != 0) {
      report(Diags, AL.getLoc(),
             "'" + Twine(Mark.Name) + "' takes no arguments");
      return AttributeNotApplied;
    }
    std::string Text = Mark.Name;
    if (Mark.Argument == MarkArgument::MathFunction) {
      const auto *Name =
          AL.getNumArgs() == 1 && !AL.isArgIdent(0)
              ? dyn_cast<StringLiteral>(AL.getArgAsExpr(0)->IgnoreParens())
              : nullptr;
      SourceLocation At = Name ? Name->getBeginLoc() : AL.getLoc();
      if (!checkMathFunction(Diags, At, Name ? Name->getString() : ""))
        return AttributeNotApplied;
      Text += "=" + Name->getString().str();
    }
    if (Mark.Effect == MarkEffect::Shadow) {
      auto *V = cast<VarDecl>(D);
      VarDecl *Shadow = namedShadow(S, AL, *V);
      if (!Shadow)
        return AttributeNotApplied;
      registerShadowGlobal(S, *V, *Shadow, AL.getLoc());
      return AttributeApplied;
    }
    D->addAttr(AnnotateAttr::CreateImplicit(C, Text, nullptr, 0, AL.getRange()));
    // A global only declared here: Clang writes no annotation for it.
    if (auto *V = dyn_cast<VarDecl>(D);
        V && Mark.Effect == MarkEffect::Inactive &&
        !V->isThisDeclarationADefinition() && !V->isStaticLocal())
      registerInactiveGlobal(S, *V, AL.getLoc());
    return AttributeApplied;
  }

private:
  /// Written as `enzyme_X` or `enzyme::X`; the unscoped `[[X]]` is ignored
  /// with Clang's warning, as any unknown attribute.
  static bool isEnzymeSpelling(Sema &S, const ParsedAttr &AL) {
    if (adcore::isEnzymeMarkSpelling(AL.getNormalizedFullName()))
      return true;
    S.Diag(AL.getLoc(), diag::warn_unknown_attribute_ignored)
        << AL << AL.getRange();
    return false;
  }

  const EnzymeMark &Mark;
  std::string Short, Scoped;
  llvm::SmallVector<Spelling, 7> Names;
};

template <unsigned Row> struct RowAttrInfo : MarkAttrInfo {
  RowAttrInfo() : MarkAttrInfo(Row) {}
};

// One registration a row of adcore's table (Clang makes each from its
// type).
ParsedAttrInfoRegistry::Add<RowAttrInfo<0>> Mark0("enzyme_mark_0", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<1>> Mark1("enzyme_mark_1", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<2>> Mark2("enzyme_mark_2", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<3>> Mark3("enzyme_mark_3", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<4>> Mark4("enzyme_mark_4", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<5>> Mark5("enzyme_mark_5", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<6>> Mark6("enzyme_mark_6", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<7>> Mark7("enzyme_mark_7", "");
ParsedAttrInfoRegistry::Add<RowAttrInfo<8>> Mark8("enzyme_mark_8", "");
static_assert(adcore::NumEnzymeMarks == 9, "one registration a row");

} // namespace

void checkEnzymeAnnotations(DiagnosticsEngine &Diags, const Decl &D) {
  for (const AnnotateAttr *A : D.specific_attrs<AnnotateAttr>()) {
    StringRef Text = A->getAnnotation();
    // (Those the attributes above made were checked there.)
    if (A->isImplicit() || A->isInherited() ||
        !adcore::isEnzymeMarkSpelling(Text))
      continue;
    SourceLocation Loc = A->getLocation();
    const EnzymeMark *Mark = adcore::findEnzymeMark(Text);
    if (!Mark) {
      report(Diags, Loc,
             "unknown Enzyme annotation '" + Text +
                 "': adcc does not know what it does to derivatives "
                 "(docs/api.md lists Enzyme's marks adcc supports)");
      continue;
    }
    if (!checkSubject(Diags, Loc, *Mark, &D))
      continue;
    if (Mark->Argument == MarkArgument::MathFunction) {
      StringRef Name = Text.contains('=') ? Text.split('=').second : "";
      if (Name.empty() && A->args_size() == 1)
        if (const auto *S =
                dyn_cast<StringLiteral>((*A->args_begin())->IgnoreParenCasts()))
          Name = S->getString();
      checkMathFunction(Diags, Loc, Name);
    }
    if (Mark->Effect == MarkEffect::Shadow && A->args_size() != 1)
      report(Diags, Loc,
             "'enzyme_shadow' needs the address of the global variable that "
             "holds the shadow: annotate(\"enzyme_shadow\", &d_g)");
  }
}

} // namespace adcc::frontend
