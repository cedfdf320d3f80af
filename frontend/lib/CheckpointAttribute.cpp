//===- CheckpointAttribute.cpp - A checkpointed loop as an annotation ----===//
//
// The annotation form of a checkpointed time loop (docs/checkpointing.md):
//
//   ADCC_CHECKPOINT(8) for (int t = 0; t < steps; ++t) { ... }
//   [[adcc::checkpoint(8, ADCC_INTERVAL)]] while (running(y)) { ... }
//
// (`ADCC_CHECKPOINT(...)` is `__attribute__((adcc_checkpoint(...)))`.) The
// attribute applies to a `for` or `while` statement; its arguments are the
// snapshot budget (an integer expression, evaluated before the loop) and,
// optionally, the schedule (an integer constant: ADCC_REVOLVE or
// ADCC_INTERVAL). Its handler puts a call
//
//   __builtin_annotation(snapshots, "adcc.checkpoint:<schedule>")
//
// at the start of the loop's body, located at the annotation, where the AD
// engine's pass at the start of the pipeline finds the loop
// (adcore/lib/CheckpointedLoops.cpp): it outlines the body into a step
// over the memory the loop writes and calls the checkpointing runtime.
// A schedule left out is written -1 (revolve when the number of iterations
// is known before the loop, the online schedule otherwise).
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"
#include "frontend/Attributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace adcc::frontend {
namespace {

using Spelling = ParsedAttrInfo::Spelling;
using Syntax = AttributeCommonInfo::Syntax;

constexpr Spelling CheckpointSpellings[] = {
    {Syntax::AS_GNU, "adcc_checkpoint"},
    {Syntax::AS_CXX11, "adcc::checkpoint"},
    {Syntax::AS_C23, "adcc::checkpoint"},
    {Syntax::AS_CXX11, "checkpoint"},
    {Syntax::AS_C23, "checkpoint"}};

/// The schedules the second argument may name (<adcc_checkpoint.h>).
constexpr int64_t Revolve = 0, Interval = 1;

/// An error at \p Loc: lower-case start, no final period.
SemaBase::SemaDiagnosticBuilder error(Sema &S, SourceLocation Loc,
                                      const char *Format) {
  return S.Diag(Loc, S.getDiagnostics().getDiagnosticIDs()->getCustomDiagID(
                         DiagnosticIDs::Error, Format));
}

/// The call `__builtin_annotation(Snapshots, Text)` located at \p Loc, or
/// null after an error.
Expr *annotationCall(Sema &S, Expr *Snapshots, StringRef Text,
                     SourceLocation Loc) {
  ASTContext &C = S.Context;
  IdentifierInfo &Name = C.Idents.get("__builtin_annotation");
  LookupResult R(S, &Name, Loc, Sema::LookupOrdinaryName);
  S.LookupName(R, S.TUScope, /*AllowBuiltinCreation=*/true);
  auto *Builtin =
      R.isSingleResult() ? dyn_cast<FunctionDecl>(R.getFoundDecl()) : nullptr;
  if (!Builtin)
    return nullptr;
  ExprResult Callee =
      S.BuildDeclRefExpr(Builtin, Builtin->getType(), VK_PRValue, Loc);
  QualType StrTy = C.getStringLiteralArrayType(C.CharTy, Text.size());
  Expr *Str = StringLiteral::Create(C, Text, StringLiteralKind::Ordinary,
                                    /*Pascal=*/false, StrTy, Loc);
  Expr *Args[] = {Snapshots, Str};
  ExprResult Call =
      S.BuildCallExpr(S.getCurScope(), Callee.get(), Loc, Args, Loc);
  return Call.isInvalid() ? nullptr : Call.get();
}

/// Argument \p I of \p AL as an expression (a bare name, which Clang
/// keeps as an identifier for an attribute it does not know, looked up
/// here); null after an error.
Expr *argExpr(Sema &S, const ParsedAttr &AL, unsigned I) {
  if (!AL.isArgIdent(I))
    return AL.getArgAsExpr(I);
  IdentifierLoc *Id = AL.getArgAsIdent(I);
  LookupResult R(S, DeclarationName(Id->getIdentifierInfo()), Id->getLoc(),
                 Sema::LookupOrdinaryName);
  S.LookupName(R, S.getCurScope());
  if (R.empty()) {
    error(S, Id->getLoc(), "use of undeclared identifier %0")
        << Id->getIdentifierInfo();
    return nullptr;
  }
  ExprResult E = S.BuildDeclarationNameExpr(CXXScopeSpec(), R,
                                            /*NeedsADL=*/false);
  return E.isInvalid() ? nullptr : E.get();
}

class CheckpointAttrInfo : public ParsedAttrInfo {
public:
  CheckpointAttrInfo() {
    OptArgs = 15; // (checked below, with messages of our own)
    IsStmt = 1;
    Spellings = CheckpointSpellings;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL,
                            const Decl *) const override {
    if (attrs::isAdccSpelling(S, AL))
      error(S, attrs::attrLocation(S, AL),
            "%0 applies to a 'for' or 'while' loop")
          << attrs::attrSpelling(S, AL);
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &AL,
                            const Stmt *St) const override {
    if (!attrs::isAdccSpelling(S, AL))
      return false;
    if (isa<ForStmt, WhileStmt>(St))
      return true;
    error(S, attrs::attrLocation(S, AL),
          "%0 applies to a 'for' or 'while' loop")
        << attrs::attrSpelling(S, AL);
    return false;
  }

