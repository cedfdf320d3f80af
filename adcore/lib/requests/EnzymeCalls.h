//===- requests/EnzymeCalls.h - Lowering Enzyme-style requests --*- C++ -*-===//
//
// A call such as
//   __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, n)
// names the function, then for each of its parameters an optional activity
// marker followed by the primal value and, for duplicated arguments, its
// shadow(s). Markers are the globals `enzyme_dup`, `enzyme_const`, ...
// (declared by the user as `int enzyme_dup;`); defaults apply without one:
// integers are constant, floats and pointers duplicated. Global markers —
// `enzyme_width, N`, `enzyme_primal_return`, `enzyme_const_return`,
// `enzyme_noret` — may come anywhere. This file turns such a call into a
// DerivativeKey plus the argument list of the derivative function, and
// replaces it with a call to the derivative.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ENZYMECALLS_H
#define ADCORE_ENZYMECALLS_H

#include "adcore/Request.h"
#include "Synthesis.h"

#include "llvm/IR/Argument.h"

namespace adcore {

/// Replaces the forward-mode request \p R (an `__enzyme_fwddiff` call) by a
/// call to the derivative it asks for. False after a reported error.
bool lowerForwardRequest(const Request &R, SynthesisContext &Ctx);

/// Replaces the reverse-mode request \p R (an `__enzyme_autodiff` call) by
/// calls to the augmented and reverse sweeps of the function: the result
/// holds the adjoints of the active (`enzyme_out`, float) arguments, the
/// adjoints of duplicated pointers are added into their shadows, and a
/// float result is seeded with 1.
bool lowerReverseRequest(const Request &R, SynthesisContext &Ctx);

/// Split reverse mode: `__enzyme_augmentfwd` runs the augmented sweep and
/// returns a handle to its records on the thread's tape (with the result as
/// {handle, result} when declared so); `__enzyme_reverse` takes the same
/// arguments, then the adjoint of a float result, then the handle, and runs
/// the reverse sweep (the runtime checks that it is the most recent
/// augmented sweep); `__enzyme_augmentsize` is the size of the handle.
bool lowerSplitRequest(const Request &R, SynthesisContext &Ctx);

/// Split forward mode: `__enzyme_fwdsplit` takes __enzyme_fwddiff's
/// arguments, then the tape of an `__enzyme_augmentfwd` of the same
/// function, and runs the tangent sweep on the primal values that call
/// recorded; `__enzyme_augmentfwd` of a function with such requests in the
/// file (lowerSplitRequest) runs the recording sweep (ForwardSplit.cpp).
bool lowerForwardSplitRequest(const Request &R, SynthesisContext &Ctx);

/// `__enzyme_batch`: the primal on enzyme_width sets of arguments
/// (BatchedPrimal.cpp).
bool lowerBatchRequest(const Request &R, SynthesisContext &Ctx);

/// Whether the shadow memory \p Shadow of a duplicated argument may hold
/// null pointers where the primal's point at data: the calling function
/// zeroes it (memset, a zero initializer, calloc) or stores a null pointer
/// into it, and fills some of it with nothing else before \p Request
/// (ZeroedShadows.cpp); or it is given to the calling function by its
/// caller (zeroed there, perhaps) and \p Param, the parameter of the
/// differentiated function it stands for, reads pointers from its memory
/// (or passes it to a call).
bool shadowMayHoldNullPointers(const llvm::Value *Shadow,
                               const llvm::CallBase &Request,
                               const llvm::Argument &Param,
                               const SynthesisContext &Ctx);

} // namespace adcore

#endif // ADCORE_ENZYMECALLS_H
