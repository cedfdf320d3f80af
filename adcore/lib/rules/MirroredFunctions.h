//===- rules/MirroredFunctions.h - Functions repeated on shadows ---*- C++ -*-//
//
// Library functions that only link and walk pointer structures (the nodes
// of std::map's red-black tree, of std::list): no floating-point data goes
// through them. A derivative calls such a function a second time with the
// shadows of its pointer arguments, so that the shadow structure follows
// the primal one, and a pointer result's shadow is the second call's
// result. In reverse mode that happens in the augmented sweep; the reverse
// sweep has nothing to do.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MIRROREDFUNCTIONS_H
#define ADCORE_MIRROREDFUNCTIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace adcore {

bool isShadowMirroredFunction(const llvm::Function &F);

/// Whether \p F, such a function, is a step (a tree iterator's increment
/// or decrement): it reads links and returns a node, changing nothing.
bool isMirroredStep(const llvm::Function &F);

/// Emits at \p B the step \p Call (isMirroredStep) taken again on
/// \p Shadow, the shadow of its argument, which may be null or a scratch
/// shadow (support/NullShadowGuards.h: the shadow of a constant map read
/// back from memory), where there are no links to walk: there the step is
/// taken on the primal again and the result's shadow is the scratch shadow
/// of the primal result (\p ScratchLane), null outside a session. Returns
/// the result's shadow.
llvm::Value *emitNullableMirroredStep(llvm::IRBuilder<> &B,
                                      llvm::CallBase &Call,
                                      llvm::Value *Shadow,
                                      unsigned ScratchLane);

/// Checks a call of such a function: \p Any says whether one of its pointer
/// arguments has a shadow (by \p HasShadow); then all must (null aside),
/// and it must not be an invoke. Returns the error, or an empty string.
std::string checkMirroredCall(const llvm::CallBase &Call,
                              llvm::function_ref<bool(llvm::Value *)> HasShadow,
                              bool &Any);

} // namespace adcore

#endif // ADCORE_MIRROREDFUNCTIONS_H
