//===- AttributesParse.cpp - Parse and check derivative attributes -------===//
//
// An attribute's arguments are the derivative's name (an identifier), the
// batch width for a `_batch` spelling (an integer constant), then activity
// words in string literals: <adcc.h> stringizes its macro arguments, so
// ADCC_FORWARD(d_f, Dual, Const) arrives as adcc_forward(d_f, "Dual, Const");
// written directly, [[adcc::forward(d_f, "Dual", "Const")]] works too.
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include <functional>

using namespace clang;

namespace adcc::frontend::attrs {
namespace {

/// Largest batch width, as for enzyme_width.
constexpr unsigned MaxWidth = 64;

struct ActivityRow {
  const char *Word;
  Activity A;
  bool Forward;
  bool Reverse;
};

constexpr ActivityRow ActivityTable[] = {
    {"Const", Activity::Const, true, true},
    {"Dual", Activity::Dual, true, false},
    {"DualOnly", Activity::DualOnly, true, false},
    {"Active", Activity::Active, false, true},
    {"Duplicated", Activity::Duplicated, false, true},
    {"DuplicatedOnly", Activity::DuplicatedOnly, false, true},
};

const char *acceptedWords(Mode M) {
  return M == Mode::Forward ? "Const, Dual and DualOnly"
                            : "Const, Active, Duplicated and DuplicatedOnly";
}

/// The start offsets of the arguments of the macro invocation \p Text
/// (`ADCC_FORWARD(d_f, Dual, Const)`), or nothing if it is not one.
std::optional<llvm::SmallVector<size_t, 8>>
macroArgumentOffsets(llvm::StringRef Text, llvm::StringRef Macro) {
  if (!Text.starts_with(Macro))
    return std::nullopt;
  size_t Open = Text.find_first_not_of(" \t\r\n", Macro.size());
  if (Open == llvm::StringRef::npos || Text[Open] != '(')
    return std::nullopt;
  llvm::SmallVector<size_t, 8> Offsets{Open + 1};
  unsigned Depth = 0;
  for (size_t I = Open + 1; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(')
      ++Depth;
    else if (C == ')' && Depth > 0)
      --Depth;
    else if (C == ',' && Depth == 0)
      Offsets.push_back(I + 1);
    else if (C == '"' || C == '\'' || C == '/')
      return std::nullopt; // literals, comments: not an activity list
  }
  return Offsets;
}

/// Where activity word number \p Index of \p SL was written; \p Offset is
/// its byte offset in the literal. A literal that <adcc.h> stringized has no
/// location of its own: the word is found among the arguments of the macro
/// invocation, or else the attribute's location stands for all of them.
SourceLocation locationOfWord(Sema &S, const StringLiteral &SL,
                              const DerivativeSpec &Spec, unsigned Index,
                              unsigned Offset) {
  SourceManager &SM = S.getSourceManager();
  if (SL.getBeginLoc().isFileID())
    return Offset < SL.getByteLength()
               ? SL.getLocationOfByte(Offset, SM, S.getLangOpts(),
                                      S.getASTContext().getTargetInfo())
               : SL.getBeginLoc();
  if (!Spec.MacroLoc.isValid())
    return Spec.AttrLoc;
  CharSourceRange Range = SM.getImmediateExpansionRange(Spec.MacroLoc);
  if (!Range.getBegin().isFileID() || !Range.getEnd().isFileID())
    return Spec.AttrLoc;
  bool Invalid = false;
  llvm::StringRef Text =
      Lexer::getSourceText(Range, SM, S.getLangOpts(), &Invalid);
  auto Offsets = macroArgumentOffsets(Text, Spec.Spelling);
  unsigned Arg = (Spec.Kind.Batch ? 2 : 1) + Index;
  if (Invalid || !Offsets || Arg >= Offsets->size())
    return Spec.AttrLoc;
  size_t At = (*Offsets)[Arg];
  At = Text.find_first_not_of(" \t\r\n", At);
  if (At == llvm::StringRef::npos)
    return Spec.AttrLoc;
  return Range.getBegin().getLocWithOffset(int(At));
}

/// Adds the comma-separated activity words of \p SL to \p Spec.
bool parseActivityWords(Sema &S, const StringLiteral &SL,
                        DerivativeSpec &Spec) {
  StringRef Text = SL.getString();
  if (Text.trim().empty())
    return true;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find(',', Start);
    if (End == StringRef::npos)
      End = Text.size();
    StringRef Piece = Text.slice(Start, End);
    size_t Lead = Piece.size() - Piece.ltrim().size();
    StringRef Word = Piece.trim();
    SourceLocation Loc = locationOfWord(
        S, SL, Spec, unsigned(Spec.Activities.size()), unsigned(Start + Lead));
    if (Word.empty()) {
      report(S, Loc, Diag::EmptyActivity) << Spec.Spelling;
      return false;
    }
    const ActivityRow *Row = nullptr;
    for (const ActivityRow &R : ActivityTable)
      if (Word == R.Word)
        Row = &R;
    Mode M = Spec.Kind.M;
    if (!Row) {
      report(S, Loc, Diag::UnknownActivity)
          << Word << Spec.Spelling << acceptedWords(M);
      return false;
    }
    if ((M == Mode::Forward && !Row->Forward) ||
        (M == Mode::Reverse && !Row->Reverse)) {
      report(S, Loc, Diag::WrongModeActivity)
          << Word << (M == Mode::Forward ? 1 : 0) << Spec.Spelling
          << acceptedWords(M);
      return false;
    }
    Spec.Activities.push_back({Row->A, Loc});
    Start = End + 1;
  }
  return true;
}

bool parseWidth(Sema &S, const ParsedAttr &AL, DerivativeSpec &Spec) {
  if (AL.getNumArgs() < 2 || AL.isArgIdent(1) || !AL.getArgAsExpr(1)) {
    SourceLocation Loc = AL.getNumArgs() >= 2 && AL.isArgIdent(1)
                             ? AL.getArgAsIdent(1)->getLoc()
                             : Spec.NameLoc;
    report(S, Loc, AL.getNumArgs() < 2 ? Diag::MissingWidth : Diag::BadWidth)
        << Spec.Spelling;
    return false;
  }
  Expr *E = AL.getArgAsExpr(1);
  std::optional<llvm::APSInt> Value;
  if (!E->isValueDependent() && !E->isTypeDependent() &&
      E->getType()->isIntegralOrUnscopedEnumerationType())
    Value = E->getIntegerConstantExpr(S.getASTContext());
  if (!Value || Value->isNegative() || Value->isZero()) {
    report(S, E->getExprLoc(), Diag::BadWidth) << Spec.Spelling;
    return false;
  }
  if (Value->ugt(MaxWidth)) {
    report(S, E->getExprLoc(), Diag::WidthTooLarge)
        << Spec.Spelling << MaxWidth;
    return false;
  }
  Spec.Width = unsigned(Value->getZExtValue());
  return true;
}

/// True if \p T has a derivative of its own: floating-point scalars,
/// complex and vector values built of them.
bool isFloatingValue(QualType T) {
  T = T.getCanonicalType();
  if (const auto *CT = T->getAs<ComplexType>())
    T = CT->getElementType();
  else if (const auto *VT = T->getAs<VectorType>())
    T = VT->getElementType();
  return T->isRealFloatingType();
}

/// A struct of at most 16 bytes made only of floating-point values (and
/// such structs and arrays of them): passed in registers, its adjoint is a
/// value of its type.
bool isSmallFloatRecord(ASTContext &Ctx, QualType T) {
  std::function<bool(QualType)> AllFloat = [&](QualType E) {
    E = E.getCanonicalType();
    if (const auto *AT = Ctx.getAsConstantArrayType(E))
      return AllFloat(AT->getElementType());
    if (isFloatingValue(E))
      return true;
    const RecordDecl *RD = E->getAsRecordDecl();
    if (!RD || RD->isUnion() || !RD->isCompleteDefinition())
      return false;
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
        CXX && (CXX->getNumBases() || !CXX->canPassInRegisters()))
      return false;
    return !RD->field_empty() && llvm::all_of(RD->fields(), [&](auto *F) {
      return AllFloat(F->getType());
    });
  };
  return T->isRecordType() && !T->isIncompleteType() &&
         Ctx.getTypeSize(T) <= 128 && AllFloat(T);
}

bool isPointerLike(QualType T) {
  return T->isPointerType() || T->isReferenceType();
}

/// Why \p A is not valid for a value of type \p T, or null if it is.
/// \p IsReturn: \p T is the return type.
const char *activityError(ASTContext &Ctx, Activity A, QualType T,
                          bool IsReturn) {
  switch (A) {
  case Activity::Const:
    return nullptr;
  case Activity::Dual:
  case Activity::DualOnly:
    if (IsReturn && T->isReferenceType())
      return "the derivative cannot return a reference; use Const";
    if (isFloatingValue(T) || isPointerLike(T) || T->isRecordType())
      return nullptr;
    return "it carries no derivative; use Const";
  case Activity::Active:
    if (isFloatingValue(T) || (!IsReturn && isSmallFloatRecord(Ctx, T)))
      return nullptr;
    if (isPointerLike(T))
      return "pointers and references are Duplicated";
    if (!IsReturn && T->isRecordType())
      return "only structs of at most 16 bytes of floating-point values are "
             "Active; pass a pointer to it, Duplicated";
    return "it carries no derivative; use Const";
  case Activity::Duplicated:
  case Activity::DuplicatedOnly:
    if (IsReturn)
      return "a reverse-mode derivative returns no shadow; use Active for a "
             "floating-point result, Const otherwise";
    if (isPointerLike(T))
      return nullptr;
    if (isFloatingValue(T))
      return "only pointers and references have shadow memory; use Active "
             "for a floating-point value";
    return "it carries no derivative; use Const";
  }
  return nullptr;
}

std::string parameterName(const FunctionDecl &FD, unsigned I) {
  const ParmVarDecl *P = FD.getParamDecl(I);
  if (P->getIdentifier())
    return ("'" + P->getName() + "'").str();
  return std::to_string(I + 1);
}

/// The name of the <adcc.h> macro that \p AL was written with, if any.
StringRef adccMacroName(Sema &S, const ParsedAttr &AL) {
  if (!AL.getLoc().isMacroID())
    return StringRef();
  StringRef Macro = Lexer::getImmediateMacroName(
      AL.getLoc(), S.getSourceManager(), S.getLangOpts());
  return Macro.starts_with("ADCC_") ? Macro : StringRef();
}

/// The primal's shape: a free, prototyped, non-variadic function with no
/// parameter pack, that reaches the IR (not consteval).
bool checkPrimalKind(Sema &S, const FunctionDecl &FD,
                     const DerivativeSpec &Spec) {
  SourceLocation Loc = Spec.AttrLoc;
  if (isa<CXXMethodDecl>(FD)) {
    report(S, Loc, Diag::MemberFunction) << Spec.Spelling;
    return false;
  }
  if (!FD.getDeclContext()->getRedeclContext()->isFileContext() ||
      FD.isLocalExternDecl() || FD.getFriendObjectKind() != Decl::FOK_None) {
    report(S, Loc, Diag::NotAtFileScope) << Spec.Spelling;
    return false;
  }
  const auto *FPT = FD.getType()->getAs<FunctionProtoType>();
  if (!FPT) {
    report(S, Loc, Diag::NoPrototype) << Spec.Spelling << &FD;
    return false;
  }
  if (FPT->isVariadic()) {
    report(S, Loc, Diag::Variadic) << Spec.Spelling << &FD;
    return false;
  }
  if (FD.isConsteval()) {
    report(S, Loc, Diag::Consteval) << Spec.Spelling << &FD;
    return false;
  }
  for (const ParmVarDecl *P : FD.parameters())
    if (P->isParameterPack()) {
      report(S, Loc, Diag::ParameterPack) << Spec.Spelling;
      return false;
    }
  return true;
}

} // namespace

