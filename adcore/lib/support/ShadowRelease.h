//===- support/ShadowRelease.h - Zeroing adcc's own shadow globals -*- C++
//-*-===//
//
// After a request's derivative returns, the shadows adcc made of static
// globals (OwnShadowMetadata, set by analysis/GlobalShadows.cpp) hold what
// the call left: a reverse sweep's adjoints of values the call read before
// storing them, a forward derivative's tangents. To the next call a
// global's value from before it is a constant, so they are zeroed: a
// forward derivative read a gradient's leftover adjoint as a tangent. So
// are those of globals other files see, unless a file of the program
// names `<name>_shadow` (a weak marker it defines, which the linker
// resolves): such a shadow, like one named with enzyme_shadow, is the
// program's to zero, and left as it is. The shadows that derivatives made
// at link time use are zeroed by a function made with each (CrossTU.h),
// which the request calls.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SHADOWRELEASE_H
#define ADCORE_SUPPORT_SHADOWRELEASE_H

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// The shadow globals marked OwnShadowMetadata that \p Derivatives or a
/// function they reach use. The derivatives made at link time that they
/// call (declarations named by crossTUSymbol) go to \p Deferred.
llvm::SetVector<llvm::GlobalVariable *>
ownShadowsUsedBy(llvm::ArrayRef<const llvm::Function *> Derivatives,
                 llvm::SetVector<const llvm::Function *> *Deferred = nullptr);

/// Zeroes at \p B the shadow globals marked OwnShadowMetadata that \p
/// Derivatives (what a request calls: a forward derivative, a gradient, a
/// reverse sweep with its augmented sweep, whose records may hold the
/// shadows' addresses; not an augmented sweep alone, whose reverse sweep
/// reads them still) or a function they reach use; the shadow of a global
/// other files see only where no linked file names it (markNamedShadows).
/// For each derivative made at link time that they call, calls the
/// function made with it that zeroes its shadows (crossTUReleaseSymbol):
/// one of those calls the derivative as the caller's derivative does,
/// nested, and must leave what a call leaves in them for the next. \p B is
/// left after the zeroing. Returns whether there was any.
bool releaseOwnShadows(llvm::IRBuilder<> &B,
                       llvm::ArrayRef<const llvm::Function *> Derivatives);

/// Defines, weak, the marker `adcc.names.<name>_shadow` for each
/// `<name>_shadow` that \p M declares and uses: the program reads or
/// writes that shadow, which is then its own to zero, as a named shadow
/// is. Returns whether it defined any.
bool markNamedShadows(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_SUPPORT_SHADOWRELEASE_H
