//===- adcore/MathRules.h - Derivative rules of math functions -*- C++ -*-===//
//
// One row per math function: libm functions (double and float variants) and
// LLVM math intrinsics (scalar and vector types). A row holds the partial
// derivative of the result with respect to each argument, as a builder of
// IR; forward mode (tangent = sum of partial * argument tangent), reverse
// mode (argument adjoint += partial * result adjoint), batch mode and "which
// primal values the reverse pass needs" are all derived from the row.
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
  IntOut,    ///< `int *` written by the libm form (frexp's exponent); the
             ///< intrinsic form has no such argument and returns
             ///< {value, int} instead: the rule is about field 0
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
};

/// All rows, for tests and documentation.
llvm::ArrayRef<MathRule> mathRules();

/// The rule of \p Callee when it is a math function adcc knows: a libm name
/// (`sin`, `sinf`), or an LLVM intrinsic (`llvm.sin.f64`,
/// `llvm.sin.v4f32`). Null otherwise. A libm name matches only with external
/// linkage and the expected type (mathRuleLibmType), so a user's `int
/// sin(int)` is not misread; an intrinsic only on float, double or a fixed
/// vector of them. `long double` (`sinl`, `llvm.sin.f80`) and half types are
/// not supported: null.
const MathRule *findMathRule(const llvm::Function &Callee);

/// The rule named \p Name (canonical or float variant: "sin", "sinf").
const MathRule *findMathRule(llvm::StringRef Name);

/// Whether argument \p ArgNo of \p Rule carries a derivative: false for an
/// integer or pointer argument (powi's exponent), whose partial is null.
bool isDifferentiableArg(const MathRule &Rule, unsigned ArgNo);

/// The type findMathRule expects of the libm spelling of \p Rule whose
/// floating-point type is \p FPTy (double: "sin", float: "sinf"). Null when
/// the row has no libm spelling or \p FPTy is neither float nor double.
llvm::FunctionType *mathRuleLibmType(const MathRule &Rule, llvm::Type *FPTy);

/// Every name findMathRule accepts for \p Rule: the libm names (double, then
/// float) and the base names of the intrinsics ("llvm.sin"; calls add type
/// suffixes, "llvm.sin.f64", "llvm.sin.v4f32").
std::vector<std::string> mathRuleNames(const MathRule &Rule);

} // namespace adcore

#endif // ADCORE_MATHRULES_H
