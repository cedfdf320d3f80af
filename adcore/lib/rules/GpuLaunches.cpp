//===- GpuLaunches.cpp - Kernel launches of the CUDA and HIP runtimes -----===//

#include "rules/GpuLaunches.h"
#include "support/IRMarks.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace adcore {
namespace {

struct GpuLaunchRow {
  const char *Name; ///< the entry point, or its start when Prefix
  bool Prefix;
  const char *Kind;
};

constexpr GpuLaunchRow GpuLaunchTable[] = {
    // CUDA runtime (k<<<...>>> calls cudaLaunchKernel from its stub)
    {"cudaLaunchKernel", true, "CUDA kernel launch"},
    {"cudaLaunchCooperativeKernel", true, "CUDA kernel launch"},
    {"cudaLaunchDevice", false, "CUDA kernel launch"},
    {"cudaGraphLaunch", false, "CUDA graph launch"},
    // CUDA driver API
    {"cuLaunchKernel", true, "CUDA kernel launch"},
    {"cuLaunchCooperativeKernel", true, "CUDA kernel launch"},
    // HIP runtime
    {"hipLaunchKernel", true, "HIP kernel launch"},
    {"hipLaunchCooperativeKernel", true, "HIP kernel launch"},
    {"hipModuleLaunchKernel", false, "HIP kernel launch"},
    {"hipExtLaunchKernel", true, "HIP kernel launch"},
    {"hipGraphLaunch", false, "HIP graph launch"},
};

} // namespace

StringRef gpuLaunchKind(const Function &F) {
  StringRef Name = F.getName();
  if (F.hasFnAttribute(LaunchRuleAttr))
    return "";
  // (clang's stub of a __global__ function: __device_stub__k, mangled)
  if (!F.isDeclaration())
    return Name.contains("__device_stub__") ? "kernel launch (<<<...>>>)"
                                            : "";
  for (const GpuLaunchRow &Row : GpuLaunchTable)
    if (Row.Prefix ? Name.starts_with(Row.Name) : Name == Row.Name)
      return Row.Kind;
  return "";
}

bool isKernelsHeaderFunction(const Function &F) {
  // (adcc::detail::..., whose launches have rules of the header's own)
  return F.getName().starts_with(KernelsHeaderPrefix);
}

const CallBase *findGpuLaunch(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !gpuLaunchKind(*Callee).empty())
          return Call;
  return nullptr;
}

} // namespace adcore
