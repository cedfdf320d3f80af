//===- frontend/LaunchedKernels.h - Kernels launched with <<<>>> -*- C++ -*-===//
//
// In a device compile, the host code is parsed but not compiled: only the
// source shows which kernels it launches with CUDA's `k<<<grid,
// block>>>(args)`. The frontend lists them (adcore::Options::
// LaunchedKernels) so that the device code gets their derivative kernels,
// which the host code's derivative of such a launch runs (docs/gpu.md).
// In a host compile, the device code is not compiled: only the source
// shows which pointer parameters a launched kernel writes through, which
// the derivative of a launch needs shadows for.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_LAUNCHEDKERNELS_H
#define ADCC_FRONTEND_LAUNCHEDKERNELS_H

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class CUDAKernelCallExpr;
} // namespace clang

namespace adcc::frontend {

/// The set the launches of the compile go to (none: not recorded).
void setLaunchedKernelSet(std::shared_ptr<std::set<std::string>> Set);

/// Records the kernel that \p Launch launches, in a device compile.
void recordLaunchedKernel(clang::ASTContext &Ctx,
                          const clang::CUDAKernelCallExpr &Launch);

/// The table that host compiles fill (none: not recorded): per launched
/// kernel's IR name, the pointer parameters its body writes through
/// (adcore::Options::WrittenKernelParams).
void setWrittenParamTable(
    std::shared_ptr<std::map<std::string, std::pair<uint64_t, unsigned>>>
        Table);

/// Records, in a host compile, which pointer parameters of the kernel that
/// \p Launch launches its body writes through.
void recordWrittenParams(clang::ASTContext &Ctx,
                         const clang::CUDAKernelCallExpr &Launch);

/// Records the kernel that \p Call launches when it is a direct call of
/// cudaLaunchKernel or hipLaunchKernel (or their cooperative forms) naming
/// a `__global__` function.
void recordDirectLaunch(clang::ASTContext &Ctx, const clang::CallExpr &Call);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_LAUNCHEDKERNELS_H
