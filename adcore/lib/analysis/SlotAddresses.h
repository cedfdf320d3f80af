//===- analysis/SlotAddresses.h - Addresses into a stack slot -*- C++ -*-===//
//
// The addresses into a slot that a walk over its uses finds (CleanSlots.cpp,
// InactiveSlotWrites.cpp), with the local variables that hold only such
// addresses (at -O0 a parameter's own, `this.addr`): what is loaded from
// one of those is an address into the slot too.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_SLOTADDRESSES_H
#define ADCORE_ANALYSIS_SLOTADDRESSES_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

namespace adcore {

class SlotAddresses {
public:
  /// The store \p SI of an address into the slot as its value: followed
  /// where it goes into a local variable that is only loaded and stored
  /// (its loads, new addresses, are added to \p Work); false where the
  /// address escapes.
  bool followHolderStore(const llvm::StoreInst &SI,
                         llvm::SmallVectorImpl<const llvm::Value *> &Work);
  /// The uses every walk treats alike: an address derived from one in the
  /// slot (a GEP, cast, phi or select; added to \p Work), a load from the
  /// slot (followLoad), a comparison (nothing to do). False for any other
  /// user, which the walk decides.
  bool followCommonUse(const llvm::User &U, bool HoldsOwnAddress,
                       llvm::SmallVectorImpl<const llvm::Value *> &Work);
  /// A load \p LI from the slot: where the slot holds its own address
  /// (\p HoldsOwnAddress: Eigen's blocking space, a std::string's local
  /// buffer), a pointer read from it may address the slot too, and is
  /// followed (added to \p Work).
  void followLoad(const llvm::LoadInst &LI, bool HoldsOwnAddress,
                  llvm::SmallVectorImpl<const llvm::Value *> &Work);
  /// Whether every value stored into the holding variables is an address
  /// into the slot (asked once the walk is done).
  bool holdersHoldOnlyAddresses() const;

  llvm::SmallPtrSet<const llvm::Value *, 16> Addresses;

private:
  llvm::SmallPtrSet<const llvm::AllocaInst *, 4> Holders;
};

} // namespace adcore

#endif // ADCORE_ANALYSIS_SLOTADDRESSES_H
