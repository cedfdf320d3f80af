//===- adcore/EnzymeMarks.h - Enzyme's attributes and annotations -*- C++ -*-//
//
// The marks Enzyme's users write on functions and globals, as clang
// attributes or as annotations:
//
//   __attribute__((enzyme_inactive)) void log_value(double v);
//   [[enzyme::function_like("log1p")]] double my_log1p(double x);
//   __attribute__((annotate("enzyme_inactive"))) double counter;
//
// Each is one row of a table: where it may be written, the argument it
// takes, and what it does to derivatives. The frontend checks the rows'
// uses and turns the attributes into annotations (frontend/EnzymeAttributes);
// at the start of the pipeline, readEnzymeAnnotations turns the annotations
// into the registrations of adcore/lib/rules/CustomRules.h. A mark spelled
// `enzyme_*` that has no row is an error: it may change derivatives under
// Enzyme.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ENZYMEMARKS_H
#define ADCORE_ENZYMEMARKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace adcore {

enum class MarkEffect {
  /// The function has no derivative, or the global holds none.
  Inactive,
  /// The function takes the derivative rule of the math function named by
  /// the argument.
  FunctionLike,
  /// The function frees no memory (LLVM's `nofree`).
  NoFree,
  /// The global's shadow is the global named by the argument.
  Shadow,
  /// Guides how Enzyme builds a derivative (what it caches, recomputes or
  /// analyses, how it accumulates); derivatives are the same without it.
  Hint,
};

enum class MarkArgument { None, MathFunction, Global };

struct EnzymeMark {
  /// The attribute's name and the annotation's text (before any `=`).
  const char *Name;
  bool OnFunctions;
  bool OnGlobals;
  MarkArgument Argument;
  MarkEffect Effect;
  /// What it does in adcc, for messages and docs.
  const char *Meaning;
};

/// The number of rows (the frontend registers one attribute a row).
constexpr unsigned NumEnzymeMarks = 9;

llvm::ArrayRef<EnzymeMark> enzymeMarks();

/// The row of \p Name (`enzyme_inactive`, or an annotation's text
/// `enzyme_function_like=log1p`, whose name ends at `=`), or null.
const EnzymeMark *findEnzymeMark(llvm::StringRef Name);

/// Whether \p Name is spelled as an Enzyme mark (`enzyme_...`,
/// `enzyme::...`), known or not.
bool isEnzymeMarkSpelling(llvm::StringRef Name);

/// Turns the `enzyme_*` entries of `llvm.global.annotations` into the
/// registrations CustomRules reads (`__enzyme_inactivefn...`,
/// `__enzyme_inactive_global...`, `__enzyme_function_like...`) or into
/// function attributes, and removes them from the annotations. An unknown
/// or malformed mark is reported (at the annotation's file and line).
/// Returns whether \p M changed.
bool readEnzymeAnnotations(llvm::Module &M);

/// Enzyme's type hints `__enzyme_float(p, size)`, `__enzyme_double`,
/// `__enzyme_integer`, `__enzyme_pointer`: what memory holds, for Enzyme's
/// type analysis. adcc's reads the program itself; the calls (to functions
/// no library defines) are removed. Returns whether \p M changed.
bool dropEnzymeTypeHints(llvm::Module &M);

/// Enzyme's `__enzyme_iter(n, step)`: n in the program, n + step in each
/// derivative made of the function that calls it, once more per level of
/// nesting (a series with more terms for higher derivatives). Called on
/// \p D, a derivative just made from a copy of its primal's code: its
/// calls become `__enzyme_iter(n + step, step)`. Returns whether \p D
/// changed.
bool advanceEnzymeIterations(llvm::Function &D);
/// Replaces every remaining call `__enzyme_iter(n, step)` of \p M by n.
/// Returns whether \p M changed.
bool lowerEnzymeIterations(llvm::Module &M);
/// Removes the declarations of Enzyme's marker variables (`enzyme_dup`,
/// `enzyme_width`, ...) that nothing uses once the requests are lowered.
/// (In device code ptxas warns of an external variable that nothing
/// defines.) Returns whether \p M changed.
bool dropUnusedMarkers(llvm::Module &M);

/// Enzyme's `__enzyme_virtualreverse(table)` gives a shadow object the
/// virtual table (or function pointer) whose entries are derivatives,
/// which Enzyme reads at virtual calls in differentiated code. adcc's
/// derivatives dispatch on the primal object's table and never read a
/// shadow's, so the call is replaced by its argument: the shadow object
/// keeps a valid table of the same class (ShadowTables.cpp). Calls of
/// another shape (not one pointer in, the same out) are left, and reported
/// as not supported. Returns whether \p M changed.
bool replaceShadowTables(llvm::Module &M);

/// What a call to \p Name, a function named `__enzyme_*` (in C, or in C++
/// without `extern "C"`: mangled) that is neither an
/// entry point (EntryPoints.h) nor a type hint, asks of Enzyme ("forward-
/// mode floating-point error estimation"); empty when \p Name is no such
/// function. adcc reports such calls as not supported.
std::string unsupportedEnzymeFunction(llvm::StringRef Name);

/// \p Name without C++ mangling: a function Enzyme's users declare in C++
/// without `extern "C"` (`_Z17__enzyme_autodiffPvz`) has the name of its C
/// declaration.
llvm::StringRef enzymeIdentifier(llvm::StringRef Name);

/// Enzyme's `__enzyme_truncate_op_func(f, from, to)` (and its four-argument
/// form, `from, exponent bits, significand bits`): replaced by a copy of f
/// whose floating-point operations on the `from` type are done in the
/// narrower format, the functions it calls copied alike
/// (TruncatedFunctions.cpp). Calls whose function or formats this cannot
/// do are left, and reported as not supported. Returns whether \p M
/// changed.
bool lowerTruncatedFunctions(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_ENZYMEMARKS_H
