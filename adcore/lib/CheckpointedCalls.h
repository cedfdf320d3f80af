//===- CheckpointedCalls.h - Checkpointed loops and fixed points -*- C++ -*-===//
//
// adcc_checkpointed_steps, adcc_checkpointed_while and adcc_fixed_point
// (<adcc_checkpoint.h>) run a step function over a state. In code that is
// differentiated, each call becomes a call of a function made for its step
// function, whose registered derivatives (CustomRules) hand the runtime the
// step's own derivatives, requested here with Enzyme's entry points.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CHECKPOINTEDCALLS_H
#define ADCORE_CHECKPOINTEDCALLS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace adcore {

class SynthesisContext;

/// The functions \p F may run: itself and, transitively, its callees
/// (ADPass.cpp).
llvm::SmallPtrSet<const llvm::Function *, 16>
reachableFrom(llvm::Function &F);

/// Lowers the checkpointed calls in \p Differentiated (the functions that
/// derivatives are made of) and registers the derivatives of what they
/// become; malformed calls are errors at the call. Returns whether it added
/// derivative requests (the module's requests are then collected again).
bool lowerCheckpointedCalls(
    llvm::Module &M,
    const llvm::SmallPtrSetImpl<const llvm::Function *> &Differentiated,
    SynthesisContext &Ctx);

} // namespace adcore

#endif // ADCORE_CHECKPOINTEDCALLS_H
