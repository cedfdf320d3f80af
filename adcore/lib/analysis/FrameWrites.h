//===- FrameWrites.h - What a region of a function writes ------*- C++ -*-===//
//
// For a region of a function F (the blocks of a loop), which memory its
// instructions and the functions they call may write: the allocas of F's
// frame (with the instructions of the region that write each), global
// variables, heap blocks that a local pointer variable of F holds (the one
// block malloc/calloc/new[] returned outside the region, the variable
// unchanged by the region), or memory the analysis cannot bound (reached
// through another pointer loaded from memory, an argument of F, a call
// through a pointer), which is reported with the instruction of the region
// responsible. Memory a
// callee allocates (its frame, the heap it allocates) is its own. Used by
// the outlining of checkpointed loops (CheckpointedLoops.cpp): the
// snapshots hold the frame memory the loop writes.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_FRAMEWRITES_H
#define ADCORE_ANALYSIS_FRAMEWRITES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class AllocaInst;
class BasicBlock;
class CallBase;
class Function;
class GlobalVariable;
class Instruction;
} // namespace llvm

namespace adcore {

struct FrameWrites {
  /// The static allocas of F the region writes, each with the
  /// instructions of the region that write it (a store, or a call whose
  /// callee does).
  llvm::DenseMap<llvm::AllocaInst *, llvm::SmallVector<llvm::Instruction *, 2>>
      Allocas;
  llvm::SmallPtrSet<llvm::GlobalVariable *, 4> Globals;
  /// The heap blocks the region writes: the local pointer variable (the
  /// alloca) that holds each, with the allocation call.
  llvm::MapVector<llvm::AllocaInst *, llvm::CallBase *> HeapBlocks;
  /// Set when the region writes memory that cannot be bounded, or keeps
  /// the address of F's frame memory in memory: the instruction of the
  /// region responsible and why.
  llvm::Instruction *Unbounded = nullptr;
  std::string Why;
};

/// The writes of \p Blocks (blocks of \p F), the functions they call
/// included.
FrameWrites findFrameWrites(llvm::Function &F,
                            llvm::ArrayRef<llvm::BasicBlock *> Blocks);

} // namespace adcore

#endif // ADCORE_ANALYSIS_FRAMEWRITES_H
