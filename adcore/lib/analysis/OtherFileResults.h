//===- OtherFileResults.h - Pointers other files' functions return -*- C++ -*-//
//
// See OtherFileResults.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_OTHERFILERESULTS_H
#define ADCORE_ANALYSIS_OTHERFILERESULTS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class CallBase;
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// Marks \p M, while its derivatives are made, as a module whose functions
/// without a body get derivatives made at link time (the AD pass with
/// -fadcc-cross-tu), or (\p On false) removes the mark: the IR an object
/// carries has none.
void markBodiesAtLinkTime(llvm::Module &M, bool On);

/// Whether \p Call, of a function of another file whose derivatives are
/// made at link time, returns a pointer into whose memory the calling
/// function stores a value with a derivative (\p IsActive: which values
/// carry one so far).
bool otherFileResultReceivesDerivatives(
    const llvm::CallBase &Call,
    llvm::function_ref<bool(const llvm::Value *)> IsActive);

} // namespace adcore

#endif // ADCORE_ANALYSIS_OTHERFILERESULTS_H
