//===- CheckpointedHeap.h - Heap blocks in a checkpointed state -*- C++ -*-===//
//
// The copies of a heap block into the state of a loop marked
// ADCC_CHECKPOINT and back (CheckpointedLoops.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CHECKPOINTEDHEAP_H
#define ADCORE_CHECKPOINTEDHEAP_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// The bytes \p Alloc (malloc, calloc, aligned_alloc, new[]) allocates.
llvm::Value *allocatedBytes(llvm::IRBuilder<> &B, llvm::CallBase &Alloc);

/// Copies \p Bytes of the heap block that the pointer variable \p Var
/// points to, from \p Src to \p Dst (one of them the block): as its
/// floating-point elements when the program accesses it so, else bytes.
void copyHeapBlock(llvm::IRBuilder<> &B, llvm::AllocaInst &Var,
                   llvm::Value *Dst, llvm::Value *Src, llvm::Value *Bytes);

} // namespace adcore

#endif // ADCORE_CHECKPOINTEDHEAP_H
