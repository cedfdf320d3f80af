//===- AttributesConsumer.cpp - Derivative attributes, after parsing -----===//
//
// The attribute handler runs while its declaration is parsed. What it
// cannot see then is done here, as each top-level declaration is handed to
// the AST consumers (this one runs before code generation):
//  - a declaration of the derivative's name written after the attribute is
//    checked against the expected prototype (C++ would silently make it an
//    overload), and may not define the derivative;
//  - each instantiation of a marked function template gets its derivative;
//  - a static derivative called in the file is not reported as "used but
//    not defined": adcore defines it;
//  - a CUDA/HIP target attribute written after the derivative attribute
//    reaches the derivative.
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace adcc::frontend::attrs {
namespace {

/// Tables by compile. Compile jobs run one after another in a process; each
/// table lives from its first use to the end of its translation unit.
llvm::DenseMap<const ASTContext *, std::unique_ptr<DerivativeTable>> &tables() {
  static llvm::DenseMap<const ASTContext *, std::unique_ptr<DerivativeTable>>
      Tables;
  return Tables;
}

/// The functions in \p D, looking into namespaces and linkage specs.
void collectFunctions(Decl *D, llvm::SmallVectorImpl<FunctionDecl *> &Out) {
  if (auto *FD = dyn_cast<FunctionDecl>(D)) {
    Out.push_back(FD);
    return;
  }
  if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
    for (Decl *Inner : cast<DeclContext>(D)->decls())
      collectFunctions(Inner, Out);
}

bool sameScope(const FunctionDecl &A, const FunctionDecl &B) {
  return A.getDeclContext()->getRedeclContext()->Equals(
      B.getDeclContext()->getRedeclContext());
}

/// A declaration of a derivative's name after the attribute.
void checkLaterDeclaration(Sema &S, DerivativeTable &Table, FunctionDecl &FD) {
  if (!FD.getIdentifier())
    return;
  const DeclaredDerivative *Mismatch = nullptr;
  for (const DeclaredDerivative &D : Table.Declared) {
    if (D.Derivative->getDeclName() != FD.getDeclName() ||
        !sameScope(*D.Derivative, FD))
      continue;
    if (D.Derivative == &FD)
      return;
    if (D.Derivative->getCanonicalDecl() == FD.getCanonicalDecl() &&
        !FD.isInvalidDecl()) {
      if (FD.doesThisDeclarationHaveABody()) {
        report(S, FD.getLocation(), Diag::DerivativeDefined)
            << &FD << D.Spelling;
        report(S, D.AttrLoc, Diag::NotePreviousAttribute) << D.Spelling;
      }
      return;
    }
    // In C++ another instantiation's derivative is a legitimate overload.
    if (!D.FromTemplate && !Mismatch)
      Mismatch = &D;
  }
  if (!Mismatch)
    return;
  report(S, FD.getLocation(), Diag::PrototypeMismatch)
      << &FD << Mismatch->Spelling << Mismatch->Prototype;
  report(S, Mismatch->AttrLoc, Diag::NotePreviousAttribute)
      << Mismatch->Spelling;
}

/// Declares the derivatives of \p FD if it is the definition of an
/// instantiation (or explicit specialization) of a marked template.
void declareForInstantiation(Sema &S, DerivativeTable &Table,
                             FunctionDecl &FD) {
  FunctionTemplateDecl *Template = FD.getPrimaryTemplate();
  if (!Template || !FD.doesThisDeclarationHaveABody() || FD.isInvalidDecl())
    return;
  const FunctionDecl *Pattern =
      Template->getTemplatedDecl()->getCanonicalDecl();
  const FunctionDecl *Canonical = FD.getCanonicalDecl();
  if (llvm::is_contained(Table.InstantiationsDone, Canonical))
    return;
  // Copy: declaring a derivative may add to the table.
  llvm::SmallVector<DerivativeSpec, 2> Specs;
  for (const TemplateSpec &T : Table.Templates)
    if (T.Pattern->getCanonicalDecl() == Pattern)
      Specs.push_back(T.Spec);
  if (Specs.empty())
    return;
  Table.InstantiationsDone.push_back(Canonical);
  SourceLocation Where = FD.getPointOfInstantiation();
  if (Where.isInvalid())
    Where = FD.getLocation();
  for (const DerivativeSpec &Spec : Specs)
    if ((!checkDerivativeSpec(S, FD, Spec, Check::Complete) ||
         !declareDerivative(S, FD, Spec, /*FromTemplate=*/true)) &&
        !S.inTemplateInstantiation()) // Sema notes the instantiation itself
      report(S, Where, Diag::NoteInstantiation) << &FD;
}

class DerivativeConsumer : public SemaConsumer {
public:
  void InitializeSema(Sema &Actions) override { S = &Actions; }
  void ForgetSema() override { S = nullptr; }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    if (!S)
      return true;
    DerivativeTable &Table = derivativeTable(S->getASTContext());
    if (Table.Declared.empty() && Table.Templates.empty())
      return true;
    llvm::SmallVector<FunctionDecl *, 8> Functions;
    for (Decl *D : DG)
      collectFunctions(D, Functions);
    for (FunctionDecl *FD : Functions) {
      declareForInstantiation(*S, Table, *FD);
      checkLaterDeclaration(*S, Table, *FD);
    }
    for (const DeclaredDerivative &D : Table.Declared) {
      copyTargetAttributes(S->getASTContext(), *D.Primal->getMostRecentDecl(),
                           *D.Derivative);
      // Sema reports static functions used but never defined at the end of
      // the translation unit; adcore defines the derivatives.
      S->UndefinedButUsed.erase(D.Derivative->getCanonicalDecl());
    }
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    forgetDerivativeTable(Ctx);
  }

private:
  Sema *S = nullptr;
};

} // namespace

DerivativeTable &derivativeTable(ASTContext &Ctx) {
  std::unique_ptr<DerivativeTable> &Table = tables()[&Ctx];
  if (!Table)
    Table = std::make_unique<DerivativeTable>();
  return *Table;
}

void forgetDerivativeTable(ASTContext &Ctx) { tables().erase(&Ctx); }

std::unique_ptr<ASTConsumer> createDerivativeConsumer() {
  return std::make_unique<DerivativeConsumer>();
}

} // namespace adcc::frontend::attrs
