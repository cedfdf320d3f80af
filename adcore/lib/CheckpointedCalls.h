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

#include "requests/DeclaredDerivatives.h"
#include "adcore/RequestCollector.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <string>

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

/// Lowers the checkpointed calls in the code that \p Found's requests and
/// \p Declared derivatives differentiate, requests the step functions'
/// derivatives of the modes they need, and registers the derivatives of
/// what the calls become; then does the same for calls in those steps
/// (nested checkpointed loops), and so on. \p Found is collected again
/// when requests were added. Malformed calls are errors at the call.
void lowerCheckpointedCalls(llvm::Module &M, CollectedRequests &Found,
                            llvm::ArrayRef<DeclaredDerivative> Declared,
                            SynthesisContext &Ctx);


} // namespace adcore

#endif // ADCORE_CHECKPOINTEDCALLS_H
