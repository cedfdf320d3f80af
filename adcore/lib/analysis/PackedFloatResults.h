//===- analysis/PackedFloatResults.h - Floats packed in integer fields -*- C++ -*-===//
//
// The x86-64 calling convention returns `struct {int n; float f; double
// v;}` as `{i64, double}`: f travels in the integer word with n. Neither
// emitter follows a derivative through such a field; a call whose result
// does so is an error in both modes (never a silent zero). Defined in
// FloatBitsResults.cpp, beside returnsFloatBits.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_PACKEDFLOATRESULTS_H
#define ADCORE_ANALYSIS_PACKEDFLOATRESULTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class CallBase;
class Value;
class Function;
} // namespace llvm

namespace adcore {

/// True when \p F returns a struct that mixes floating-point and integer
/// fields and an integer field holds a float's bits.
bool returnsFloatBitsInIntegerFields(llvm::Function &F);

/// The error for a call of \p Callee (its name as shown) whose result is
/// such a struct.
std::string floatBitsInIntegerFieldsError(llvm::StringRef Callee);

/// The first integer argument of \p Call that packs the bits of a float
/// \p IsActive says has a derivative beside other bits (`or (shl (zext
/// (bitcast float %f)), 32), n`: `{short n, m; float f;}` by value), or
/// that is a load \p IsActive says is active, or -1. FloatBitArguments.cpp
/// passes the ones it recognizes as floats; the rest would lose the
/// float's derivative without a word.
int packedFloatBitsArgument(
    const llvm::CallBase &Call,
    llvm::function_ref<bool(const llvm::Value *)> IsActive);

/// The error for such an argument \p No (from 0) of a call of \p Callee.
std::string packedFloatBitsArgumentError(llvm::StringRef Callee, unsigned No);

} // namespace adcore

#endif // ADCORE_ANALYSIS_PACKEDFLOATRESULTS_H
