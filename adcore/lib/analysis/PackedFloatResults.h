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

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// True when \p F returns a struct that mixes floating-point and integer
/// fields and an integer field holds a float's bits.
bool returnsFloatBitsInIntegerFields(llvm::Function &F);

/// The error for a call of \p Callee (its name as shown) whose result is
/// such a struct.
std::string floatBitsInIntegerFieldsError(llvm::StringRef Callee);

} // namespace adcore

#endif // ADCORE_ANALYSIS_PACKEDFLOATRESULTS_H
