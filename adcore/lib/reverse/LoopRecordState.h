//===- LoopRecordState.h - What the reverse sweep's loops record -*- C++ -*-===//
//
// The part of the reverse emitter's state (a base of ReverseEmitter) that
// keeps the tape small in loops: loops reversed by their trip count,
// records made once at a loop's exits instead of in each iteration
// (InvariantRecords.cpp), trip counts computed before a nest
// (InvariantTrips.cpp) or rebuilt by the reverse sweep (Recompute.cpp),
// per-iteration records kept in arrays (LoopArrays.cpp) and read from them
// again by later loops (ReusedRecords.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REVERSE_LOOPRECORDSTATE_H
#define ADCORE_REVERSE_LOOPRECORDSTATE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Instruction;
class MDNode;
class PHINode;
class Value;
} // namespace llvm

namespace adcore {

struct LoopRecordState {
  /// Loops reversed by their trip count, by header.
  struct CountedLoop {
    llvm::BasicBlock *Entering = nullptr, *Latch = nullptr;
    llvm::PHINode *Count = nullptr;       ///< back edges taken so far
    llvm::AllocaInst *RevCount = nullptr; ///< the reverse sweep's iteration
  };
  llvm::MapVector<llvm::BasicBlock *, CountedLoop> CountedLoops;
  /// Blocks on exit edges of counted loops: the headers whose counts they
  /// record, in push order.
  llvm::MapVector<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      ExitCounts;
  /// Loop-invariant records: per exit block, (loop header, value) in push
  /// order; per instruction, the ones it reads; their reverse-sweep slots.
  llvm::DenseMap<
      llvm::BasicBlock *,
      llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::Value *>, 2>>
      ExitValues;
  /// The size of each exit block's record (0: recorded value by value),
  /// and its tag when the block is outside loops.
  llvm::DenseMap<llvm::BasicBlock *, uint64_t> ExitBytes;
  llvm::DenseMap<llvm::BasicBlock *, llvm::MDNode *> ExitTags;
  llvm::DenseMap<
      llvm::Instruction *,
      llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::Value *>, 2>>
      Hoisted;
  llvm::DenseMap<std::pair<llvm::BasicBlock *, llvm::Value *>,
                 llvm::AllocaInst *>
      HoistSlots;
  /// Per-iteration records kept in arrays: the loop, the array's base and
  /// length (both recorded at the loop's exits), the record's offset.
  struct LoopArray {
    llvm::Value *Base = nullptr, *Length = nullptr;
    /// The bytes of a row: its records at their own size and alignment,
    /// padded to the row's alignment (Align, at most a granule).
    uint64_t Stride = 0, Align = 1;
    /// The frame tag of its push and pop: an array of constant length
    /// pushed outside loops, which a combined gradient keeps in its frame.
    llvm::MDNode *Tag = nullptr;
    /// The multiplications by the stride that address the augmented
    /// sweep's rows (widenLoopArray updates them).
    llvm::SmallVector<llvm::Instruction *, 4> Rows;
  };
  llvm::MapVector<llvm::BasicBlock *, LoopArray> LoopArrays;
  struct ArrayRecord {
    llvm::BasicBlock *Header;
    llvm::Value *V;
    uint64_t Offset;
  };
  llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<ArrayRecord, 2>>
      ArrayRecords;
  /// Exit blocks whose records go into the array of the counted loop
  /// around them (ExitArrays.cpp): that loop's header and the offsets of
  /// the records in its row, in push order.
  struct ExitArray {
    llvm::BasicBlock *Header = nullptr;
    llvm::SmallVector<uint64_t, 4> Offsets;
  };
  llvm::DenseMap<llvm::BasicBlock *, ExitArray> ExitArrays;
  /// Loop-invariant records that an earlier loop's array holds already
  /// (ReusedRecords.cpp): per header of the loop at whose exits the value
  /// would be recorded, the value, the array record that holds it and the
  /// counted loop whose iteration is its row there.
  struct ReusedRecord {
    llvm::Value *V;
    ArrayRecord From;
    llvm::BasicBlock *RowLoop;
  };
  llvm::MapVector<llvm::BasicBlock *, llvm::SmallVector<ReusedRecord, 2>>
      ReusedRecords;
  /// The values recorded at the exits of each counted loop (by header).
  llvm::MapVector<llvm::BasicBlock *, llvm::SetVector<llvm::Value *>>
      InvariantRecords;
  /// The loads the reverse sweep reads again when it enters each counted
  /// loop (by header), into hoistSlot()s: computed outside the loop from
  /// memory nothing writes, the same in every iteration.
  llvm::MapVector<llvm::BasicBlock *, llvm::SetVector<llvm::Value *>>
      EntryReloads;

  // --- trip counts known before a loop nest (InvariantTrips.cpp) -------
  /// Per inner counted loop whose count is the same in every run (header):
  /// the outer loop's header and the count;
  /// per exit block, the loops whose counts it no longer records.
  llvm::DenseMap<llvm::BasicBlock *,
                 std::pair<llvm::BasicBlock *, llvm::Value *>>
      InvariantTrips;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      TripsAt;

  // --- trip counts the reverse sweep rebuilds (planRebuiltTrips) -------
  /// Per inner counted loop whose count the reverse sweep rebuilds
  /// (header), the count (back edges taken) as the augmented
  /// sweep computes it before the loop; per exit block, those loops.
  llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> RebuiltTrips;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      RebuiltTripsAt;
};

} // namespace adcore

#endif // ADCORE_REVERSE_LOOPRECORDSTATE_H
