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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace adcore {

/// The shadow globals marked OwnShadowMetadata that \p Derivatives or a
/// function they reach use. The declarations they reach go to \p
/// Declarations.
llvm::SetVector<llvm::GlobalVariable *> ownShadowsUsedBy(
    llvm::ArrayRef<const llvm::Function *> Derivatives,
    llvm::SetVector<const llvm::Function *> *Declarations = nullptr);

/// The name of the function that zeroes the shadows that the derivative
/// made at link time \p Declaration uses (crossTUReleaseSymbol, CrossTU.h),
/// or empty for another declaration.
using ReleaseNameFn = llvm::function_ref<std::string(const llvm::Function &)>;

/// Zeroes at \p B the shadow globals marked OwnShadowMetadata that \p
/// Derivatives (what a request calls: a forward derivative, a gradient, a
/// reverse sweep with its augmented sweep, whose records may hold the
/// shadows' addresses; not an augmented sweep alone, whose reverse sweep
/// reads them still) or a function they reach use; the shadow of a global
/// other files see only where no linked file names it (markNamedShadows).
/// For each declaration they reach that \p ReleaseNameOf names a function
/// for (a derivative made at link time), calls that function, made with
/// the derivative: the derivative itself zeroes nothing, since the
/// caller's derivatives call it too, nested, and each call must leave in
/// the shadows what the next reads. \p B is left after the zeroing.
/// Returns whether there was any.
bool releaseOwnShadows(llvm::IRBuilder<> &B,
                       llvm::ArrayRef<const llvm::Function *> Derivatives,
                       ReleaseNameFn ReleaseNameOf = nullptr);

/// Defines, weak, the marker `adcc.names.<name>_shadow` for each
/// `<name>_shadow` that \p M declares and uses: the program reads or
/// writes that shadow, which is then its own to zero, as a named shadow
/// is. Returns whether it defined any.
bool markNamedShadows(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_SUPPORT_SHADOWRELEASE_H
