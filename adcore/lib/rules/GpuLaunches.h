//===- rules/GpuLaunches.h - Kernel launches of the CUDA and HIP runtimes -*- C++ -*-===//
//
// Host code compiled with -x cuda or -x hip launches a kernel
// (`k<<<grid, block>>>(args)`) through a stub, `__device_stub__k`, that
// calls the runtime's launch function (cudaLaunchKernel, hipLaunchKernel,
// ...). None of these has a body adcc can differentiate: a derivative
// through them would leave out the kernel's part. Differentiated code that
// reaches one is a located error at the launch that names the launch adcc
// differentiates (adcc::launch of <adcc/kernels.hpp>). One row per entry
// point; the stubs are recognized by their name.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_GPULAUNCHES_H
#define ADCORE_RULES_GPULAUNCHES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Function;
class GlobalValue;
class Module;
} // namespace llvm

namespace adcore {

/// The attribute of a launch stub whose derivatives are registered
/// (LaunchRules.cpp): its calls are differentiated, not an error.
constexpr llvm::StringLiteral LaunchRuleAttr = "adcc-launch-rule";

/// Registers derivatives of the launch stubs of host module \p M, when it
/// may ask for derivatives: the derivative kernels launched by the runtime
/// (LaunchRules.cpp). Returns whether it made any.
bool makeLaunchRules(llvm::Module &M);

/// The kernel handle that launch stub \p Stub passes to cudaLaunchKernel
/// or hipLaunchKernel (the stub itself for CUDA, a global for HIP), or
/// null.
llvm::GlobalValue *launchHandleOf(llvm::Function &Stub);

/// True for the kernels and stubs of <adcc/kernels.hpp> (adcc::detail),
/// whose launches the header differentiates itself.
bool isKernelsHeaderFunction(const llvm::Function &F);

/// What a call of \p F launches when it is a GPU kernel launch of host code
/// (a launch stub or a launch function of the CUDA, HIP or CUDA driver
/// runtime): "CUDA kernel launch", ...; an empty string otherwise.
llvm::StringRef gpuLaunchKind(const llvm::Function &F);

/// The first call in \p F of a function gpuLaunchKind names, or null.
const llvm::CallBase *findGpuLaunch(const llvm::Function &F);

} // namespace adcore

#endif // ADCORE_RULES_GPULAUNCHES_H
