//===- support/SlotValues.h - What a local slot written once holds -*- C++ -*-===//
//
// At -O0 every variable lives in a stack slot: a pointer parameter is
// stored once into its slot and loaded wherever it is used. The analyses
// that look through such variables ask here for the value a slot holds.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SLOTVALUES_H
#define ADCORE_SUPPORT_SLOTVALUES_H

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// The value of the only store into the local slot \p Slot (through
/// pointer casts), whose other uses are loads (a pointer variable at -O0),
/// or null.
const llvm::Value *onlyStoredValue(const llvm::Value *Slot);

} // namespace adcore

#endif // ADCORE_SUPPORT_SLOTVALUES_H
