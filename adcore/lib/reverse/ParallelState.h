//===- ParallelState.h - What the reverse emitter keeps of threads -*- C++ -*-===//
//
// The part of the reverse emitter's state (a base of ReverseEmitter) that
// only parallel code uses: OpenMP forks, tasks, critical sections, the
// run-time checks that keep a region's arrays apart, and the per-thread
// copies of adjoints.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REVERSE_PARALLELSTATE_H
#define ADCORE_REVERSE_PARALLELSTATE_H

#include "analysis/ParallelMemory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ValueHandle.h"

#include <cstdint>
#include <memory>

namespace llvm {
class AllocaInst;
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace adcore {

struct ParallelState {
  // --- OpenMP tasks reversed as tasks (ReverseTasks.cpp) ----------------
  /// A task started in the augmented sweep: its handle, its shadow record,
  /// its source location, the bytes of its record.
  struct TaskSite {
    llvm::Value *Handle = nullptr, *ShadowRecord = nullptr, *Loc = nullptr;
    uint64_t Bytes = 0;
  };
  llvm::DenseMap<llvm::Instruction *, TaskSite> TaskSites;
  llvm::DenseMap<llvm::Instruction *, llvm::Value *> TaskSyncs;
  bool RunsTasks = false, RunsTasksKnown = false;

  // --- run-time overlap checks of a region's arrays (ApartChecks.cpp) ---
  /// A check's values in the augmented sweep: where it is made, the bounds
  /// and the arrays' bases.
  struct ApartValues {
    llvm::WeakTrackingVH At, Lower, Upper;
    llvm::SmallVector<llvm::WeakTrackingVH, 4> Bases;
  };
  llvm::SmallVector<ApartValues, 2> ApartChecksAt;
  llvm::DenseMap<int, llvm::Value *> ApartFlags;

  // --- OpenMP critical sections (CriticalSections.cpp) -----------------
  /// Whether the sections take tickets (planCriticalSections).
  bool OrderedCriticals = false;
  /// The ticket taken before each section's end (augmented sweep).
  llvm::DenseMap<llvm::Instruction *, llvm::Value *> CriticalTickets;

  // --- per-thread adjoints of an OpenMP region (ThreadAdjoints.cpp) -----
  /// The copies of shadows, per object, and the slots of their values.
  llvm::MapVector<const llvm::Value *, llvm::AllocaInst *> ThreadWindows;
  llvm::DenseMap<llvm::Type *, llvm::AllocaInst *> ThreadAdjointValues;

  // --- OpenMP parallel regions (ReverseOpenMP.cpp) ----------------------
  struct ForkSite {
    llvm::Value *Region = nullptr;      ///< the handle, in the augmented sweep
    llvm::Function *Reverse = nullptr;  ///< the reverse region's outlined fn
    llvm::Value *Loc = nullptr;         ///< the fork's source location
  };
  llvm::DenseMap<llvm::Instruction *, ForkSite> ForkSites;
  /// The region's shared memory (sharedMemory(), made once).
  std::unique_ptr<ParallelMemory> SharedMemory;
};

} // namespace adcore

#endif // ADCORE_REVERSE_PARALLELSTATE_H
