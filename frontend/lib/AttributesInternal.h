//===- AttributesInternal.h - Derivative attributes, internals -*- C++ -*-===//
//
// Private to the frontend library. The derivative attributes are handled in
// four steps, one file each:
//
//   Attributes.cpp          registration: spellings, the ParsedAttrInfo
//   AttributesParse.cpp     parse the arguments into a DerivativeSpec and
//                           check it against the primal function
//   AttributesDeclare.cpp   build the derivative's signature, declare it (or
//                           check a prototype the user wrote), annotate the
//                           primal for the AD engine
//   AttributesConsumer.cpp  what can only be done later: prototypes written
//                           after the attribute, template instantiations
//
// Encoding for the AD engine (the contract with adcore): the primal's
// definition carries an `annotate` attribute, which Clang emits into
// `llvm.global.annotations`, with the string
//
//   adcc.derivative:<mode>:<width>:<derivative symbol>:<acts>:<return act>
//
// mode is `forward` (or `reverse`), width the batch width (1 unless batched),
// the symbol is the IR name of the derivative (mangled in C++), acts the
// parameter activities as written, comma-separated (empty for no
// parameters), and the return activity as written (`Const` for a void
// function). Example: adcc.derivative:forward:1:d_f:Dual,Const:Dual
// The annotation's argument is the address of the derivative, so the
// module holds the derivative's declaration with Clang's ABI lowering of
// its signature even where no code calls it.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_ATTRIBUTESINTERNAL_H
#define ADCC_FRONTEND_ATTRIBUTESINTERNAL_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Sema/SemaBase.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
class FunctionDecl;
class IdentifierInfo;
class ParsedAttr;
class Sema;
} // namespace clang

