//===- CheckpointedLoops.h - Annotated loops as checkpointed steps -*- C++ -*-===//
//
// A `for` or `while` loop annotated with ADCC_CHECKPOINT(snapshots[,
// schedule]) or [[adcc::checkpoint(...)]] reaches the IR with a call
// `llvm.annotation(snapshots, "adcc.checkpoint:<schedule>")` at the start
// of its body (frontend/lib/CheckpointAttribute.cpp). At the start of the
// pipeline, before any optimization, this pass turns each such loop into a
// call of adcc_checkpointed_steps (a counted loop) or
// adcc_checkpointed_while (any other) over a step function made of one
// iteration, whose state is the memory of the function's frame that the
// loop writes; CheckpointedCalls.cpp then lowers those calls in
// differentiated code as it lowers calls a program writes itself
// (docs/checkpointing.md).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CHECKPOINTEDLOOPS_H
#define ADCORE_CHECKPOINTEDLOOPS_H

#include "llvm/IR/PassManager.h"

namespace adcore {

/// Outlines the annotated loops of a module; a loop it cannot outline (an
/// early exit, a write to memory it cannot bound for a snapshot) is an
/// error at the annotation.
struct CheckpointedLoopsPass
    : public llvm::PassInfoMixin<CheckpointedLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace adcore

#endif // ADCORE_CHECKPOINTEDLOOPS_H
