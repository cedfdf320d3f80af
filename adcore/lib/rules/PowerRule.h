//===- PowerRule.h - Products of powers of one value (private) -*- C++ -*-===//
//
// `0.01 * u * u * u` reaches the derivatives as a chain of products, each
// differentiated by the product rule: d(a b) = da b + a db, twice the
// multiplications of the primal. When both factors of a product are
// powers of the same value x (x itself, x times constants, negations and
// products of such), the product is k x^n and its derivative n k x^(n-1)
// dx is one existing factor times a constant: for a = k_a x^(n-1) and
// b = k_b x, d(a b) / dx = n k_b a.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_POWERRULE_H
#define ADCORE_POWERRULE_H

#include "llvm/IR/Value.h"

#include <optional>

namespace adcore {

/// d(A * B) / dX = Factor * Other, where Other is A or B.
struct PowerRule {
  llvm::Value *X;
  llvm::Value *Other;
  double Factor;
};

/// The power rule for the product \p A * \p B, when both are powers of the
/// same value (through fneg, products with constants and products of such)
/// and one of them has degree 1. (`x * x` gives X = x, Other = x, 2.)
std::optional<PowerRule> powerRule(llvm::Value *A, llvm::Value *B);

} // namespace adcore

#endif // ADCORE_POWERRULE_H
