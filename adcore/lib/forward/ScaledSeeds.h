//===- ScaledSeeds.h - A tangent retried with smaller seeds -----*- C++ -*-===//
//
// A forward derivative is linear in its seeds. Where an intermediate
// tangent passes the doubles though the result's does not (openlibm's
// cbrt of a subnormal x: its Newton step's quotient has the derivative
// 1 / (3x) ~ 2^1026 at x = 1e-310, the result's is 1.5e206), the tangent
// comes back inf or NaN. The derivative of a function that reads no memory
// but its own and has only scalar parameters is then computed again with
// its seeds scaled by 2^-512 (2^-64 for float), and the result scaled
// back, which powers of two do exactly (but for tangents that the smaller
// seed takes into the subnormals). Done for the functions on floats' bits
// only (math libraries, where a subnormal is normalized by its bits and
// scales span the exponent range): elsewhere the derivative stays one
// function.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_FORWARD_SCALEDSEEDS_H
#define ADCORE_FORWARD_SCALEDSEEDS_H

#include "adcore/Derivative.h"

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// Where \p D, the forward derivative of \p Key, qualifies: moves its body
/// into a new function and makes \p D call it, again with scaled seeds
/// where the tangent it returns is not finite. Returns the new function,
/// or null where \p D is left as it is.
llvm::Function *retryWithScaledSeeds(llvm::Function &D,
                                     const DerivativeKey &Key);

} // namespace adcore

#endif // ADCORE_FORWARD_SCALEDSEEDS_H
