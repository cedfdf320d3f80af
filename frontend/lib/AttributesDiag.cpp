//===- AttributesDiag.cpp - Messages of the derivative attributes --------===//
//
// All messages in one table, so their style stays uniform: lower-case start,
// no final period, the attribute named as the user wrote it (%0 where it
// appears is the spelling: `ADCC_FORWARD` or `attribute 'adcc_forward'`).
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace adcc::frontend::attrs {
namespace {

struct DiagRow {
  Diag D;
  DiagnosticIDs::Level Level;
  const char *Format;
};

constexpr DiagnosticIDs::Level Error = DiagnosticIDs::Error;
constexpr DiagnosticIDs::Level Note = DiagnosticIDs::Note;

constexpr DiagRow DiagTable[] = {
    {Diag::NotAFunction, Error, "%0 only applies to functions"},
    {Diag::MemberFunction, Error,
     "%0 does not support member functions yet; mark a free function"},
    {Diag::NotAtFileScope, Error,
     "%0 applies to functions declared at file or namespace scope"},
    {Diag::MissingName, Error,
     "%0 needs the name of the derivative function as its first argument"},
    {Diag::MissingWidth, Error,
     "%0 needs the batch width after the derivative's name"},
    {Diag::BadWidth, Error,
     "the batch width of %0 must be a positive integer constant"},
    {Diag::WidthTooLarge, Error, "the batch width of %0 must be at most %1"},
    {Diag::ActivityNotString, Error,
     "the activities of %0 must be string literals, such as \"Dual\""},
    {Diag::EmptyActivity, Error, "missing activity in %0"},
    {Diag::UnknownActivity, Error, "unknown activity '%0'; %1 accepts %2"},
    {Diag::WrongModeActivity, Error,
     "'%0' is a %select{forward|reverse}1-mode activity; %2 accepts %3"},
    {Diag::Variadic, Error, "%0 cannot differentiate variadic function %1"},
    {Diag::Consteval, Error,
     "%0 cannot differentiate consteval function %1, which has no code"},
    {Diag::NoPrototype, Error,
     "%0 needs a function with a prototype; declare %1 with '(void)' if it "
     "takes no parameters"},
    {Diag::ParameterPack, Error,
     "%0 does not support function parameter packs"},
    {Diag::DeducedReturn, Error,
     "%0 needs the return type of %1 written out; it cannot be deduced"},
    {Diag::ActivityCount, Error,
     "%0 expects %1 %plural{1:activity|:activities}1 for %2 (one per "
     "parameter, then one for the "
     "return value), got %3"},
    {Diag::ActivityCountVoid, Error,
     "%0 expects %1 %plural{1:activity|:activities}1 for %2 (one per "
     "parameter; a void function "
     "has no return activity), got %3"},
    {Diag::ParamActivityType, Error,
     "%0 is not valid for parameter %1 of type %2: %3"},
    {Diag::ReturnActivityType, Error,
     "%0 is not valid for the return type %1 of %2: %3"},
    {Diag::PrototypeMismatch, Error,
     "%0 does not match the derivative that %1 declares; expected '%2'"},
    {Diag::DerivativeDefined, Error,
     "%0 is the derivative that %1 declares; adcc generates its body, so it "
     "cannot be defined here"},
    {Diag::DerivativeOfOther, Error, "%0 is already the derivative of %1"},
    {Diag::ConflictingActivities, Error,
     "%0 is already declared as the derivative of %1 with other activities "
     "or width"},
    {Diag::ResultTypeMismatch, Error,
     "%0 does not match the result type that %1 declares; expected '%2'"},
    {Diag::NotePreviousAttribute, Note, "derivative declared by this %0"},
    {Diag::NoteDeclaredHere, Note, "%0 is declared here"},
    {Diag::NoteInstantiation, Note, "while declaring the derivative of %0"},
};

} // namespace

SemaBase::SemaDiagnosticBuilder report(Sema &S, SourceLocation Loc, Diag D) {
  for (const DiagRow &Row : DiagTable)
    if (Row.D == D)
      return S.Diag(Loc, S.getDiagnostics().getDiagnosticIDs()->getCustomDiagID(
                             Row.Level, Row.Format));
  // Every Diag has a row; an internal error, not a user's.
  return S.Diag(Loc, S.getDiagnostics().getDiagnosticIDs()->getCustomDiagID(
                         Error, "internal error: unknown adcc diagnostic"));
}

} // namespace adcc::frontend::attrs
