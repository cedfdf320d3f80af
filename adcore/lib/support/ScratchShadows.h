//===- ScratchShadows.h - Shadows for constant memory a call writes -*- C++ -*-===//
//
// Memory a request passes `enzyme_const` has no shadow. A function that
// overwrites it with a value that has a derivative and reads it back within
// the call (`s[0] = s[0] * w[0]; return s[0] * s[0];`) needs one for the
// call's own derivative: the request passes a scratch shadow, zero at the
// start (the memory's contents are constants), discarded at the end (what
// the call leaves there carries no derivative to later calls, as the mark
// says). The runtime reserves it as zero pages on demand around the
// argument's address, so that any offset from the argument has a shadow
// without knowing the memory's extent (runtime/lib/scratch_shadows.c).
//
// Only where that is sound and needed: the analysis below follows the
// argument through the function and the functions it passes it to. Memory
// holding pointers (a pointer table read through the argument) is left to
// the null shadows of NullableShadows.h; memory only written (the active
// value left for a later call) keeps the error that names the argument.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SCRATCHSHADOWS_H
#define ADCORE_SCRATCHSHADOWS_H

#include "adcore/Derivative.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

class CustomRules;

/// How a function uses the memory its constant pointer argument points to.
enum class ConstantMemoryUse {
  Clean,     ///< no value with a derivative is stored into it
  ReadBack,  ///< written with derivatives and read: needs a scratch shadow
  WriteOnly, ///< written with derivatives, never read within the call
  Unknown    ///< holds pointers, escapes, or is passed where adcc can't see
};

/// How \p F, called with arguments of activity \p Args, uses the memory
/// argument \p ArgNo (a constant pointer) points to, and the functions with
/// bodies it passes that memory to (a few calls deep).
ConstantMemoryUse constantMemoryUse(llvm::Function &F,
                                    llvm::ArrayRef<ArgActivity> Args,
                                    unsigned ArgNo, const CustomRules &Rules);

/// Emits at \p B the reservation of a scratch shadow for the memory around
/// \p Primal; returns the shadow of \p Primal.
llvm::Value *beginScratchShadow(llvm::IRBuilder<> &B, llvm::Value *Primal);
/// Emits at \p B the release of \p Shadow, made by beginScratchShadow.
void endScratchShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow);

/// enzyme_runtime_activity: emits at \p B the shadow to pass for the
/// duplicated pointer \p Primal given \p Shadow: \p Shadow, or a scratch
/// shadow where the two are equal at run time (the argument is inactive).
llvm::Value *beginRuntimeActivityShadow(llvm::IRBuilder<> &B,
                                        llvm::Value *Primal,
                                        llvm::Value *Shadow);
/// Emits at \p B the release of \p Passed (beginRuntimeActivityShadow's
/// result) where it is a scratch shadow.
void endRuntimeActivityShadow(llvm::IRBuilder<> &B, llvm::Value *Primal,
                              llvm::Value *Given, llvm::Value *Passed);

/// Whether \p F is the runtime function beginScratchShadow (or
/// beginRuntimeActivityShadow) calls. Code
/// that makes a scratch shadow (a request inside a function) and is itself
/// differentiated is an error (ScratchShadowNestedError): the outer
/// derivative would need a shadow of the scratch shadow, which it has not.
bool isScratchShadowBegin(const llvm::Function &F);
constexpr const char *ScratchShadowNestedError =
    "a request in this function passes memory enzyme_const that the "
    "function it differentiates overwrites and reads back (a scratch "
    "shadow), and this function is differentiated again; pass that memory "
    "enzyme_dup with a zeroed shadow buffer";

} // namespace adcore

#endif // ADCORE_SCRATCHSHADOWS_H
