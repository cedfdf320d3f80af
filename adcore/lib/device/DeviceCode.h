//===- DeviceCode.h - Differentiating GPU device code ---*- C++ -*-===//
//
// What differs when the module is NVPTX or AMDGPU device code:
//
// - Math. The device libraries' functions (`__nv_sin` of libdevice,
//   `__ocml_sin_f64` of ROCm's ocml) are the rows of libm's functions, and
//   the target's math intrinsics (`llvm.nvvm.sqrt.rn.d`, `llvm.amdgcn.rsq`)
//   have rows of their own (DeviceMath.cpp). The device libraries are
//   linked into the module before optimization and marked always_inline:
//   those with a row are kept as calls until derivatives are made, then
//   inlined; the functions the partials call (`__nv_cos` for sin's) are
//   linked in afterwards (DeviceLibraries.cpp).
// - The tape. Device code cannot call adcc's host runtime: what a combined
//   gradient records lives in a buffer in its own frame, sized at compile
//   time; a tape whose size is not known then is an error (DeviceTape.cpp),
//   and a final check turns any remaining call of the runtime into an
//   internal error.
// - Adjoint updates of memory that several threads may touch are atomic
//   adds (DeviceMemory.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DEVICE_DEVICECODE_H
#define ADCORE_DEVICE_DEVICECODE_H

#include "rules/DeviceMath.h"
#include "support/IRMarks.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

#include <set>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace adcore {

struct MathRule;
class SynthesisContext;

/// The most a GPU thread's tape may take: CUDA's limit of local memory per
/// thread (512 KiB); AMDGPU's private segment is smaller still in practice.
constexpr uint64_t MaxThreadTape = 512 * 1024;

/// Adds to device module \p M the derivative kernels of each kernel named
/// in \p Launched (the host code launches it with <<<...>>>) whose
/// parameters are numbers and pointers: __adcc_fwd_K, __adcc_size_K,
/// __adcc_aug_K and __adcc_rev_K, which request their derivatives as a
/// program would (LaunchKernels.cpp). Each kernel's are first made in a
/// copy of the module, which \p Try differentiates, returning the first
/// error or ""; a kernel with an error gets none, and a warning. Returns
/// whether it made any.
bool makeLaunchDerivativeKernels(
    llvm::Module &M, const std::set<std::string> &Launched,
    llvm::function_ref<std::string(llvm::Module &)> Try);

/// Marks the device-library functions that have a rule `noinline` (they
/// arrive `alwaysinline`), so that the AD pass sees their calls. Returns
/// whether it changed any.
bool keepDeviceMathOutOfLine(llvm::Module &M);

/// keepDeviceMathOutOfLine as a pass (pipeline start).
struct KeepDeviceMathPass : public llvm::PassInfoMixin<KeepDeviceMathPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// After the AD pass: links the device libraries \p Libraries (bitcode
/// files) for the functions the derivatives call that the module only
/// declares (`__nv_cos`), then inlines the device-library functions
/// kept out of line and those linked here. \p M must be a device module.
void finishDeviceMath(llvm::Module &M,
                      const std::vector<std::string> &Libraries);

/// Moves what the combined gradients of a device module record into a
/// buffer in their own frame, once the sweeps are inlined into their
/// combined function (finishGenerated): replaces each tape push and pop
/// by a bump of an offset into a stack buffer whose size is the most that
/// the sweeps can record (constant record sizes, loops with a constant
/// bound on their trips). Reports "tape of unknown size in device code"
/// at the record otherwise. With \p Promote (-O0), the frame's locals are
/// promoted to registers first, so that loops' trip counts are seen.
void placeDeviceTapes(SynthesisContext &Ctx, bool Promote);

