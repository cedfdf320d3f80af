//===- analysis/IndirectTargets.h - Functions no derivative calls through a pointer -*- C++ -*-===//
#ifndef ADCORE_ANALYSIS_INDIRECTTARGETS_H
#define ADCORE_ANALYSIS_INDIRECTTARGETS_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace adcore {

/// Marks NotCalledThroughPointers on each address-taken function of \p M
/// that no code reachable from \p Roots (the functions to differentiate) can
/// call through a pointer: its address only reaches helpers that call it,
/// and none of them is reached. possibleCallTargets skips those.
void markUncalledAddresses(llvm::Module &M,
                           llvm::ArrayRef<llvm::Function *> Roots);

/// Removes the marks of markUncalledAddresses.
void clearUncalledAddresses(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_ANALYSIS_INDIRECTTARGETS_H
