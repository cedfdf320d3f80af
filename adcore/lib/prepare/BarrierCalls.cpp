//===- BarrierCalls.cpp - Barriers in functions of their own --------------===//
//
// The reverse sweep mirrors each barrier of the block (__syncthreads(),
// AMDGPU's s_barrier between its fences) where the primal has it
// (reverse/DeviceUpdates.cpp). A barrier inside a function of its own that
// is not inlined (a program's `sync()` helper at -O0) is a call without
// derivatives, which the reverse sweep would leave out: the adjoints that
// other threads add into shared memory would race with their reads. Before
// differentiation such calls in a function of device code are inlined, so
// that the barriers are the function's own and get mirrored.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "device/DeviceCode.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

/// True when \p F, or a function it calls, waits at a barrier.
bool waitsAtBarrier(const Function &F, SmallPtrSetImpl<const Function *> &Seen) {
  if (isDeviceBarrier(F))
    return true;
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && waitsAtBarrier(*Callee, Seen))
        return true;
  return false;
}

} // namespace

bool inlineBarrierCalls(Function &F) {
  if (!isDeviceModule(*F.getParent()))
    return false;
  bool Changed = false;
  // (A few rounds: a helper's helper; recursion stops there.)
  for (int Round = 0; Round < 4; ++Round) {
    SmallVector<CallBase *, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        Function *Callee = Call->getCalledFunction();
        SmallPtrSet<const Function *, 8> Seen;
        if (Callee && Callee != &F && !Callee->isDeclaration() &&
            !isDeviceBarrier(*Callee) && waitsAtBarrier(*Callee, Seen))
          Calls.push_back(Call);
      }
    if (Calls.empty())
      break;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo Info;
      Changed |= InlineFunction(*Call, Info).isSuccess();
    }
  }
  return Changed;
}

} // namespace adcore