  AttrHandling handleStmtAttribute(Sema &S, Stmt *St, const ParsedAttr &AL,
                                   class Attr *&Result) const override {
    Result = nullptr;
    std::string Name = attrs::attrSpelling(S, AL);
    SourceLocation Loc = attrs::attrLocation(S, AL);
    if (AL.getNumArgs() < 1 || AL.getNumArgs() > 2) {
      error(S, Loc,
            "%0 takes the number of snapshots and, optionally, the "
            "schedule (ADCC_REVOLVE or ADCC_INTERVAL)")
          << Name;
      return AttributeNotApplied;
    }
    Expr *Snapshots = argExpr(S, AL, 0);
    if (!Snapshots)
      return AttributeNotApplied;
    if (!Snapshots->isTypeDependent() &&
        !Snapshots->getType()->isIntegralOrUnscopedEnumerationType()) {
      error(S, Snapshots->getExprLoc(),
            "the number of snapshots of %0 must be an integer")
          << Name;
      return AttributeNotApplied;
    }
    if (!Snapshots->isValueDependent())
      if (std::optional<llvm::APSInt> K =
              Snapshots->getIntegerConstantExpr(S.Context);
          K && K->getSExtValue() < 1) {
        error(S, Snapshots->getExprLoc(),
              "the number of snapshots of %0 must be at least 1 (got %1)")
            << Name << K->getSExtValue();
        return AttributeNotApplied;
      }
    int64_t Schedule = -1;
    if (AL.getNumArgs() == 2) {
      Expr *E = argExpr(S, AL, 1);
      if (!E)
        return AttributeNotApplied;
      std::optional<llvm::APSInt> K =
          E->isValueDependent() ? std::nullopt
                                : E->getIntegerConstantExpr(S.Context);
      if (!K || (K->getSExtValue() != Revolve &&
                 K->getSExtValue() != Interval)) {
        error(S, E->getExprLoc(),
              "the schedule of %0 must be ADCC_REVOLVE or ADCC_INTERVAL")
            << Name;
        return AttributeNotApplied;
      }
      Schedule = K->getSExtValue();
    }
    std::string Text = "adcc.checkpoint:" + std::to_string(Schedule);
    Expr *Mark = annotationCall(S, Snapshots, Text, Loc);
    if (!Mark)
      return AttributeNotApplied;
    Stmt *Body = isa<ForStmt>(St) ? cast<ForStmt>(St)->getBody()
                                  : cast<WhileStmt>(St)->getBody();
    Stmt *Parts[] = {Mark, Body};
    auto *NewBody = CompoundStmt::Create(S.Context, Parts, FPOptionsOverride(),
                                         Body->getBeginLoc(), Body->getEndLoc());
    if (auto *For = dyn_cast<ForStmt>(St))
      For->setBody(NewBody);
    else
      cast<WhileStmt>(St)->setBody(NewBody);
    return AttributeApplied;
  }
};

// Registration (a static constructor, as for the other attributes; this
// file is linked in through enableCheckpointAttribute()).
ParsedAttrInfoRegistry::Add<CheckpointAttrInfo>
    RegisterCheckpoint("adcc_checkpoint", "checkpointed loop");

} // namespace

void enableCheckpointAttribute() {}

} // namespace adcc::frontend
