//===- FloatsReadFromBits.h - Floats read out of an integer -*- C++ -*-===//
//
// A float read out of the bits of a wider integer, `bitcast (trunc (lshr
// (load i64 %p), 32)) to float` (a union {float f[2]; long l;} loaded as
// one i64 that the program also uses as an integer), has a derivative
// neither emitter follows where the loaded integer has no floating-point
// view (reverse/IntegerCopies.cpp) or tangent of its own. Both emitters
// ask it of an integer loaded from memory with a shadow: the derivative
// would be lost without a word, so the load is an error.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_FLOATSREADFROMBITS_H
#define ADCORE_SUPPORT_FLOATSREADFROMBITS_H

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// The error for such a load.
inline constexpr const char *FloatsInIntegerBitsError =
    "floating-point values are read out of the bits of an integer that is "
    "also used as an integer (a union of floats and an integer loaded "
    "whole); their derivatives cannot be followed; read the floats and the "
    "integer through separate loads of their members";

/// True when a floating-point value is made of the bits of the integer
/// \p V: a bitcast of it, or of its truncations, extensions, right shifts
/// by a constant and casts between integer types (at most \p Depth).
bool floatsReadFromBits(const llvm::Value *V, unsigned Depth = 4);

} // namespace adcore

#endif // ADCORE_SUPPORT_FLOATSREADFROMBITS_H
