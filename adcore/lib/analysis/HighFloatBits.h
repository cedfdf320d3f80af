//===- HighFloatBits.h - Integers from the high bits of floats --*- C++ -*-===//
//
// fdlibm builds the high part of a number from the high word of another,
// its low word zero (pow's `SET_HIGH_WORD(t_h, ((ix >> 1) | 0x20000000) +
// 0x00080000 + (k << 18))`, the high part of ax + bp[k]): its value moves
// only when the high word of ax does, every 2^32 units in ax's last place,
// so it is a step function of ax, with a derivative of 0 between its steps
// (as floor's); the program carries ax's derivative in the other part,
// computed as a float (`t_l = ax - (t_h - bp[k])`).
//
// dependsOnHighFloatBits says whether an integer depends on floats' bits
// only through the upper half of their significands and above: a
// backward walk of the bits that matter (shifts, masks, extensions and
// truncations by their constants; additions and products from the lowest
// bit up to the highest that matters; phis with the conditions of the
// branches that choose their values), down to the casts of floats.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_HIGHFLOATBITS_H
#define ADCORE_HIGHFLOATBITS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// Whether the integer \p Int is computed from the bits of at least one
/// float (double or float) and depends on none of their significands' lower
/// halves (those floats are added to \p Floats); false where that is not
/// known.
bool dependsOnHighFloatBits(llvm::Value *Int,
                            llvm::SmallPtrSetImpl<llvm::Value *> &Floats);

} // namespace adcore

#endif // ADCORE_HIGHFLOATBITS_H
