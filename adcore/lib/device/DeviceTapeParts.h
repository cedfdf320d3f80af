//===- device/DeviceTapeParts.h - Pieces of the device tape -----*- C++ -*-===//
//
// What DeviceTape.cpp (the tape in a frame or a slot) and FrameReserve.cpp
// (records of run-time count in a frame: the check at each push, its
// located failure, the reserve shared down a recursion) have in common.
// Internal to device/.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DEVICE_DEVICETAPEPARTS_H
#define ADCORE_DEVICE_DEVICETAPEPARTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <cstdint>
#include <optional>

namespace adcore {

class SynthesisContext;

namespace devtape {

/// Every record starts at a multiple of this, as the runtime's do.
constexpr uint64_t RecordAlign = 16;
/// A slot's (or a shared tape's) header: the 64-bit offset of its top.
constexpr uint64_t SlotHeader = 16;

/// "tape of unknown size in device code: the two sweeps do not run in one
/// function here ...".
extern const char *const SeparateSweeps;

/// The tape of one function: its pushes and pops and the bytes they need.
struct FrameTape {
  llvm::SmallVector<llvm::CallInst *, 8> Pushes, Pops, Threads;
  /// The bytes of the pushes whose bound is known.
  uint64_t Bytes = 0;
  /// The first push whose trips are unknown (the record's own size is
  /// bounded: a slot can take it), the largest such record.
  llvm::CallInst *Unbounded = nullptr;
  uint64_t LargestUnbounded = 0;
  /// The first push whose record's own size is unknown.
  llvm::CallInst *UnknownRecord = nullptr;
};

/// What a push past the capacity of a buffer does, emitted at \p B (in a
/// block of its own, which ends unreachable): \p Push is the record.
using OverflowFn =
    llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::CallInst &Push)>;

/// Replaces \p T's pushes and pops by bumps of the 64-bit offset at \p Top
/// into the records that \p Records gives (at the call), each record
/// rounded up to RecordAlign, and drops the unused thread-tape queries.
/// With a \p Capacity, a push that ends past it gets the records' start,
/// or, with \p Overflow, runs that instead.
void bumpOffsets(FrameTape &T, llvm::Value *Top,
                 llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &)> Records,
                 std::optional<uint64_t> Capacity = std::nullopt,
                 OverflowFn Overflow = nullptr);

/// The bytes a slot keeps for records of unknown size: the module's
/// `adcc_device_tape_bytes` (a constant integer), else 8192 bytes.
uint64_t slotReserve(const llvm::Module &M);

/// The overflow of a tape in a frame at the record \p Push (a block that
/// ends unreachable, at \p B): the target's assertion failure with the
/// record's file, line and \p Function, then a trap (FrameReserve.cpp).
void emitFrameOverflow(llvm::IRBuilder<> &B, llvm::CallInst &Push,
                       uint64_t Capacity, uint64_t Reserve,
                       llvm::StringRef Function);

/// A function whose tape records are pushed or popped, not both: a sweep
/// of a recursive function (its augmented sweep or its reverse sweep).
struct ApartSweep {
  llvm::Function *F;
  FrameTape T;
};

/// Gives the sweeps \p Apart one tape in the frame of each function that
/// calls them without being one and runs both (FrameReserve.cpp); false
/// after an error, where one is called otherwise, or from a function of
/// \p SplitSweeps (split mode: its two halves run apart).
bool shareApartTapes(
    SynthesisContext &Ctx, llvm::MutableArrayRef<ApartSweep> Apart,
    const llvm::SmallPtrSetImpl<const llvm::Function *> &SplitSweeps);

} // namespace devtape
} // namespace adcore

#endif // ADCORE_DEVICE_DEVICETAPEPARTS_H
