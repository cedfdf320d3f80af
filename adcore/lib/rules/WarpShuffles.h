//===- rules/WarpShuffles.h - Derivatives of warp shuffles ------*- C++ -*-===//
//
// CUDA's warp shuffles of floating-point values (`__shfl_sync`,
// `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync` of a float or a
// double: the functions of clang's CUDA header, which shuffle a double as
// two 32-bit halves; the raw NVVM builtins of a float,
// `__nvvm_shfl_sync_down_f32` and friends; HIP's `__shfl`, `__shfl_up`,
// `__shfl_down`, `__shfl_xor` of a float or a double on AMDGPU) have rules, given to the emitters as registered rules
// are (CustomRules.h). A shuffle is linear in the value:
//
//   forward:  the tangent is shuffled the same way;
//   reverse:  the adjoint of the result goes back to the lane the value
//             came from.
//
// The functions are kept out of line until derivatives are made, then
// inlined (DeviceLibraries.cpp), as the device math functions are.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_WARPSHUFFLES_H
#define ADCORE_RULES_WARPSHUFFLES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class FunctionType;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// The lane's id in its AMDGPU wavefront (HipShuffles.cpp).
llvm::Value *amdgpuLaneId(llvm::IRBuilderBase &B);
/// In a function on AMDGPU: the sum of the adjoints \p Adjoint of the
/// active lanes whose \p Source lane is this one, gathered in a loop over
/// the wavefront's lanes that \p B builds from its insertion point (the
/// reverse of a lane permutation: HIP's shuffles, readlane, ds_bpermute,
/// DPP moves). B is left after the loop.
llvm::Value *gatheredAdjoint(llvm::IRBuilderBase &B, llvm::Value *Adjoint,
                             llvm::Value *Source);

/// Whether \p F is one of the CUDA header's shuffles of a float or a
/// double in an NVPTX module, or one of HIP's in an AMDGPU module.
bool isWarpShuffle(const llvm::Function &F);

/// HIP's shuffles of a float or a double (`__shfl`, `__shfl_up`,
/// `__shfl_down`, `__shfl_xor` of its header) in an AMDGPU module, and
/// their rules (HipShuffles.cpp); the functions below dispatch to them.
bool isHipShuffle(const llvm::Function &F);
llvm::Function *hipShuffleForwardRule(const llvm::Function &F);
bool hipShuffleGradientRule(const llvm::Function &F,
                            llvm::Function *&Augmented,
                            llvm::Function *&Reverse);

/// The program's own AMDGPU cross-lane reads of floating-point values
/// (AmdgpuCrossLane.cpp): wrapAmdgpuCrossLane replaces each call of
/// `llvm.amdgcn.readlane` or `readfirstlane` of a float or a double, and
/// each `ds_bpermute` of a float's bits, by a call of a holder function
/// (`adcc.amdgcn.readlane.f64`, ...), whose rules are below; returns
/// whether it changed any (before the AD pass: the optimizer folds the bit
/// casts of a float's bits into these first).
bool wrapAmdgpuCrossLane(llvm::Module &M);
bool isAmdgpuCrossLane(const llvm::Function &F);
llvm::Function *amdgpuCrossLaneForwardRule(const llvm::Function &F);
bool amdgpuCrossLaneGradientRule(const llvm::Function &F,
                                 llvm::Function *&Augmented,
                                 llvm::Function *&Reverse);

/// Replaces each call of a raw NVVM shuffle of a float in NVPTX module
/// \p M (`llvm.nvvm.shfl.sync.down.f32`, ...) by a call of a function
/// that holds it (`adcc.nvvm.shfl.sync.down.f32`), a shuffle with
/// the rules below; returns whether it changed any.
bool wrapRawShuffles(llvm::Module &M);

/// Whether \p F is such a holder of a raw intrinsic (removed once its calls
/// are inlined after the AD pass).
bool isRawShuffleHolder(const llvm::Function &F);

/// Whether \p F is one of the functions the rules below make (inlined
/// into their callers after the AD pass, with the shuffles they call).
bool isWarpShuffleRule(const llvm::Function &F);

/// A rule function named \p Kind (`fwd`, `aug`, `rev`) for the shuffle
/// \p F, of type \p FT, convergent as shuffles are; without a body when
/// new (WarpShuffles.cpp, HipShuffles.cpp fill it).
llvm::Function *shuffleRuleFunction(const llvm::Function &F,
                                    llvm::StringRef Kind,
                                    llvm::FunctionType *FT);

/// The forward derivative of the shuffle \p F (made in F's module the
/// first time), or null when F is none.
llvm::Function *warpShuffleForwardRule(const llvm::Function &F);

/// The augmented and reverse functions of the shuffle \p F; false when F is
/// none.
bool warpShuffleGradientRule(const llvm::Function &F,
                             llvm::Function *&Augmented,
                             llvm::Function *&Reverse);

} // namespace adcore

#endif // ADCORE_RULES_WARPSHUFFLES_H
