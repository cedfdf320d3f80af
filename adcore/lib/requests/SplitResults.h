//===- SplitResults.h - What split mode's entry points return --*- C++ -*-===//
//
// __enzyme_augmentfwd returns, as Enzyme does, {void *tape, result,
// shadow}, each field where it exists, or the tape alone; the tape goes
// into the caller's buffer instead with enzyme_tape. A result declared
// {result, void *tape} (as some of Enzyme's programs do) gets that order
// when the result holds no pointer. __enzyme_augmentsize
// is the size of that tape: adcc's records stay on the runtime's tape and
// the caller keeps a handle. Split forward mode's records are the
// runtime's too (adcc_fwdsplit_new): the handle is their address.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SPLITRESULTS_H
#define ADCORE_SPLITRESULTS_H

#include "adcore/Derivative.h"

#include "llvm/IR/IRBuilder.h"

#include <string>

namespace adcore {

/// Replaces the uses of the __enzyme_augmentfwd call \p Call (or stores
/// into its hidden result pointer \p SRet) by \p Handle, the handle of the
/// augmented sweep that just ran (adcc_split_mark, or _level for a nested
/// one), and \p Result, the augmented sweep's result (null: none,
/// enzyme_noret); the handle goes into \p TapeBuffer when there is one.
/// False, with \p Error set, when the declared result does not fit;
/// \p Primal names the function in it.
bool emitAugmentResult(llvm::IRBuilder<> &B, llvm::CallBase &Call,
                       llvm::Value *SRet, llvm::Value *Handle,
                       llvm::Value *Result, llvm::Value *TapeBuffer,
                       llvm::StringRef Primal, std::string &Error);

/// The size of a tape handle: what __enzyme_augmentsize returns.
unsigned tapeHandleSize(const llvm::Module &M);

/// Split forward mode: the key of the tangent sweep (and of its recording
/// sweep) that a request with the parsed key \p Parsed uses. Both calls
/// must name the same sweeps, so the key is made the same from
/// __enzyme_augmentfwd's arguments (a floating-point one active) and
/// __enzyme_fwdsplit's (with its tangent): a floating-point or duplicated
/// argument has a tangent, and the sweep returns {primal, tangent} of a
/// result whatever the call wants of it.
DerivativeKey forwardSplitKey(const DerivativeKey &Parsed);

/// The tag of the records of \p Key's sweeps: "function:activities:width"
/// (c constant, d with a tangent), which the runtime compares.
std::string forwardSplitTag(const DerivativeKey &Key);

} // namespace adcore

#endif // ADCORE_SPLITRESULTS_H
