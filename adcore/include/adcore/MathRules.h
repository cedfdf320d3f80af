//===- adcore/MathRules.h - Derivative rules of math functions -*- C++ -*-===//
//
// One row per math function: libm functions (double and float variants) and
// LLVM math intrinsics (scalar and vector types). A row holds the partial
// derivative of the result with respect to each argument, as a builder of
// IR; forward mode (tangent = sum of partial * argument tangent), reverse
// mode (argument adjoint += partial * result adjoint), batch mode and "which
// primal values the reverse pass needs" are all derived from the row. A row
// whose result is one of its arguments (fmin, fmax) selects the chosen
// argument's tangent instead of summing (MathCombine, MathTerms.cpp).
//
// Adding a function is one row in MathRules.cpp and one row in the
// finite-difference test table (tests/unit/MathRulesTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MATHRULES_H
#define ADCORE_MATHRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace adcore {

/// Builds d(result)/d(argument ArgNo) at the builder's insertion point.
/// \p Args are the primal arguments of the call, \p Result its primal result.
/// All values share the call's floating-point type (scalar or vector), except
/// integer arguments such as powi's or ldexp's exponent. For an intrinsic
/// with a struct result (llvm.frexp), \p Result is the struct or its field 0.
/// Values the row's Uses leaves out are not read, only their types: the
/// caller may pass placeholders (poison) for them. The builder must have an
/// insertion block: some partials call the runtime (adcc_digamma) and insert
/// its declaration into the block's module.
using PartialBuilder = llvm::Value *(*)(llvm::IRBuilderBase &B,
                                        llvm::ArrayRef<llvm::Value *> Args,
                                        llvm::Value *Result);

/// Interval of an argument where the function is differentiable, used by
/// the finite-difference test of every row.
struct SampleDomain {
  double Lo;
  double Hi;
};

/// What the primal needs to keep for the partials to be built later.
enum RuleUses : unsigned {
  UsesNothing = 0,
  UsesArgs = 1,   ///< partials read the primal arguments
  UsesResult = 2, ///< partials read the primal result (exp, sqrt, tan)
};

constexpr unsigned MaxMathArgs = 3;

/// What an argument of a row is. Only Float arguments carry a derivative.
enum class MathArgKind : unsigned char {
  Float,     ///< the call's floating-point type (scalar or vector)
  Int,       ///< C `int`; one per lane in a vector call (ldexp's exponent)
  ScalarInt, ///< C `int`; one for all lanes of a vector call (powi's)
  Long,      ///< C `long` (64 bits on adcc's targets); per lane (scalbln's)
  IntOut,    ///< `int *` written by the libm form (frexp's exponent); the
             ///< intrinsic form has no such argument and returns
             ///< {value, int} instead: the rule is about field 0
};

/// How the partials of a row meet the tangents of its arguments (forward
/// mode) or the adjoint of its result (reverse mode).
enum class MathCombine : unsigned char {
  /// tangent = sum of partial * argument tangent; argument adjoint +=
  /// partial * result adjoint.
  Sum,
  /// The result is one of the arguments (fmin, fmax): each partial is 1
  /// where its argument is the chosen one and 0 elsewhere, and exactly one
  /// argument is chosen. The tangent is the chosen argument's tangent,
  /// selected rather than summed, so that the other's tangent, NaN or
  /// infinite, does not leak through 0 * NaN; the result adjoint goes to
  /// the chosen argument alone.
  Select,
};

struct MathRule {
  /// Canonical double-precision libm name: "sin", "pow", "fma".
  const char *Name;
  /// Number of arguments.
  unsigned NumArgs;
  /// Partial per argument; null for an argument that carries no derivative
  /// (an integer exponent) — its tangent is ignored.
  PartialBuilder Partials[MaxMathArgs];
  /// Where the finite-difference test samples each argument.
  SampleDomain Domains[MaxMathArgs];
  unsigned Uses;
  /// The llvm::Intrinsic::ID of the intrinsic spelling (llvm.sin for "sin"),
  /// 0 if there is none (erf, atanh). Other intrinsics may map to the row too
  /// (llvm.minimum to "fmin"); see mathRuleNames().
  unsigned Intrinsic;
  /// True when libm has no function of this name (powi, fmuladd): only the
  /// intrinsic spelling matches.
  bool IntrinsicOnly = false;
  /// Kind of each argument; Float unless said otherwise.
  MathArgKind ArgKinds[MaxMathArgs] = {};
  MathCombine Combine = MathCombine::Sum;
};

/// A partial of a row and the tangent it multiplies (one lane of it).
struct MathTerm {
  llvm::Value *Partial;
  llvm::Value *Tangent;
};

/// The tangent of the result of a call of \p Rule, from one term per
/// argument that has a tangent (at least one): their sum of products, or
/// for a Select row the tangent of the argument whose partial is not 0 (0
/// when that argument has no term).
llvm::Value *mathTangent(llvm::IRBuilderBase &B, const MathRule &Rule,
                         llvm::ArrayRef<MathTerm> Terms);

/// What the adjoint \p Adjoint of the result of a call of \p Rule adds to
/// the adjoint of an argument whose partial is \p Partial: their product,
/// or for a Select row \p Adjoint where the partial is not 0 and 0
/// elsewhere.
llvm::Value *mathAdjoint(llvm::IRBuilderBase &B, const MathRule &Rule,
                         llvm::Value *Partial, llvm::Value *Adjoint);

/// All rows, for tests and documentation.
llvm::ArrayRef<MathRule> mathRules();

/// The rule of \p Callee when it is a math function adcc knows: a libm name
/// (`sin`, `sinf`), or an LLVM intrinsic (`llvm.sin.f64`,
/// `llvm.sin.v4f32`). Null otherwise. A libm name matches only with external
/// linkage and the expected type (mathRuleLibmType), so a user's `int
/// sin(int)` is not misread; an intrinsic only on float, double, a fixed
/// vector of them, or a scalar long double (`llvm.sin.f80`,
/// `llvm.sin.f128`). `sinl` matches with the target's long double. Half
/// types are not supported: null.
const MathRule *findMathRule(const llvm::Function &Callee);

/// The rule named \p Name (canonical, float or long double variant: "sin",
/// "sinf", "sinl").
const MathRule *findMathRule(llvm::StringRef Name);

/// Whether argument \p ArgNo of \p Rule carries a derivative: false for an
/// integer or pointer argument (powi's exponent), whose partial is null.
bool isDifferentiableArg(const MathRule &Rule, unsigned ArgNo);

/// The type findMathRule expects of the libm spelling of \p Rule whose
/// floating-point type is \p FPTy (double: "sin", float: "sinf", long
/// double: "sinl"). Null when the row has no libm spelling or \p FPTy is not
/// float, double, x86_fp80 or fp128.
llvm::FunctionType *mathRuleLibmType(const MathRule &Rule, llvm::Type *FPTy);

/// Every name findMathRule accepts for \p Rule: the libm names (double, then
/// float) and the base names of the intrinsics ("llvm.sin"; calls add type
/// suffixes, "llvm.sin.f64", "llvm.sin.v4f32").
std::vector<std::string> mathRuleNames(const MathRule &Rule);

} // namespace adcore

#endif // ADCORE_MATHRULES_H
