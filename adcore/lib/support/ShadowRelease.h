//===- support/ShadowRelease.h - Zeroing adcc's own shadow globals -*- C++ -*-===//
//
// After a request's derivative returns, the shadows adcc made of static
// globals (OwnShadowMetadata, set by analysis/GlobalShadows.cpp) hold what
// the call left: a reverse sweep's adjoints of values the call read before
// storing them, a forward derivative's tangents. To the next call a
// global's value from before it is a constant, so they are zeroed: a
// forward derivative read a gradient's leftover adjoint as a tangent. (The
// shadow of a global other files see, or one the program names, is the
// program's, and left as it is.)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SHADOWRELEASE_H
#define ADCORE_SUPPORT_SHADOWRELEASE_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Zeroes at \p B the shadow globals marked OwnShadowMetadata that \p
/// Derivative (a request's derivative: forward, a gradient, a reverse
/// sweep; not an augmented sweep, whose reverse sweep reads them still)
/// or a function it reaches uses.
void releaseOwnShadows(llvm::IRBuilder<> &B, const llvm::Function &Derivative);

} // namespace adcore

#endif // ADCORE_SUPPORT_SHADOWRELEASE_H
