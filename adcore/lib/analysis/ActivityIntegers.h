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
class LoadInst;
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

/// True when \p LI reads an integer field of a global variable whose
/// declared type says it holds an integer there: a member of named structs
/// (none a union: a union's IR type names one member) and arrays, the load
/// within the field (a generator's state beside a double, KANN's
/// `kad_rng_t {uint64_t s[2]; double n_gset; ...}`). The bits of no float
/// are there: the global's shadow holds none for it.
bool readsDeclaredIntegerField(const llvm::LoadInst &LI);

/// True when \p LI reads an integer by an integer access type (its TBAA
/// names `long`, `unsigned int`, ...: not `char`, which may read anything)
/// and the value, through phis, selects and bitwise operations, is rotated,
/// byte-swapped or bit-reversed: a generator's or a hash's state (KANN's
/// xoroshiro128+ through a `void *` to its state), never a float's bits,
/// which a program reads by such an access type only against C's aliasing
/// rules, nor an address.
bool readsRotatedIntegerState(const llvm::LoadInst &LI);

} // namespace adcore

#endif // ADCORE_ANALYSIS_ACTIVITYINTEGERS_H