namespace adcc::frontend::attrs {

enum class Mode : unsigned char { Forward, Reverse };

/// Which attribute was written: the mode, and whether it is a `_batch`
/// spelling (which takes a width after the derivative name).
struct DerivativeKind {
  Mode M;
  bool Batch;
};

/// The activity words. Forward mode: Const, Dual, DualOnly. Reverse mode:
/// Const, Active, Duplicated, DuplicatedOnly.
enum class Activity : unsigned char {
  Const,
  Dual,
  DualOnly,
  Active,
  Duplicated,
  DuplicatedOnly
};

llvm::StringRef activityName(Activity A);

/// True for the activities whose parameter gets shadow arguments.
bool hasShadow(Activity A);

/// One activity as written, with where it was written.
struct WrittenActivity {
  Activity A;
  clang::SourceLocation Loc;
};

/// One parsed derivative attribute, before it is checked against the primal.
struct DerivativeSpec {
  DerivativeKind Kind{Mode::Forward, false};
  /// How to name the attribute in messages: the <adcc.h> macro it was
  /// written with (ADCC_FORWARD), else the attribute as spelled.
  std::string Spelling;
  /// Where diagnostics about the attribute as a whole point: the attribute,
  /// or the use of the <adcc.h> macro it was written with.
  clang::SourceLocation AttrLoc;
  /// The attribute's own location inside the <adcc.h> macro, if any.
  clang::SourceLocation MacroLoc;
  clang::IdentifierInfo *Name = nullptr;
  clang::SourceLocation NameLoc;
  unsigned Width = 1;
  /// Every activity as written: one per parameter, then the return's.
  llvm::SmallVector<WrittenActivity, 8> Activities;
  /// Whether the last activity is the return's (the primal does not return
  /// void); set when the derivative is declared.
  bool HasReturnActivity = true;
};

/// Derivative attributes on functions whose primal is known only per
/// template instantiation are checked in two steps; this says which.
enum class Check { Pattern, Complete };

//===- Diagnostics (AttributesDiag.cpp) -----------------------------------===//

/// Every message the derivative attributes emit, lower-case, no final period.
enum class Diag {
  NotAFunction,
  MemberFunction,
  NotAtFileScope,
  MissingName,
  MissingWidth,
  BadWidth,
  WidthTooLarge,
  ActivityNotString,
  EmptyActivity,
  UnknownActivity,
  WrongModeActivity,
  Variadic,
  Consteval,
  NoPrototype,
  ParameterPack,
  DeducedReturn,
  ActivityCount,
  ActivityCountVoid,
  ParamActivityType,
  ReturnActivityType,
  PrototypeMismatch,
  DerivativeDefined,
  DerivativeOfOther,
  ConflictingActivities,
  ResultTypeMismatch,
  NotePreviousAttribute,
  NoteDeclaredHere,
  NoteInstantiation,
};

/// Reports \p D at \p Loc; stream the message's arguments into the result.
clang::SemaBase::SemaDiagnosticBuilder
report(clang::Sema &S, clang::SourceLocation Loc, Diag D);

//===- Parsing and checking (AttributesParse.cpp) -------------------------===//

/// How messages name the attribute \p AL: the <adcc.h> macro it was written
/// with (`ADCC_FORWARD`), else `attribute 'adcc_forward'` as spelled.
std::string attrSpelling(clang::Sema &S, const clang::ParsedAttr &AL);

/// Whether \p AL is spelled as adcc's (GNU, or scoped `adcc::`). The
/// unscoped C++11/C23 spellings are registered only because Clang drops
/// the arguments of a scoped plugin attribute otherwise; written unscoped,
/// the attribute is ignored with Clang's warning.
bool isAdccSpelling(clang::Sema &S, const clang::ParsedAttr &AL);

/// Where diagnostics about \p AL as a whole point: the attribute, or the use
/// of the <adcc.h> macro it was written with (whose expansion is adcc's
/// business, not the user's).
clang::SourceLocation attrLocation(clang::Sema &S, const clang::ParsedAttr &AL);

/// Parses the arguments of \p AL: derivative name, width for a batch
/// spelling, activity words (string literals, each holding one or more
/// comma-separated words). Reports and returns nothing on error.
std::optional<DerivativeSpec> parseDerivativeAttr(clang::Sema &S,
                                                  const clang::ParsedAttr &AL,
                                                  DerivativeKind Kind);

/// Checks what kind of function \p FD is (free function at file or
/// namespace scope, prototyped, not variadic, no parameter pack, declared
/// return type), then the activities against its parameters and return type.
/// With Check::Pattern (a function template), what depends on template
/// parameters is left for Check::Complete on each instantiation.
bool checkDerivativeSpec(clang::Sema &S, const clang::FunctionDecl &FD,
                         const DerivativeSpec &Spec, Check C);

//===- The derivative (AttributesDeclare.cpp) -----------------------------===//

/// Declares the derivative of \p Primal that \p Spec describes (or checks
/// and adopts a declaration the user wrote), and annotates \p Primal for the
/// AD engine. \p Primal must have passed checkDerivativeSpec(Complete).
/// \p FromTemplate: \p Primal is a template instantiation (its derivative is
/// one overload per instantiation).
bool declareDerivative(clang::Sema &S, clang::FunctionDecl &Primal,
                       const DerivativeSpec &Spec, bool FromTemplate);

/// Gives \p Derivative the CUDA/HIP target (__host__, __device__) of
/// \p Primal. Attributes written after the derivative attribute are seen
/// only later, so the AST consumer calls this again.
void copyTargetAttributes(clang::ASTContext &Ctx,
                          const clang::FunctionDecl &Primal,
                          clang::FunctionDecl &Derivative);

/// Records that \p Pattern (a function template's pattern) carries \p Spec,
/// to be declared per instantiation.
void recordTemplateSpec(clang::Sema &S, clang::FunctionDecl &Pattern,
                        const DerivativeSpec &Spec);

/// The annotation string for the AD engine (see the file comment).
std::string encodeDerivative(const DerivativeSpec &Spec,
                             llvm::StringRef Symbol);

//===- Per-compile state (AttributesConsumer.cpp) -------------------------===//

/// A derivative declared (or adopted) for a primal.
struct DeclaredDerivative {
  clang::FunctionDecl *Derivative = nullptr;
  clang::FunctionDecl *Primal = nullptr;
  std::string Encoding;
  /// The expected prototype, e.g. `double d_f(double x, double d_x)`.
  std::string Prototype;
  std::string Spelling;
  clang::SourceLocation AttrLoc;
  bool FromTemplate = false;
};

/// A derivative attribute on a function template, by pattern.
struct TemplateSpec {
  clang::FunctionDecl *Pattern = nullptr;
  DerivativeSpec Spec;
};

/// What the attribute handlers and the AST consumer of one compile share.
struct DerivativeTable {
  std::vector<DeclaredDerivative> Declared;
  std::vector<TemplateSpec> Templates;
  /// Template instantiations (canonical declarations) already handled.
  llvm::SmallVector<const clang::FunctionDecl *, 8> InstantiationsDone;
};

/// The AST consumer that completes the attributes' work (see
/// AttributesConsumer.cpp).
std::unique_ptr<clang::ASTConsumer> createDerivativeConsumer();

/// The table of the compile that owns \p Ctx, created on first use.
DerivativeTable &derivativeTable(clang::ASTContext &Ctx);
/// Drops the table of \p Ctx at the end of its compile.
void forgetDerivativeTable(clang::ASTContext &Ctx);

} // namespace adcc::frontend::attrs

#endif // ADCC_FRONTEND_ATTRIBUTESINTERNAL_H
