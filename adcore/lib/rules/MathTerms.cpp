//===- MathTerms.cpp - Partials of a math call meet its tangents ----------===//
//
// A row's partials become a tangent (forward mode) or argument adjoints
// (reverse mode) here, by the row's MathCombine:
//
//   Sum     t = p0 t0 + p1 t1 + ...         a_k += p_k a
//   Select  t = p1 != 0 ? t1 : p0 != 0 ? t0 : 0
//                                           a_k += p_k != 0 ? a : 0
//
// Select is for rows whose result is one of the arguments (fmin, fmax):
// their partials are indicators, and the sum would turn the tangent of the
// argument not chosen, NaN or infinite, into 0 * NaN = NaN. The select also
// keeps the sign of a zero tangent, which + 0 would not.
//
//===----------------------------------------------------------------------===//

#include "adcore/MathRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace adcore {
namespace {

/// A partial the rule makes a constant 0 (a zero vector too).
bool isStructuralZero(Value *Partial) {
  auto *C = dyn_cast<Constant>(Partial);
  return C && C->isZeroValue();
}

Value *isChosen(IRBuilderBase &B, Value *Partial) {
  return B.CreateFCmpONE(Partial, Constant::getNullValue(Partial->getType()));
}

} // namespace

Value *mathTangent(IRBuilderBase &B, const MathRule &Rule,
                   ArrayRef<MathTerm> Terms) {
  Value *T = nullptr;
  if (Rule.Combine == MathCombine::Select) {
    for (const MathTerm &Term : Terms) {
      Value *Else = T ? T : Constant::getNullValue(Term.Tangent->getType());
      T = B.CreateSelect(isChosen(B, Term.Partial), Term.Tangent, Else);
    }
    return T;
  }
  for (const MathTerm &Term : Terms) {
    // (A partial that is 0 by the rule (floor's, copysign's in its sign)
    // adds nothing, whatever the tangent: an infinite one times it was
    // NaN.)
    if (isStructuralZero(Term.Partial))
      continue;
    Value *Product = B.CreateFMul(Term.Partial, Term.Tangent);
    T = T ? B.CreateFAdd(T, Product) : Product;
  }
  return T ? T
           : Constant::getNullValue(Terms.empty()
                                        ? B.getDoubleTy()
                                        : Terms.front().Tangent->getType());
}

Value *mathAdjoint(IRBuilderBase &B, const MathRule &Rule, Value *Partial,
                   Value *Adjoint) {
  if (Rule.Combine == MathCombine::Select)
    return B.CreateSelect(isChosen(B, Partial), Adjoint,
                          Constant::getNullValue(Adjoint->getType()));
  // (As in mathTangent: openlibm's sinh past 709.78, `h * 2.0 * r` with
  // h = copysign(0.5, x), gave h the adjoint 2r = inf, and x NaN through
  // copysign's partial 0 in its sign, until 2026-12-07.)
  if (isStructuralZero(Partial))
    return Constant::getNullValue(Adjoint->getType());
  return B.CreateFMul(Adjoint, Partial);
}

} // namespace adcore
