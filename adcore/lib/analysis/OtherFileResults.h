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

/// Whether a function of this file, given a pointer as the argument
/// \p ArgNo of \p Call, stores values with derivatives into the memory
/// the pointer reaches or gives it on to another file's function with such
/// values (pointeeReceivesDerivatives in the callee, analysed with the
/// activity of the call's arguments: ActivityAnalysis answers).
using OwnCalleeReceives =
    llvm::function_ref<bool(const llvm::CallBase &Call, unsigned ArgNo)>;

/// Whether \p Call, of a function of another file whose derivatives are
/// made at link time, returns a pointer into whose memory the calling
/// function stores a value with a derivative, directly or through the
/// functions of its file it gives the pointer to (\p IsActive: which
/// values carry one so far; \p Own: what a function of this file does).
bool otherFileResultReceivesDerivatives(
    const llvm::CallBase &Call,
    llvm::function_ref<bool(const llvm::Value *)> IsActive,
    OwnCalleeReceives Own);

/// Whether the function \p Ptr belongs to stores a value with a derivative
/// (\p IsActive) into the memory \p Ptr reaches (two pointers loaded deep),
/// or gives that memory to another file's function with such a value, or
/// to a function of its own file that does (\p Own).
bool pointeeReceivesDerivatives(
    const llvm::Value &Ptr,
    llvm::function_ref<bool(const llvm::Value *)> IsActive,
    OwnCalleeReceives Own);

} // namespace adcore

#endif // ADCORE_ANALYSIS_OTHERFILERESULTS_H
