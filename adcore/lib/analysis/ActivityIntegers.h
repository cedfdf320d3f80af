//===- ActivityIntegers.h - Integers that carry derivatives ----*- C++ -*-===//
//
// What the activity analysis's files share of ActivityIntegers.cpp: which
// integers hold the bits of floats or addresses (private to analysis/).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_ACTIVITYINTEGERS_H
#define ADCORE_ANALYSIS_ACTIVITYINTEGERS_H

namespace llvm {
class AllocaInst;
class Instruction;
class Value;
} // namespace llvm

namespace adcore {

/// An integer that only moves data (loaded and stored again, bitcast to a
/// float, turned into a pointer) may hold a float's or a pointer's bits —
/// what SROA and InstCombine make of memcpy — so it carries a shadow. So
/// does an address changed by integer arithmetic on its way to a pointer,
/// and bits changed by and, or and xor on their way back to a float (which
/// the emitters then differentiate or report, never silently drop), \p
/// Depth operations deep. (An address may also be compared and checked by
/// functions without derivatives on its way: UBSan's pointer-overflow
/// checks.)
bool isMovedInteger(const llvm::Instruction &I, unsigned Depth = 4);

/// The pointer whose address the integer \p X is, offset or aligned by
/// address arithmetic (\p Depth operations deep); null for anything else,
/// and for the distance between two addresses.
const llvm::Value *addressBase(const llvm::Value *X, unsigned Depth);

/// True when a pointer-sized integer read from the local \p AI is made a
/// pointer again, or is copied (\p Depth copies deep) into a local whose
/// integers are: an array of addresses kept as integers, and the variable
/// of a swap between two of its elements (`t = a[i]; a[i] = a[j]; a[j] =
/// t;` of a sort by address).
bool holdsAddresses(const llvm::AllocaInst &AI, unsigned Depth);

} // namespace adcore

#endif // ADCORE_ANALYSIS_ACTIVITYINTEGERS_H
