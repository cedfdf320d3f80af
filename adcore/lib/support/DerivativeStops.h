//===- DerivativeStops.h - Where a derivative stops at run time -*- C++ -*-===//
//
// Some code has no derivative adcc can compute, but is reached only for
// some inputs: fdlibm's sin reduces an argument |x| >= 2^20 pi/2 by
// __kernel_rem_pio2, which cuts it into integer pieces (analysis/
// FloatPieces.h), while smaller arguments take paths whose derivatives
// are exact. Refusing the whole function would refuse the paths that
// work; differentiating the cut would give a derivative of 0 there,
// silently. Instead the primal's instruction gets a mark (with the
// message), and every derivative cloned from the primal calls the
// runtime's adcc_derivative_stopped right before its copy: the program
// stops with the message where, and only where, that path runs, before a
// derivative computed through it can be returned. (As Enzyme's runtime
// errors and adcc_unknown_derivative do for calls it cannot follow.)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_DERIVATIVESTOPS_H
#define ADCORE_SUPPORT_DERIVATIVESTOPS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace adcore {

/// Marks \p I, an instruction of a primal, as a point where its
/// derivatives stop the program with \p Message. Returns false where \p I
/// had the mark already.
bool markDerivativeStop(llvm::Instruction &I, llvm::StringRef Message);

/// In \p D, a derivative just cloned from its primal: a call of
/// adcc_derivative_stopped before each marked instruction (the mark then
/// dropped, so that a derivative of \p D stops where \p D does, once).
void emitDerivativeStops(llvm::Function &D);

/// In a forward derivative: after \p Tangent, the tangent of \p Result
/// (one value, or an array of the lanes'), a call of
/// adcc_derivative_stopped with \p Message where \p Result is finite and
/// a lane of \p Tangent is not (the tangent overflowed where the value did
/// not).
void emitTangentOverflowStop(llvm::Instruction &Result, llvm::Value &Tangent,
                             llvm::StringRef Message);

/// Before \p Call, a call through a function pointer of a type that no
/// function of the program has, made in the derivative of \p Function
/// (quoted as in messages): a call of adcc_derivative_stopped with a
/// message located at \p At (file:line:column), where the pointer is
/// called. A path that never calls it (a null callback) is
/// differentiated.
void emitUntargetedCallStop(llvm::CallBase &Call, const llvm::Instruction &At,
                            llvm::StringRef Function);

/// The name of the runtime's function the stops call.
inline constexpr const char *DerivativeStoppedFunction =
    "adcc_derivative_stopped";

} // namespace adcore

#endif // ADCORE_SUPPORT_DERIVATIVESTOPS_H
