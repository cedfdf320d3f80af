//===- adcore/EntryPoints.h - Enzyme-compatible entry points --*- C++ -*-===//
//
// Code written for Enzyme requests derivatives by calling functions whose
// names contain `__enzyme_autodiff`, `__enzyme_fwddiff`, ... (the user
// declares them with any suffix and signature). This table maps a callee name
// to the kind of request it makes.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ENTRYPOINTS_H
#define ADCORE_ENTRYPOINTS_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace adcore {

/// What a derivative request asks for.
enum class RequestKind {
  Forward,          ///< __enzyme_fwddiff: tangents in one forward sweep.
  ForwardSplit,     ///< __enzyme_fwdsplit: forward mode with a given tape.
  Reverse,          ///< __enzyme_autodiff: combined forward+reverse sweep.
  AugmentedForward, ///< __enzyme_augmentfwd: forward sweep that records.
  SplitReverse,     ///< __enzyme_reverse: reverse sweep from a tape.
  AugmentSize,      ///< __enzyme_augmentsize: tape size of a split pair.
  Batch,            ///< __enzyme_batch: the primal on N inputs at once.
  ErrorEstimate,    ///< __enzyme_error_estimate: forward mode propagating
                    ///< floating-point error estimates.
};

/// The user-facing spelling of \p Kind, e.g. "forward mode".
llvm::StringRef describe(RequestKind Kind);

/// The Enzyme entry point name for \p Kind, e.g. "__enzyme_fwddiff".
llvm::StringRef entryPointName(RequestKind Kind);

/// Classifies a callee name: the kind of request a call to it makes, or
/// nothing when the name is not an entry point. Names are matched by
/// substring, as Enzyme does, so `__enzyme_autodiff_vec` is a reverse-mode
/// request.
std::optional<RequestKind> classifyEntryPoint(llvm::StringRef CalleeName);

} // namespace adcore

#endif // ADCORE_ENTRYPOINTS_H