llvm::StringRef activityName(Activity A) {
  for (const ActivityRow &R : ActivityTable)
    if (R.A == A)
      return R.Word;
  return "?";
}

bool hasShadow(Activity A) {
  return A != Activity::Const && A != Activity::Active;
}

std::string attrSpelling(Sema &S, const ParsedAttr &AL) {
  StringRef Macro = adccMacroName(S, AL);
  if (!Macro.empty())
    return Macro.str();
  return "attribute '" + AL.getNormalizedFullName() + "'";
}

bool isAdccSpelling(Sema &S, const ParsedAttr &AL) {
  if (AL.isGNUAttribute() ||
      StringRef(AL.getNormalizedFullName()).starts_with("adcc::"))
    return true;
  S.Diag(AL.getLoc(), diag::warn_unknown_attribute_ignored)
      << AL << AL.getRange();
  return false;
}

SourceLocation attrLocation(Sema &S, const ParsedAttr &AL) {
  if (adccMacroName(S, AL).empty())
    return AL.getLoc();
  return S.getSourceManager().getExpansionLoc(AL.getLoc());
}

std::optional<DerivativeSpec> parseDerivativeAttr(Sema &S, const ParsedAttr &AL,
                                                  DerivativeKind Kind) {
  DerivativeSpec Spec;
  Spec.Kind = Kind;
  Spec.Spelling = attrSpelling(S, AL);
  Spec.AttrLoc = attrLocation(S, AL);
  if (!adccMacroName(S, AL).empty())
    Spec.MacroLoc = AL.getLoc();
  if (AL.getNumArgs() == 0 || !AL.isArgIdent(0)) {
    SourceLocation Loc = AL.getNumArgs() == 0 || !AL.getArgAsExpr(0)
                             ? AL.getLoc()
                             : AL.getArgAsExpr(0)->getExprLoc();
    report(S, Loc, Diag::MissingName) << Spec.Spelling;
    return std::nullopt;
  }
  Spec.Name = AL.getArgAsIdent(0)->getIdentifierInfo();
  Spec.NameLoc = AL.getArgAsIdent(0)->getLoc();
  unsigned First = 1;
  if (Kind.Batch) {
    if (!parseWidth(S, AL, Spec))
      return std::nullopt;
    First = 2;
  }
  for (unsigned I = First; I < AL.getNumArgs(); ++I) {
    const Expr *E = AL.isArgIdent(I) ? nullptr : AL.getArgAsExpr(I);
    const auto *SL =
        E ? dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()) : nullptr;
    if (!SL || !SL->isOrdinary()) {
      SourceLocation Loc = E                  ? E->getExprLoc()
                           : AL.isArgIdent(I) ? AL.getArgAsIdent(I)->getLoc()
                                              : AL.getLoc();
      report(S, Loc, Diag::ActivityNotString) << Spec.Spelling;
      return std::nullopt;
    }
    if (!parseActivityWords(S, *SL, Spec))
      return std::nullopt;
  }
  return Spec;
}

