//===- DivisorReciprocal.h - 1 / b for the derivatives of a / b -*- C++ -*-===//
//
// The derivatives of q = a / b divide by b: da / b, and
// (q db) / b or (d q) / b for the divisor. They multiply by one reciprocal
// of b instead, shared by every lane and (once CSE'd) every quotient with
// the same divisor. For a divisor below 2^-1024 (a double subnormal,
// openlibm's cbrt(1e-310) dividing by x) 1 / b is inf, and a zero adjoint
// times it NaN, though d / b is 0: the reciprocal is taken of b scaled up
// by 2^64 there and the product chosen scaled back (a select), so a
// quotient of derivatives is the division's wherever the division's is
// finite (until 2026-12-07 cbrt's reverse derivative at 1e-310 was NaN).
// Reverse mode only: in forward mode the test and select on every quotient
// made LSTM's tangent 18 % slower, and a tangent past the doubles is
// retried with smaller seeds there (forward/ScaledSeeds.h).
//
// A divisor that the primal computes so that it is zero or above the
// tested magnitude (an integer converted, 1 + exp(-v), 2 + a sum of
// exponentials) never takes the scaled branch: its reciprocal is plain
// (the test and selects cost LSTM's gradient 4 % of its instructions).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_DIVISORRECIPROCAL_H
#define ADCORE_SUPPORT_DIVISORRECIPROCAL_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// A divisor's reciprocal for the derivatives of its quotients.
struct DivisorReciprocal {
  llvm::Value *Divisor = nullptr;
  /// 1 / (b s); null for a constant divisor (divided by).
  llvm::Value *Reciprocal = nullptr;
  /// Whether |b| is tiny (s = 2^64, else 1); null where not needed.
  llvm::Value *Scale = nullptr;
};

/// The reciprocal of \p Divisor, made at \p B's point. \p Primal: the
/// primal value \p Divisor stands for, where known (see neverTinyDivisor).
DivisorReciprocal reciprocalOf(llvm::IRBuilderBase &B, llvm::Value *Divisor,
                               const llvm::Value *Primal = nullptr);

/// Whether the primal value \p V is, in every lane, zero, NaN or at least
/// the magnitude below which reciprocalOf scales, by the way it is
/// computed: a division by it needs no scaled reciprocal.
bool neverTinyDivisor(const llvm::Value *V);

/// \p N divided by the divisor of \p R (a lane of it where \p N is a lane).
llvm::Value *divideBy(llvm::IRBuilderBase &B, const DivisorReciprocal &R,
                      llvm::Value *N);

} // namespace adcore

#endif // ADCORE_SUPPORT_DIVISORRECIPROCAL_H
