//===- DeviceChecks.cpp - Device code adcc cannot differentiate -----------===//
//
// Before a derivative of device code is made, the code it reaches is
// searched for what has no derivative there, each a located error:
//
//   inline assembly       `asm("...")` (PTX or AMDGPU instructions)
//   dynamic parallelism   a kernel launch from device code
//   grid synchronization  cooperative groups' grid.sync()
//
// Barriers of a block (__syncthreads(), __syncwarp(), AMDGPU's s_barrier
// and the fences around it) are no error: in forward mode a barrier stays
// where it is (the tangents of shared memory are written beside its
// values, before the same barrier); in reverse mode the reverse sweep runs
// a mirror of it at the mirrored place (reverse/DeviceUpdates.cpp), so
// that adjoints other threads added before it are complete after it.
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "adcore/MathRules.h"
#include "Synthesis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr unsigned SharedAddressSpace = 3; // NVPTX shared, AMDGPU LDS

/// A call adcc cannot differentiate in device code, by the start of the
/// callee's name, and what it is.
struct DeviceCallRow {
  const char *Prefix;
  const char *What;
  /// A barrier: mirrored in the reverse sweep, not an error.
  bool Barrier;
};

constexpr DeviceCallRow DeviceCallTable[] = {
    {"cudaLaunchDevice", "dynamic parallelism (a kernel launch in device "
                         "code)", false},
    {"cudaGetParameterBuffer", "dynamic parallelism (a kernel launch in "
                               "device code)", false},
    {"__cudaCDP", "dynamic parallelism (a kernel launch in device code)",
     false},
    {"cudaCGSynchronizeGrid", "grid-wide synchronization (grid.sync())",
     false},
    {"cudaCGSynchronize", "grid-wide synchronization (grid.sync())", false},
    {"__ockl_grid_sync", "grid-wide synchronization (grid.sync())", false},
    {"__ockl_multi_grid_sync", "grid-wide synchronization (grid.sync())",
     false},
    {"llvm.nvvm.barrier", "__syncthreads()", true},
    {"llvm.nvvm.bar.", "__syncwarp()", true},
    {"llvm.amdgcn.s.barrier", "__syncthreads()", true},
};

const DeviceCallRow *deviceCallRow(const Function &F) {
  for (const DeviceCallRow &Row : DeviceCallTable)
    if (F.getName().starts_with(Row.Prefix))
      return &Row;
  return nullptr;
}

} // namespace

bool isSharedArray(const GlobalVariable &G) {
  return G.getAddressSpace() == SharedAddressSpace &&
         isDeviceModule(*G.getParent());
}

bool isDeviceBarrier(const Function &F) {
  const DeviceCallRow *Row = deviceCallRow(F);
  return Row && Row->Barrier;
}

bool checkDeviceCode(const Function &Primal, SynthesisContext &Ctx) {
  // (Direct calls, not into a device library's function with a rule: its
  // body, which may hold inline assembly, is not differentiated.)
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&Primal};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration() ||
        (F != &Primal && findMathRule(*F)))
      continue;
    for (const Instruction &I : instructions(*F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (const Function *Callee = Call->getCalledFunction())
        Work.push_back(Callee);
      std::string What;
      if (Call->isInlineAsm()) {
        What = "inline assembly";
      } else if (const Function *Callee = Call->getCalledFunction()) {
        const DeviceCallRow *Row = deviceCallRow(*Callee);
        if (Row && !Row->Barrier)
          What = Row->What;
      }
      if (What.empty())
        continue;
      Ctx.error(I, "cannot differentiate " + Ctx.describe(Primal) +
                       " in device code: " + What +
                       " is not supported");
      return false;
    }
  }
  return true;
}

} // namespace adcore