bool checkDerivativeSpec(Sema &S, const FunctionDecl &FD,
                         const DerivativeSpec &Spec, Check C) {
  if (!checkPrimalKind(S, FD, Spec))
    return false;
  const auto *FPT = FD.getType()->getAs<FunctionProtoType>();
  QualType Ret = FPT->getReturnType();
  if (C == Check::Complete && Ret->isUndeducedType()) {
    report(S, Spec.AttrLoc, Diag::DeducedReturn) << Spec.Spelling << &FD;
    return false;
  }
  // With a dependent return type, whether there is a return activity is
  // known per instantiation only.
  if (Ret->isDependentType() || Ret->isUndeducedType())
    return true;

  unsigned NumParams = FPT->getNumParams();
  bool Void = Ret->isVoidType();
  unsigned Expected = NumParams + (Void ? 0 : 1);
  if (Spec.Activities.size() != Expected) {
    report(S, Spec.AttrLoc,
           Void ? Diag::ActivityCountVoid : Diag::ActivityCount)
        << Spec.Spelling << Expected << &FD << unsigned(Spec.Activities.size());
    return false;
  }
  for (unsigned I = 0; I < NumParams; ++I) {
    QualType T = FPT->getParamType(I);
    if (T->isDependentType())
      continue;
    const WrittenActivity &W = Spec.Activities[I];
    if (const char *Why =
            activityError(S.getASTContext(), W.A, T, /*IsReturn=*/false)) {
      report(S, W.Loc, Diag::ParamActivityType)
          << activityName(W.A) << parameterName(FD, I) << T << Why;
      return false;
    }
  }
  if (!Void) {
    const WrittenActivity &W = Spec.Activities.back();
    if (const char *Why = activityError(S.getASTContext(), W.A, Ret,
                                        /*IsReturn=*/true)) {
      report(S, W.Loc, Diag::ReturnActivityType)
          << activityName(W.A) << Ret << &FD << Why;
      return false;
    }
  }
  return true;
}

} // namespace adcc::frontend::attrs
