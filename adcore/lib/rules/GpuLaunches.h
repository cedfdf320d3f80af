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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>

namespace llvm {
class CallBase;
class Function;
class GlobalValue;
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// The attribute of a launch stub whose derivatives are registered
/// (LaunchRules.cpp): its calls are differentiated, not an error.
constexpr llvm::StringLiteral LaunchRuleAttr = "adcc-launch-rule";

/// The attribute of a launch stub that names, as a decimal bit set, the
/// pointer parameters its kernel's body writes through directly, as the
/// frontend saw the source (Options::WrittenKernelParams, named by the
/// kernel or its stub).
constexpr llvm::StringLiteral WrittenParamsAttr = "adcc-written-params";
/// Marks the launch stubs of \p M with WrittenParamsAttr from \p Table
/// (kernel IR name: bits, number of parameters; a stub whose IR parameters
/// are not the kernel's, one each, is left unmarked).
void markWrittenKernelParams(
    llvm::Module &M,
    const std::map<std::string, std::pair<uint64_t, unsigned>> &Table);
/// The parameter of the launch stub \p Stub whose kernel writes through
/// it, that \p Call (a call of Stub in differentiated code) gives a pointer
/// without a shadow (\p HasShadow says), or -1: the derivative of the
/// launch would stop at run time (runtime/lib/gpu_launch.c), and is a
/// located error (launchWithoutShadowError).
int writtenWithoutShadow(const llvm::CallBase &Call, const llvm::Function &Stub,
                         llvm::function_ref<bool(const llvm::Value *)> HasShadow);
/// The error for parameter \p No of \p Stub (writtenWithoutShadow).
std::string launchWithoutShadowError(const llvm::Function &Stub, unsigned No);
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
