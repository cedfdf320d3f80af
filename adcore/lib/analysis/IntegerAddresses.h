//===- analysis/IntegerAddresses.h - Pointers without shadows ---*- C++ -*-===//
//
// A pointer made from an integer (`(double *)u`, an inttoptr) has the
// integer's shadow as its own when the activity analysis gives the integer
// one (an address moved or offset as an integer). Where it gives none, a
// floating-point value read or written through the pointer would have no
// derivative, and the derivative would be wrong without a word if the
// memory has derivatives: so each such access is found here, and reported
// as an error, when the integer may hold the address of memory with
// derivatives, that is when it comes (through integer arithmetic, casts,
// phis and selects) from such an address, from memory, from a parameter or
// from a call of a function that may have derivatives. An integer made
// only of constants and of the addresses of memory without derivatives (a
// constant table), or returned by a function declared inactive, holds no
// such address.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_INTEGERADDRESSES_H
#define ADCORE_INTEGERADDRESSES_H

namespace llvm {
class Function;
class Instruction;
class MemTransferInst;
} // namespace llvm

namespace adcore {

class ActivityAnalysis;

/// The first load or store of a floating-point value in \p F through a
/// pointer made from an integer without a shadow that may hold the address
/// of memory with derivatives (\p Activity, of \p F); null where there is
/// none.
const llvm::Instruction *
shadowlessIntegerAccess(const llvm::Function &F,
                        const ActivityAnalysis &Activity);

/// The error for such an access.
extern const char *const ShadowlessIntegerAccessError;

/// True when \p Copy, a copy of integers only (the type analysis says), may
/// move addresses kept as integers: its elements may be pointer-sized and
/// aligned (`std::move_backward` of `uintptr_t`, a `memmove` in
/// `std::sort`'s insertion sort at -O0, where nothing in the library's
/// function says the integers are addresses). Where both sides have
/// shadows, they move with the integers: they hold the shadows' addresses.
bool mayCopyIntegerAddresses(const llvm::MemTransferInst &Copy);

} // namespace adcore

#endif // ADCORE_INTEGERADDRESSES_H