/// Split mode in device code (__enzyme_augmentfwd with enzyme_tape, then
/// __enzyme_reverse with the same pointer): the caller gives each thread a
/// tape slot in memory that outlives the call, at least
/// __enzyme_augmentsize bytes (DeviceSlots.cpp). Emits, at \p B, the mark
/// that the sweep of \p Primal called there (augmented if \p Augment,
/// else reverse) records in \p Slot; placeDeviceTapes then puts the
/// records of the function holding it in the slot.
void emitDeviceTapeSlot(llvm::IRBuilder<> &B, llvm::Value *Slot,
                        llvm::Function &Primal, bool Augment);

/// __enzyme_augmentsize of \p Primal in device code: the bytes of a tape
/// slot (its records at most, as placeDeviceTapes finds them), as a value
/// of type \p Ty.
llvm::Value *emitDeviceTapeSize(llvm::IRBuilder<> &B, llvm::Function &Primal,
                                llvm::Type *Ty);

/// The internal error for generated device code that still calls adcc's
/// host runtime (an adcc bug: every user-reachable case is reported before).
void verifyNoRuntimeCalls(SynthesisContext &Ctx);

/// Whether \p G is a `__shared__` array of device code (address space 3
/// of an NVPTX or AMDGPU module): its shadow is another shared array.
bool isSharedArray(const llvm::GlobalVariable &G);

/// Whether \p G is the shadow of a `__shared__` array (a shadow global,
/// GlobalShadows.cpp, in shared memory).
bool isSharedShadow(const llvm::GlobalVariable &G);

/// Before the sweeps of each gradient of device code whose sweeps use
/// shadow `__shared__` arrays, the threads of the block zero those arrays
/// together, then meet at a barrier; another barrier follows the reverse
/// sweep (SharedShadows.cpp). So do the reverse kernels of launches
/// (marked LaunchReverseMetadata, LaunchKernels.cpp) at their start: shared
/// memory does not outlive the augmented kernel.
void zeroSharedShadows(SynthesisContext &Ctx);

/// The mark of a launch's reverse kernel (__adcc_rev_K).
constexpr const char *LaunchReverseMetadata = "adcc.launch.reverse";

/// The thread's linear index in its block and the block's number of
/// threads (x fastest, i32), at \p B.
std::pair<llvm::Value *, llvm::Value *> threadInBlock(llvm::IRBuilder<> &B,
                                                      llvm::Module &M);

/// A barrier of the block at \p B, as the target's __syncthreads() is.
void blockBarrier(llvm::IRBuilder<> &B, llvm::Module &M);

/// Whether \p F is a barrier of a thread block (__syncthreads(),
/// __syncwarp(), AMDGPU's s_barrier): kept as it is in forward mode,
/// mirrored in the reverse sweep.
bool isDeviceBarrier(const llvm::Function &F);

/// Reports what \p Primal and the functions it calls hold that cannot be
/// differentiated in device code (DeviceChecks.cpp): inline assembly,
/// dynamic parallelism, grid synchronization; the callees with a
/// registered derivative for the mode (\p Reverse or forward) are not
/// looked into. Returns false after an error.
bool checkDeviceCode(const llvm::Function &Primal, bool Reverse,
                     SynthesisContext &Ctx);

/// Whether the adjoint update at \p Ptr (the primal address) needs an
/// atomic add in device code: false for private memory (a stack slot,
/// AMDGPU's and NVPTX's local address space) and for an address indexed by
/// the global thread id (or shared memory indexed by the thread's index in
/// its block) where no other pointer parameter the function reads through
/// may overlap that array; true elsewhere. \p Why says which.
bool needsAtomicUpdate(const llvm::Value *Ptr, const char *&Why);

/// The array the primal address \p Ptr points into, as the remark of
/// adjoint updates names it: "parameter 2 (x)" (a pointer parameter, at
/// -O0 through the stack slot holding it; the name where the IR or its
/// debug information keeps one), "'f()::tile'" (a global or `__shared__`
/// array); empty for private memory and an address read from other memory.
std::string deviceArrayName(const llvm::Value *Ptr);

} // namespace adcore

#endif // ADCORE_DEVICE_DEVICECODE_H
